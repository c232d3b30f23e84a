package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The dense eigen entry point picks the solver its size rule names, and the partial solver's
 * pairs agree with the full solver's.
 */
class SymmetricEigenTest {

  /** A random symmetric matrix with the spectrum of a covariance: 40 decaying directions. */
  private static DenseMatrix covarianceLike(int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix b = new DenseMatrix(40, n);
    for (int i = 0; i < 40; i++) {
      double w = 1.0 / (1 + i);
      for (int j = 0; j < n; j++) {
        b.set(i, j, w * rnd.nextGaussian());
      }
    }
    return b.transposeMultiply(b);
  }

  private static DenseMatrix randomSymmetric(int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix a = new DenseMatrix(n, n);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        double v = rnd.nextGaussian();
        a.set(i, j, v);
        a.set(j, i, v);
      }
    }
    return a;
  }

  /**
   * Partial vs full pairs: eigenvalues to 1e-8 of the largest |λ|, each vector within
   * {@code 1 − |cos| < 1e-10} of the full solver's.
   */
  private static void assertAgree(double[] values, DenseMatrix vectors, SymmetricEigen got) {
    double norm = 0;
    for (double v : values) {
      norm = Math.max(norm, Math.abs(v));
    }
    for (int j = 0; j < values.length; j++) {
      assertEquals(values[j], got.values()[j], 1e-8 * norm, "eigenvalue " + j);
      double cos = 0;
      for (int i = 0; i < vectors.rows(); i++) {
        cos += vectors.get(i, j) * got.vectors().get(i, j);
      }
      assertTrue(1 - Math.abs(cos) < 1e-10, "vector " + j + ": |cos| = " + Math.abs(cos));
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void partialSolverAboveTheRuleAgreesWithTheFullSolver(long seed) {
    int n = SymmetricEigen.FULL_MAX_DIM + 1;
    int k = 4;
    assertFalse(SymmetricEigen.usesFullSolver(n, k));
    DenseMatrix a = covarianceLike(n, seed);
    SymmetricEigen full = SymmetricEigen.full(a, k, true);
    SymmetricEigen largest = SymmetricEigen.largest(a, k);
    assertEquals(SymmetricEigen.Solver.PARTIAL, largest.solver());
    assertAgree(full.values(), full.vectors(), largest);
    // The smallest of −a are the largest of a, negated.
    SymmetricEigen smallest = SymmetricEigen.smallest(a.copy().scaleInPlace(-1), k);
    assertEquals(SymmetricEigen.Solver.PARTIAL, smallest.solver());
    double[] negatedValues = full.values().clone();
    for (int j = 0; j < k; j++) {
      negatedValues[j] = -negatedValues[j];
    }
    assertAgree(negatedValues, full.vectors(), smallest);
  }

  /**
   * Warm-started from the eigenvectors of a nearby matrix (as an iterative method's previous
   * iteration), the partial solver gives the full solver's pairs in fewer block products than
   * from random vectors (seeds 1-3: 4-5 products warm against 7 cold).
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void warmStartFromANearbyMatrixAgreesInFewerProducts(long seed) {
    int n = SymmetricEigen.FULL_MAX_DIM + 1;
    int k = 4;
    DenseMatrix before = covarianceLike(n, seed);
    DenseMatrix after = before.copy().addInPlace(1e-3, covarianceLike(n, seed + 100));
    SymmetricEigen full = SymmetricEigen.full(after, k, true);
    SymmetricEigen cold = SymmetricEigen.largest(after, k);
    SymmetricEigen warm = SymmetricEigen.largest(after, k,
        SymmetricEigen.full(before, k, true).vectors());
    assertEquals(SymmetricEigen.Solver.PARTIAL, warm.solver());
    assertAgree(full.values(), full.vectors(), warm);
    assertTrue(warm.products() < cold.products(), "warm " + warm.products() + " against cold "
        + cold.products() + " products");
  }

  /**
   * An operator known only by its products (here low rank plus a diagonal) gives the dense
   * matrix's pairs: by the partial solver when few pairs are wanted, and by the full solver on
   * its dense form when more than n / 100 are.
   */
  @ParameterizedTest
  @ValueSource(ints = {300, 1000})
  void operatorAgreesWithItsDenseForm(int n) {
    DenseMatrix low = covarianceLike(n, 5).scaleInPlace(-1);
    double[] diagonal = new double[n];
    SplittableRandom rnd = new SplittableRandom(6);
    for (int i = 0; i < n; i++) {
      diagonal[i] = 0.01 + rnd.nextDouble();
    }
    DenseMatrix dense = low.copy().addDiagonalInPlace(diagonal);
    double bound = 0;
    for (int j = 0; j < n; j++) {
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += Math.abs(dense.get(i, j));
      }
      bound = Math.max(bound, sum);
    }
    SymmetricEigen full = SymmetricEigen.full(dense, 4, false);
    SymmetricEigen got = SymmetricEigen.smallest(v -> {
      DenseMatrix out = v.multiply(low);
      for (int i = 0; i < n; i++) {
        for (int t = 0; t < v.rows(); t++) {
          out.data()[i * v.rows() + t] += diagonal[i] * v.data()[i * v.rows() + t];
        }
      }
      return out;
    }, n, 4, bound, null);
    assertEquals(4 > n / SymmetricEigen.PARTIAL_MAX_SHARE ? SymmetricEigen.Solver.FULL
        : SymmetricEigen.Solver.PARTIAL, got.solver());
    assertAgree(full.values(), full.vectors(), got);
  }

  /**
   * Through a sequence of nearby matrices (an iterative method's), the partial solver starts
   * from the previous iteration's vectors: the full solver's pairs in fewer products than cold.
   */
  @Test
  void aSequenceWarmStartsThePartialSolverFromThePreviousVectors() {
    int n = SymmetricEigen.FULL_MAX_DIM + 1;
    int k = 4;
    DenseMatrix before = covarianceLike(n, 1).scaleInPlace(-1);
    DenseMatrix after = before.copy().addInPlace(-1e-3, covarianceLike(n, 101));
    SymmetricEigen.IteratedSmallest sequence = new SymmetricEigen.IteratedSmallest(k);
    sequence.next(before);
    SymmetricEigen warm = sequence.next(after);
    SymmetricEigen cold = SymmetricEigen.smallest(after, k);
    assertEquals(SymmetricEigen.Solver.PARTIAL, warm.solver());
    SymmetricEigen full = SymmetricEigen.full(after, k, false);
    assertAgree(full.values(), full.vectors(), warm);
    assertTrue(warm.products() < cold.products(), "warm " + warm.products() + " against cold "
        + cold.products() + " products");
    assertEquals(2, sequence.partialAttempts());
  }

  /**
   * Diagonal matrices whose smallest eigenvalues crowd against the spread of the spectrum
   * (1 + shift + 10⁻⁵ i for the first half, then up to 1,000): the partial solver exhausts its
   * budget and the full solver answers; a sequence of them tries the partial solver on the
   * first only, and every answer is the diagonal's smallest entries.
   */
  @Test
  void aSequenceStopsTryingThePartialSolverOnceItFailed() {
    int n = SymmetricEigen.FULL_MAX_DIM + 1;
    int k = 4;
    SymmetricEigen.IteratedSmallest sequence = new SymmetricEigen.IteratedSmallest(k);
    for (double shift : new double[] {0, 1e-6}) {
      double[] diagonal = new double[n];
      for (int i = 0; i < n; i++) {
        diagonal[i] = i < n / 2 ? 1 + shift + 1e-5 * i : 1 + 999.0 * (i + 1 - n / 2) / (n - n / 2);
      }
      SymmetricEigen got = sequence.next(new DenseMatrix(n, n).addDiagonalInPlace(diagonal));
      assertEquals(SymmetricEigen.Solver.FULL, got.solver());
      for (int j = 0; j < k; j++) {
        assertEquals(diagonal[j], got.values()[j], 1e-12, "eigenvalue " + j);
      }
    }
    assertEquals(1, sequence.partialAttempts());
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void fullSolverAtOrBelowTheRule(long seed) {
    int n = 120;
    assertTrue(SymmetricEigen.usesFullSolver(n, 3));
    DenseMatrix a = randomSymmetric(n, seed);
    SymmetricEigen smallest = SymmetricEigen.smallest(a, 3);
    assertEquals(SymmetricEigen.Solver.FULL, smallest.solver());
    SymmetricEigen all = SymmetricEigen.smallest(a, n);
    for (int j = 0; j < 3; j++) {
      assertEquals(all.values()[j], smallest.values()[j], 1e-12 * Math.abs(all.values()[n - 1]));
    }
    int big = SymmetricEigen.FULL_MAX_DIM + 1;
    assertTrue(SymmetricEigen.usesFullSolver(big, big / SymmetricEigen.PARTIAL_MAX_SHARE + 1));
    assertFalse(SymmetricEigen.usesFullSolver(big, big / SymmetricEigen.PARTIAL_MAX_SHARE));
  }

  @Test
  void manyPairsAboveTheDimensionBoundGoToTheFullSolver() {
    int n = SymmetricEigen.FULL_MAX_DIM + 1;
    int k = n / SymmetricEigen.PARTIAL_MAX_SHARE + 1;
    SymmetricEigen largest = SymmetricEigen.largest(covarianceLike(n, 4), k);
    assertEquals(SymmetricEigen.Solver.FULL, largest.solver());
  }
}
