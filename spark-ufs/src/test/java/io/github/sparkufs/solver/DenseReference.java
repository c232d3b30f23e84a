package io.github.sparkufs.solver;

import java.util.Arrays;

/**
 * Plain dense algebra on {@code double[][]} for the tests that replay a solver's iterations by a
 * path independent of its code (no BLAS, no partial eigensolver): products and the cyclic Jacobi
 * eigendecomposition of small symmetric matrices.
 */
final class DenseReference {

  private DenseReference() {}

  /** {@code A Bᵀ}. */
  static double[][] multiplyTranspose(double[][] a, double[][] b) {
    double[][] out = new double[a.length][b.length];
    for (int i = 0; i < a.length; i++) {
      for (int j = 0; j < b.length; j++) {
        for (int k = 0; k < a[0].length; k++) {
          out[i][j] += a[i][k] * b[j][k];
        }
      }
    }
    return out;
  }

  /** {@code Aᵀ B}. */
  static double[][] transposeMultiply(double[][] a, double[][] b) {
    double[][] out = new double[a[0].length][b[0].length];
    for (int i = 0; i < a[0].length; i++) {
      for (int j = 0; j < b[0].length; j++) {
        for (int k = 0; k < a.length; k++) {
          out[i][j] += a[k][i] * b[k][j];
        }
      }
    }
    return out;
  }

  /** {@code Tr(Wᵀ M W)}. */
  static double quadratic(double[][] m, double[][] w) {
    double s = 0;
    for (int a = 0; a < w[0].length; a++) {
      for (int i = 0; i < m.length; i++) {
        for (int j = 0; j < m.length; j++) {
          s += w[i][a] * m[i][j] * w[j][a];
        }
      }
    }
    return s;
  }

  /** {@code W + h E}. */
  static double[][] plus(double[][] w, double h, double[][] e) {
    double[][] out = new double[w.length][w[0].length];
    for (int i = 0; i < w.length; i++) {
      for (int a = 0; a < w[0].length; a++) {
        out[i][a] = w[i][a] + h * e[i][a];
      }
    }
    return out;
  }

  /**
   * The eigenvectors (as columns) of the {@code count} largest eigenvalues of a symmetric m, or
   * of the smallest when {@code largest} is false, by cyclic Jacobi rotations.
   */
  static double[][] eigenvectors(double[][] m, int count, boolean largest) {
    int d = m.length;
    double[][] a = new double[d][];
    double[][] v = new double[d][d];
    for (int i = 0; i < d; i++) {
      a[i] = m[i].clone();
      v[i][i] = 1;
    }
    for (int sweep = 0; sweep < 100 && offDiagonal(a) > 1e-30; sweep++) {
      for (int i = 0; i < d; i++) {
        for (int j = i + 1; j < d; j++) {
          if (a[i][j] != 0) {
            rotate(a, v, i, j);
          }
        }
      }
    }
    Integer[] order = new Integer[d];
    for (int i = 0; i < d; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (i, j) -> largest ? Double.compare(a[j][j], a[i][i])
        : Double.compare(a[i][i], a[j][j]));
    double[][] out = new double[d][count];
    for (int i = 0; i < d; i++) {
      for (int k = 0; k < count; k++) {
        out[i][k] = v[i][order[k]];
      }
    }
    return out;
  }

  private static double offDiagonal(double[][] a) {
    double off = 0;
    for (int i = 0; i < a.length; i++) {
      for (int j = i + 1; j < a.length; j++) {
        off += a[i][j] * a[i][j];
      }
    }
    return off;
  }

  /** The Jacobi rotation in the (i, j) plane that zeroes {@code a[i][j]}, applied to a and v. */
  private static void rotate(double[][] a, double[][] v, int i, int j) {
    int d = a.length;
    double theta = (a[j][j] - a[i][i]) / (2 * a[i][j]);
    double t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
    double cos = 1 / Math.sqrt(t * t + 1);
    double sin = t * cos;
    for (int k = 0; k < d; k++) {
      double aki = a[k][i];
      double akj = a[k][j];
      a[k][i] = cos * aki - sin * akj;
      a[k][j] = sin * aki + cos * akj;
    }
    for (int k = 0; k < d; k++) {
      double aik = a[i][k];
      double ajk = a[j][k];
      a[i][k] = cos * aik - sin * ajk;
      a[j][k] = sin * aik + cos * ajk;
    }
    for (int k = 0; k < d; k++) {
      double vki = v[k][i];
      double vkj = v[k][j];
      v[k][i] = cos * vki - sin * vkj;
      v[k][j] = sin * vki + cos * vkj;
    }
  }
}
