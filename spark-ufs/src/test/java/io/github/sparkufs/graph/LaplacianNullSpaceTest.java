package io.github.sparkufs.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.SparseRowMatrix;
import org.junit.jupiter.api.Test;

class LaplacianNullSpaceTest {

  /**
   * Six samples: a path 0–1–2 (weights 1 and 2), an edge 4–3 of weight 3 and sample 5 without
   * an edge; the weight 0 between 2 and 3 joins nothing.
   */
  private static SparseRowMatrix graph() {
    int[][] idx = {{1}, {0, 2}, {1, 3}, {2, 4}, {3}, {}};
    double[][] val = {{1}, {1, 2}, {2, 0}, {0, 3}, {3}, {}};
    return SparseRowMatrix.fromRows(0, 6, idx, val);
  }

  /** {@code (A − S) v} for the rows of v (the unnormalised Laplacian). */
  private static double[] laplacianTimes(SparseRowMatrix s, DenseMatrix v, int k) {
    double[] degree = s.rowSums();
    int n = v.cols();
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = degree[i] * v.get(k, i);
      for (int j = 0; j < n; j++) {
        out[i] -= s.get(i, j) * v.get(k, j);
      }
    }
    return out;
  }

  /**
   * ω = 1 (the unnormalised Laplacian A − S): the sample without an edge is a component of its
   * own ({@code (A − S) e_5 = 0}), so K = 3; the two basis vectors solve {@code (A − S) v = 0},
   * are orthonormal and orthogonal to 1, and are the documented contrasts: the largest
   * component {0, 1, 2} against the rest, then {3, 4} against {5}, 0 on {0, 1, 2}.
   */
  @Test
  void unitWeightsGiveContrastsOfTheComponentsInTheNullSpace() {
    SparseRowMatrix s = graph();
    LaplacianNullSpace space = LaplacianNullSpace.of(s, LaplacianNullSpace.unitWeights(6));
    assertEquals(3, space.dimension());
    DenseMatrix v = space.basisThen(2, null);
    assertEquals(2, v.rows());
    for (int k = 0; k < 2; k++) {
      assertArrayEquals(new double[6], laplacianTimes(s, v, k), 1e-15, "vector " + k);
      for (int m = 0; m < 2; m++) {
        double dot = 0;
        for (int i = 0; i < 6; i++) {
          dot += v.get(k, i) * v.get(m, i);
        }
        assertEquals(k == m ? 1.0 : 0.0, dot, 1e-15, "vectors " + k + " and " + m);
      }
      double sum = 0;
      for (int i = 0; i < 6; i++) {
        sum += v.get(k, i);
      }
      assertEquals(0.0, sum, 1e-15, "vector " + k + " against 1");
    }
    double e = Math.sqrt(1.0 / 6);
    assertArrayEquals(new double[] {e, e, e, -e, -e, -e}, row(v, 0), 1e-15);
    assertArrayEquals(new double[] {0, 0, 0, e, e, -2 * e}, row(v, 1), 1e-15);
    DenseMatrix u = space.componentVectors();
    double third = Math.sqrt(1.0 / 3);
    double half = Math.sqrt(0.5);
    assertArrayEquals(new double[] {third, third, third, 0, 0, 0}, row(u, 0), 1e-15);
    assertArrayEquals(new double[] {0, 0, 0, half, half, 0}, row(u, 1), 1e-15);
    assertArrayEquals(new double[] {0, 0, 0, 0, 0, 1}, row(u, 2), 1e-15);
  }

  /**
   * The smallest eigenpairs of {@code A − S} through the null space: the two fixed contrasts with
   * eigenvalue 0, then the two smallest non-zero eigenvalues, {@code 3 ∓ √3} (the path 0–1–2's;
   * the edge 3–4 has 6), with {@code (A − S) v = λ v}; the warm-start block begins with them.
   */
  @Test
  void smallestPairsAreTheFixedContrastsThenTheEigensolvers() {
    SparseRowMatrix s = graph();
    LaplacianNullSpace space = LaplacianNullSpace.of(s, LaplacianNullSpace.unitWeights(6));
    int[] products = {0};
    LaplacianNullSpace.Eigenpairs eig = space.smallest(4, v -> {
      products[0]++;
      DenseMatrix out = new DenseMatrix(v.rows(), v.cols());
      for (int k = 0; k < v.rows(); k++) {
        double[] image = laplacianTimes(s, v, k);
        for (int i = 0; i < v.cols(); i++) {
          out.set(k, i, image[i]);
        }
      }
      return out;
    }, null, 12.0, 5, 1e-10, 100, 3);
    assertTrue(eig.converged());
    assertEquals(products[0], eig.products());
    assertArrayEquals(new double[] {0, 0, 3 - Math.sqrt(3), 3 + Math.sqrt(3)}, eig.values(),
        1e-8);
    DenseMatrix v = eig.vectors();
    assertArrayEquals(row(space.basisThen(2, null), 1), row(v, 1), 0.0);
    for (int k = 0; k < 4; k++) {
      double[] image = laplacianTimes(s, v, k);
      for (int i = 0; i < 6; i++) {
        assertEquals(eig.values()[k] * v.get(k, i), image[i], 1e-8, "pair " + k);
      }
      assertArrayEquals(row(v, k), row(eig.block(), k), 0.0);
    }
  }

  /**
   * ω = the degrees (the normalised Laplacian): the sample without an edge is in no component
   * (K = 2) and 0 in every vector; the one null direction is {@code A^{1/2} y} with y two-valued,
   * A-orthogonal to 1 and of unit A-norm. Rows given after the basis follow it unchanged.
   */
  @Test
  void degreeWeightsLeaveASampleWithoutAnEdgeOut() {
    SparseRowMatrix s = graph();
    double[] degrees = s.rowSums();
    LaplacianNullSpace space = LaplacianNullSpace.of(s, degrees);
    assertEquals(2, space.dimension());
    DenseMatrix rest = new DenseMatrix(1, 6, new double[] {1, 2, 3, 4, 5, 6});
    DenseMatrix v = space.basisThen(1, rest);
    assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, row(v, 1), 0.0);
    double[] y = new double[6];
    double norm = 0;
    double trivial = 0;
    for (int i = 0; i < 6; i++) {
      y[i] = degrees[i] > 0 ? v.get(0, i) / Math.sqrt(degrees[i]) : 0;
      norm += v.get(0, i) * v.get(0, i);
      trivial += Math.sqrt(degrees[i]) * v.get(0, i);
    }
    assertEquals(0.0, v.get(0, 5));
    assertEquals(1.0, norm, 1e-15);
    assertEquals(0.0, trivial, 1e-15);
    assertTrue(y[0] > 0 && y[3] < 0, y[0] + " and " + y[3]);
    assertEquals(y[0], y[1], 1e-15);
    assertEquals(y[0], y[2], 1e-15);
    assertEquals(y[3], y[4], 1e-15);
    assertThrows(IllegalArgumentException.class, () -> space.basisThen(2, null));
  }

  private static double[] row(DenseMatrix v, int k) {
    double[] r = new double[v.cols()];
    for (int i = 0; i < r.length; i++) {
      r[i] = v.get(k, i);
    }
    return r;
  }
}
