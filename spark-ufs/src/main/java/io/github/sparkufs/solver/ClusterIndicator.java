package io.github.sparkufs.solver;

import io.github.sparkufs.linalg.DenseMatrix;
import java.util.Arrays;

/**
 * The relaxed cluster indicator that starts the multiplicative F updates of NDFS and RSFS
 * (docs/methods/ndfs.md, docs/methods/rsfs.md): the one-hot k-means indicator plus a positive
 * offset (a multiplicative update never moves a zero), each cluster's column scaled to unit norm,
 * stored c × n.
 */
final class ClusterIndicator {

  private ClusterIndicator() {}

  /** One-hot of {@code labels} (in [0, c)) plus {@code offset}, unit-norm clusters, c × n. */
  static DenseMatrix relaxed(int[] labels, int c, double offset) {
    int n = labels.length;
    DenseMatrix f = new DenseMatrix(c, n);
    double[] v = f.data();
    Arrays.fill(v, offset);
    for (int i = 0; i < n; i++) {
      v[i * c + labels[i]] += 1.0;
    }
    double[] norms = f.rowNormsSquared();
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < c; k++) {
        v[i * c + k] /= Math.sqrt(norms[k]);
      }
    }
    return f;
  }
}
