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
   * Whether the method was measured losing planted features among more noise columns than
   * rows: its scores come from a regression of its targets on the d features, which with d ≥ n
   * noise columns fit as well as the informative ones, and its objective does not recover
   * (planted recall .38 for rsfs and .29 for fsasl at d = 500, n = 400: docs/recall.md,
   * many-noise; ndfs .96 and ordinal .79 there since their starts and data unit changed).
   */
  default boolean losesPlantedFeaturesWhenWide() {
    return false;
  }

  /**
   * Whether the method prices every feature in units of its own spread, so that features on a
   * smaller scale than the rest still count (only udfs found them in docs/recall.md,
   * small-scale-signal).
   */
  default boolean isScaleFree() {
    return false;
  }
}
