package io.github.sparkufs.solver;

import io.github.sparkufs.linalg.DoubleArrays;
import io.github.sparkufs.linalg.RowBlockMatrix;
import java.util.List;
import java.util.Map;

/**
 * The variance baseline (the MaxVar of the NDFS paper's experiments; docs/methods/maxvar.md): score
 * each feature by its variance {@code (1/n) Σ_i (x_ij − μ_j)²}, larger is better. Two passes
 * (means, then squared deviations) for accuracy.
 */
public final class MaxVarianceSolver implements FeatureSelectionSolver {

  /** The variance baseline has no params. */
  public static final List<ParamSpec<?>> PARAMS = List.of();

  @Override
  public SelectionResult fit(RowBlockMatrix x) {
    int n = x.numRows();
    int d = x.numCols();
    x.execution().describe("feature means");
    double[] mean = x.rowSums();
    for (int j = 0; j < d; j++) {
      mean[j] /= n;
    }
    x.execution().describe("feature variances");
    double[] var = x.blocks().aggregate(b -> {
      double[] s = new double[d];
      double[] v = b.columns().data();
      for (int i = 0; i < b.numRows(); i++) {
        for (int j = 0; j < d; j++) {
          double diff = v[i * d + j] - mean[j];
          s[j] += diff * diff;
        }
      }
      return s;
    }, DoubleArrays::accumulate);
    for (int j = 0; j < d; j++) {
      var[j] /= n;
    }
    return SelectionResult.closedForm(var, true, Map.of());
  }
}
