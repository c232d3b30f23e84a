package io.github.sparkufs.solver;

import io.github.sparkufs.linalg.DenseMatrix;
import java.util.Arrays;

/**
 * Cluster indicators built from hard labels, stored c × n: the relaxed one that starts the
 * multiplicative F updates of NDFS and RSFS (docs/methods/ndfs.md, docs/methods/rsfs.md), and the
 * scaled one that {@link FeatureScoring#REGRESSION} regresses on the features.
 */
final class ClusterIndicator {

  private ClusterIndicator() {}

  /**
   * One-hot of {@code labels} (in [0, c)) plus a positive {@code offset} (a multiplicative update
   * never moves a zero), each cluster's row scaled to unit norm.
   */
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

  /**
   * The scaled indicator of {@code labels} (in [0, c)): {@code 1/√n_k} where sample i is in
   * cluster k, else 0, so its rows (the clusters) are orthonormal; an empty cluster's row is 0.
   */
  static DenseMatrix scaled(int[] labels, int c) {
    int[] sizes = sizes(labels, c);
    DenseMatrix y = new DenseMatrix(c, labels.length);
    for (int i = 0; i < labels.length; i++) {
      y.data()[i * c + labels[i]] = 1 / Math.sqrt(sizes[labels[i]]);
    }
    return y;
  }

  /**
   * {@code ||Y_c||²} for the scaled indicator Y of {@code labels} with each cluster's mean over
   * the samples removed: {@code Σ_k (1 − n_k/n)} over the non-empty clusters.
   */
  static double centredSquaredNorm(int[] labels, int c) {
    double norm = 0;
    for (int size : sizes(labels, c)) {
      if (size > 0) {
        norm += 1 - size / (double) labels.length;
      }
    }
    return norm;
  }

  private static int[] sizes(int[] labels, int c) {
    int[] sizes = new int[c];
    for (int label : labels) {
      sizes[label]++;
    }
    return sizes;
  }
}
