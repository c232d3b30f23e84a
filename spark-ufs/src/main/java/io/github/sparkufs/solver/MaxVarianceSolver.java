package io.github.sparkufs.solver;

import io.github.sparkufs.linalg.ColumnStatistics;
import io.github.sparkufs.linalg.RowBlockMatrix;
import java.util.List;
import java.util.Map;

/**
 * The variance baseline (the MaxVar of the NDFS paper's experiments; docs/methods/maxvar.md): score
 * each feature by its variance {@code (1/n) Σ_i (x_ij − μ_j)²}, larger is better. The variances
 * are the data's {@link ColumnStatistics} (two passes per block, means then squared deviations,
 * merged pairwise), which read only the non-zeros of sparse input: no dense X is ever formed.
 */
public final class MaxVarianceSolver implements FeatureSelectionSolver {

  /** The variance baseline has no params. */
  public static final List<ParamSpec<?>> PARAMS = List.of();

  @Override
  public SelectionResult fit(RowBlockMatrix x) {
    x.execution().describe("feature variances");
    ColumnStatistics stats = x.columnStatistics();
    double[] var = new double[x.numCols()];
    for (int j = 0; j < var.length; j++) {
      var[j] = stats.variance(j);
    }
    return SelectionResult.closedForm(var, true, Map.of());
  }

  @Override
  public String denseInputReason() {
    return null;
  }
}
