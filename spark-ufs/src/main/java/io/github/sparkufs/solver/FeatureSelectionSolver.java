package io.github.sparkufs.solver;

import io.github.sparkufs.linalg.DriverMemory;
import io.github.sparkufs.linalg.RowBlockMatrix;

/**
 * A feature-selection method on the row-block data abstraction: pure Java, no Spark types, so
 * the same code runs on the driver or over an RDD and is unit-tested without a SparkSession.
 */
@FunctionalInterface
public interface FeatureSelectionSolver {

  /** Scores the features of {@code x} (d × n; validated, finite, n > 0). */
  SelectionResult fit(RowBlockMatrix x);

  /**
   * Why this method needs the dense X, as the fit log gives it when sparse input is densified
   * for it (e.g. "needs the dense d x d Gram X Xᵀ (Eq. 12)"), or null when it runs on sparse
   * row blocks ({@link RowBlockMatrix#isSparse()}) as they are.
   */
  default String denseInputReason() {
    return "reads dense row blocks";
  }

  /**
   * The largest dense matrix this method holds on the driver for n samples of d features (the
   * one its fit announces to {@link DriverMemory}), or null when it holds none of size d × d or
   * n × n: checked when the input's shape is known, before the input is densified.
   */
  default DriverMemory.Need driverNeed(int n, int d) {
    return null;
  }

  /**
   * Whether the method, at its params, was measured losing planted features among more noise
   * columns than rows, below Laplacian Score: with d ≥ n its regression fits any clustering with
   * the noise columns as well as with the informative ones, and its objective does not recover
   * (docs/recall.md: many-noise, d = 500, n = 400, rsfs .40 and fsasl .32 with the features as
   * given, .90 and 1.00 by range; few-samples, d = 1000, n = 150, by default ndfs .21, rsfs .29
   * and mcfs .08, ordinal scored by its row norms .17, against lapscore's .71).
   */
  default boolean losesPlantedFeaturesWhenWide() {
    return false;
  }

  /**
   * Whether the method, at its params, prices every feature in units of its own spread, so that
   * features on a smaller scale than the rest still count (docs/recall.md, small-scale-signal:
   * found by udfs and by the methods that measure features by their range, by none of the
   * others).
   */
  default boolean isScaleFree() {
    return false;
  }
}
