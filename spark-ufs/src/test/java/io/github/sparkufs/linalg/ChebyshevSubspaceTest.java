package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ChebyshevSubspaceTest {

  /**
   * A Laplacian D − A of a sparse random graph with planted groups plus 0.2 (I − S)(I − S)ᵀ for
   * a sparse S, so that the constant vector is not an eigenvector (as FSASL's L).
   */
  static DenseMatrix laplacian(int n, int groups, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix l = new DenseMatrix(n, n);
    for (int i = 0; i < n; i++) {
      for (int e = 0; e < 4; e++) {
        int j = rnd.nextDouble() < 0.9 ? (i % groups) + groups * rnd.nextInt(n / groups)
            : rnd.nextInt(n);
        if (j == i || j >= n) {
          continue;
        }
        addEdge(l, i, j, rnd.nextDouble());
      }
    }
    DenseMatrix s = new DenseMatrix(n, n);
    for (int i = 0; i < n; i++) {
      s.set(rnd.nextInt(n), i, 0.3 * (rnd.nextDouble() - 0.5));
    }
    DenseMatrix is = DenseMatrix.identity(n).addInPlace(-1.0, s);
    return l.addInPlace(0.2, is.multiplyTranspose(is));
  }

  /**
   * Asserts that r holds the c smallest eigenpairs of l restricted to the complement of the
   * unit constraint row {@code ones}: values and span as a dense reference (Π L Π with the
   * constant pushed to the top of the spectrum), orthonormal vectors orthogonal to ones.
   */
  static void assertDeflatedEigenpairs(DenseMatrix l, DenseMatrix ones, int c,
      SmallestEigenpairs r) {
    int n = l.rows();
    DenseMatrix proj = DenseMatrix.identity(n);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        proj.set(i, j, proj.get(i, j) - 1.0 / n);
      }
    }
    DenseMatrix plp = proj.multiply(l).multiply(proj);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        plp.set(i, j, plp.get(i, j) + 1e3 / n);
      }
    }
    SymmetricEigen ref = SymmetricEigen.smallest(plp, c + 1);
    assertTrue(ref.values()[c] - ref.values()[c - 1] > 1e-3, "test needs a gap");
    assertArrayEquals(Arrays.copyOf(ref.values(), c), r.values(), 1e-8);
    DenseMatrix v = r.vectors();
    DenseMatrix overlap = v.multiply(ref.vectors().columns(0, c));
    for (int j = 0; j < c; j++) {
      double norm = 0;
      for (int i = 0; i < c; i++) {
        norm += overlap.get(i, j) * overlap.get(i, j);
      }
      assertEquals(1.0, norm, 1e-8, "reference vector " + j + " outside the computed span");
    }
    assertArrayEquals(DenseMatrix.identity(c).data(), v.multiplyTranspose(v).data(), 1e-10);
    for (double m : v.multiplyTranspose(ones).data()) {
      assertEquals(0, m, 1e-10);
    }
  }

  /** l with its diagonal scaled by 1 + 1e-6: an operator close to l, for warm starts. */
  static DenseMatrix perturbed(DenseMatrix l) {
    DenseMatrix p = l.copy();
    for (int i = 0; i < l.rows(); i++) {
      p.set(i, i, p.get(i, i) * (1 + 1e-6));
    }
    return p;
  }

  /** Adds the edge i–j of weight w to the Laplacian l. */
  static void addEdge(DenseMatrix l, int i, int j, double w) {
    l.set(i, j, l.get(i, j) - w);
    l.set(j, i, l.get(j, i) - w);
    l.set(i, i, l.get(i, i) + w);
    l.set(j, j, l.get(j, j) + w);
  }

  /** The largest absolute row sum: a Gershgorin bound on the spectrum. */
  static double gershgorin(DenseMatrix a) {
    double b = 0;
    for (int i = 0; i < a.rows(); i++) {
      double s = 0;
      for (int j = 0; j < a.cols(); j++) {
        s += Math.abs(a.get(i, j));
      }
      b = Math.max(b, s);
    }
    return b;
  }

  /** The operator of a, counting its applications in count[0]. */
  static BlockOperator operator(SparseRowMatrix a, int[] count) {
    return v -> {
      count[0]++;
      return a.multiply(v);
    };
  }

  @Test
  void matchesDenseEigenDecompositionWithConstantDeflated() {
    int n = 300;
    int c = 6;
    DenseMatrix l = laplacian(n, c, 1);
    DenseMatrix ones = new DenseMatrix(1, n);
    Arrays.fill(ones.data(), 1 / Math.sqrt(n));
    int[] count = {0};
    SmallestEigenpairs r = new ChebyshevSubspace(c, c + 4, 10, 1e-10, 500).smallest(
        operator(SparseRowMatrix.fromDense(l), count), n, gershgorin(l), ones, null, 7);
    assertTrue(r.converged(), "not converged, residual " + r.maxResidual());
    assertEquals(r.products(), count[0]);

    assertDeflatedEigenpairs(l, ones, c, r);
  }

  @Test
  void warmStartConvergesInFewerProducts() {
    int n = 200;
    int c = 4;
    DenseMatrix l = laplacian(n, c, 2);
    SparseRowMatrix a = SparseRowMatrix.fromDense(l);
    ChebyshevSubspace solver = new ChebyshevSubspace(c, c + 3, 8, 1e-9, 500);
    int[] cold = {0};
    SmallestEigenpairs r1 = solver.smallest(operator(a, cold), n, gershgorin(l), null,
        null, 3);
    assertArrayEquals(SymmetricEigen.smallest(l, c).values(), r1.values(), 1e-8);
    // A slightly perturbed operator, started from the previous block.
    DenseMatrix l2 = perturbed(l);
    int[] warm = {0};
    SmallestEigenpairs r2 = solver.smallest(operator(SparseRowMatrix.fromDense(l2), warm),
        n, gershgorin(l2), null, r1.block(), 4);
    assertArrayEquals(SymmetricEigen.smallest(l2, c).values(), r2.values(), 1e-8);
    assertTrue(warm[0] < cold[0] / 2, "warm start took " + warm[0] + " products, cold "
        + cold[0]);
  }

  @Test
  void rejectsAnUpperBoundBelowTheSpectrum() {
    int n = 100;
    DenseMatrix l = laplacian(n, 4, 3);
    ChebyshevSubspace solver = new ChebyshevSubspace(2, 5, 6, 1e-9, 50);
    assertThrows(IllegalArgumentException.class, () -> solver.smallest(
        operator(SparseRowMatrix.fromDense(l), new int[1]), n, 1e-6, null, null, 1));
  }
}
