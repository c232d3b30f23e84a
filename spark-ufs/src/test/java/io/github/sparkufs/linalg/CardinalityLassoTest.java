package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.testing.TestData;
import org.junit.jupiter.api.Test;

class CardinalityLassoTest {

  @Test
  void orthonormalDesignIsSoftThresholdingAtTheNextCorrelation() {
    // G = I: the LASSO is soft thresholding of b; with two non-zeros the path stops where the
    // third largest |b_j| = 1 would enter, so a = sign(b) (|b| − 1)+ on the two largest.
    CardinalityLasso lars = new CardinalityLasso(DenseMatrix.identity(4));
    assertArrayEquals(new double[] {2, 0, 1, 0}, lars.solve(new double[] {3, -1, 2, 0.5}, 2),
        1e-12);
    assertArrayEquals(new double[] {2.5, -0.5, 1.5, 0}, lars.solve(new double[] {3, -1, 2, 0.5},
        3), 1e-12);
  }

  @Test
  void enoughNonZerosReachTheLeastSquaresSolution() {
    DenseMatrix x = TestData.uniform(5, 40, 1);
    double[] y = vector(40, 2);
    DenseMatrix gram = x.gram();
    double[] xy = x.multiply(new DenseMatrix(40, 1, y)).data();
    double[] ls = LinearSolve.solveSymmetric(gram, new DenseMatrix(5, 1, xy.clone())).data();
    assertArrayEquals(ls, new CardinalityLasso(gram).solve(xy, 5), 1e-9);
  }

  @Test
  void matchesTheLassoAtTheStoppingWeightWithAtMostMNonZeros() {
    DenseMatrix x = TestData.uniform(12, 60, 3);
    double[] y = vector(60, 4);
    DenseMatrix gram = x.gram();
    double[] xy = x.multiply(new DenseMatrix(60, 1, y)).data();
    for (int m : new int[] {1, 3, 6}) {
      double[] a = new CardinalityLasso(gram).solve(xy, m);
      int nonZeros = 0;
      for (double v : a) {
        nonZeros += v != 0 ? 1 : 0;
      }
      assertTrue(nonZeros <= m && nonZeros >= 1, m + ": " + nonZeros + " non-zeros");
      // The weight at which the path stopped: the largest residual correlation.
      double[] ga = gram.multiply(new DenseMatrix(12, 1, a)).data();
      double lambda = 0;
      for (int j = 0; j < 12; j++) {
        lambda = Math.max(lambda, Math.abs(xy[j] - ga[j]));
      }
      // The independent solver (atoms = the samples' feature columns of Xᵀ) at that weight.
      Lasso reference = new Lasso(x.transpose());
      int[] all = new int[12];
      for (int j = 0; j < 12; j++) {
        all[j] = j;
      }
      Lasso.Solution s = reference.solve(all, y, lambda);
      double[] expected = new double[12];
      for (int t = 0; t < s.nonZeros(); t++) {
        expected[s.indices()[t]] = s.values()[t];
      }
      assertArrayEquals(expected, a, 1e-8, "m = " + m);
    }
  }

  @Test
  void dependentFeaturesAreSkipped() {
    // d = 6 > n = 4: the Gram matrix has rank 4, so at most 4 variables can be active.
    DenseMatrix x = TestData.uniform(6, 4, 5);
    double[] y = vector(4, 6);
    DenseMatrix gram = x.gram();
    double[] xy = x.multiply(new DenseMatrix(4, 1, y)).data();
    double[] a = new CardinalityLasso(gram).solve(xy, 6);
    int nonZeros = 0;
    for (double v : a) {
      nonZeros += v != 0 ? 1 : 0;
    }
    assertTrue(nonZeros <= 4, nonZeros + " non-zeros");
    double[] fitted = x.transposeMultiply(new DenseMatrix(6, 1, a)).data();
    assertArrayEquals(y, fitted, 1e-8);
  }

  /**
   * Given the d × n factor F of {@code G = F Fᵀ} instead of G (d = 60 > n = 15, so most
   * variables are spanned by the active ones and skipped), the path is the same.
   */
  @Test
  void theFactorOfTheGramGivesTheSamePath() {
    DenseMatrix f = TestData.uniform(60, 15, 7);
    double[] y = vector(15, 8);
    double[] xy = f.multiply(new DenseMatrix(15, 1, y)).data();
    for (int m : new int[] {1, 5, 15, 60}) {
      assertArrayEquals(new CardinalityLasso(f.gram()).solve(xy, m),
          CardinalityLasso.ofFactor(f).solve(xy, m), 1e-9, "m = " + m);
    }
  }

  @Test
  void rejectsBadArguments() {
    CardinalityLasso lars = new CardinalityLasso(DenseMatrix.identity(3));
    assertEquals("maxNonZeros must be >= 1, got 0",
        assertThrows(IllegalArgumentException.class, () -> lars.solve(new double[3], 0))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> lars.solve(new double[2], 1));
    assertThrows(IllegalArgumentException.class, () -> new CardinalityLasso(new DenseMatrix(2, 3)));
  }

  private static double[] vector(int n, long seed) {
    return TestData.uniform(n, 1, seed).data();
  }
}
