package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.testing.TestData;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LassoTest {

  private static int[] range(int n) {
    int[] r = new int[n];
    for (int i = 0; i < n; i++) {
      r[i] = i;
    }
    return r;
  }

  /** Max KKT violation relative to λ: a_jᵀr = λ sign(s_j) on the support, |a_jᵀr| ≤ λ off it. */
  private static double kktViolation(DenseMatrix a, int[] candidates, double[] y, double lambda,
      Lasso.Solution s) {
    Lasso lasso = new Lasso(a);
    double[] r = lasso.residual(s, y);
    int[] idx = s.indices();
    double[] val = s.values();
    double worst = 0;
    for (int j : candidates) {
      double g = 0;
      for (int t = 0; t < a.rows(); t++) {
        g += a.get(t, j) * r[t];
      }
      int at = Arrays.binarySearch(idx, j);
      double v = at >= 0 ? Math.abs(g - lambda * Math.signum(val[at])) : Math.max(0,
          Math.abs(g) - lambda);
      worst = Math.max(worst, v / lambda);
    }
    return worst;
  }

  @Test
  void solutionSatisfiesKktAndHasAtMostCNonZeros() {
    int c = 20;
    DenseMatrix a = TestData.uniform(c, 400, 11);
    SplittableRandom rnd = new SplittableRandom(12);
    Lasso lasso = new Lasso(a);
    int[] cand = range(400);
    for (int trial = 0; trial < 10; trial++) {
      double[] y = new double[c];
      for (int t = 0; t < c; t++) {
        y[t] = rnd.nextDouble() * 2 - 1;
      }
      double lambda = lasso.lambdaMax(cand, y) * (trial == 0 ? 0.01 : rnd.nextDouble() * 0.5);
      Lasso.Solution s = lasso.solve(cand, y, lambda);
      assertTrue(kktViolation(a, cand, y, lambda, s) < 1e-9, "KKT violated");
      assertTrue(s.nonZeros() <= c, s.nonZeros() + " non-zeros in " + c + " dimensions");
      assertTrue(s.nonZeros() > 0);
    }
  }

  @Test
  void matchesBruteForceOverSupportsAndSigns() {
    int c = 3;
    int n = 7;
    DenseMatrix a = TestData.uniform(c, n, 21);
    double[] y = {0.7, -0.4, 0.9};
    Lasso lasso = new Lasso(a);
    int[] cand = range(n);
    for (double ratio : new double[] {0.9, 0.5, 0.2, 0.05, 0.01}) {
      double lambda = ratio * lasso.lambdaMax(cand, y);
      Lasso.Solution s = lasso.solve(cand, y, lambda);
      double best = lasso.objective(Lasso.zero(), y, lambda);
      Lasso.Solution bestSolution = Lasso.zero();
      for (int mask = 1; mask < (1 << n); mask++) {
        int size = Integer.bitCount(mask);
        if (size > c) {
          continue;
        }
        int[] support = new int[size];
        for (int j = 0, t = 0; j < n; j++) {
          if ((mask & (1 << j)) != 0) {
            support[t++] = j;
          }
        }
        for (int signs = 0; signs < (1 << size); signs++) {
          // Solve G s = A_Sᵀ y − λ σ and keep it if the signs agree.
          DenseMatrix g = new DenseMatrix(size, size);
          DenseMatrix rhs = new DenseMatrix(size, 1);
          for (int p = 0; p < size; p++) {
            double sigma = (signs & (1 << p)) != 0 ? 1 : -1;
            double b = 0;
            for (int t = 0; t < c; t++) {
              b += a.get(t, support[p]) * y[t];
            }
            rhs.set(p, 0, b - lambda * sigma);
            for (int q = 0; q < size; q++) {
              double v = 0;
              for (int t = 0; t < c; t++) {
                v += a.get(t, support[p]) * a.get(t, support[q]);
              }
              g.set(p, q, v);
            }
          }
          DenseMatrix sol = LinearSolve.solve(g, rhs);
          boolean consistent = true;
          for (int p = 0; p < size; p++) {
            double sigma = (signs & (1 << p)) != 0 ? 1 : -1;
            consistent &= sol.get(p, 0) * sigma > 0;
          }
          if (consistent) {
            Lasso.Solution cand2 = Lasso.of(support, sol.data());
            double f = lasso.objective(cand2, y, lambda);
            if (f < best) {
              best = f;
              bestSolution = cand2;
            }
          }
        }
      }
      assertEquals(best, lasso.objective(s, y, lambda), 1e-12 * Math.max(1, best),
          "objective at ratio " + ratio);
      assertArrayEquals(bestSolution.indices(), s.indices(), "support at ratio " + ratio);
      assertArrayEquals(bestSolution.values(), s.values(), 1e-9);
    }
  }

  @Test
  void zeroAtAndAboveLambdaMax() {
    DenseMatrix a = TestData.uniform(5, 30, 31);
    double[] y = {1, 2, 3, 4, 5};
    Lasso lasso = new Lasso(a);
    int[] cand = range(30);
    double max = lasso.lambdaMax(cand, y);
    assertEquals(0, lasso.solve(cand, y, max).nonZeros());
    assertEquals(0, lasso.solve(cand, y, 2 * max).nonZeros());
    assertEquals(1, lasso.solve(cand, y, 0.999999 * max).nonZeros());
  }

  @Test
  void usesOnlyTheCandidatesAndSurvivesDuplicateAtoms() {
    int c = 6;
    DenseMatrix a = TestData.uniform(c, 50, 41);
    // Columns 10 and 11 are identical: the path must not try to factor a singular Gram.
    System.arraycopy(a.data(), 10 * c, a.data(), 11 * c, c);
    double[] y = new double[c];
    System.arraycopy(a.data(), 10 * c, y, 0, c);
    y[0] += 0.3;
    int[] cand = {3, 10, 11, 17, 25, 30, 31, 40, 41, 42, 43, 44};
    Lasso lasso = new Lasso(a);
    double lambda = 0.01 * lasso.lambdaMax(cand, y);
    Lasso.Solution s = lasso.solve(cand, y, lambda);
    for (int j : s.indices()) {
      assertTrue(Arrays.binarySearch(cand, j) >= 0, "index " + j + " is not a candidate");
    }
    assertTrue(kktViolation(a, cand, y, lambda, s) < 1e-9);
  }

  @Test
  void reachesTheLeastSquaresFitAtZeroLambdaWhenDictionaryIsSquare() {
    DenseMatrix a = TestData.uniform(4, 4, 51);
    double[] y = {0.3, -0.2, 0.5, 0.1};
    Lasso.Solution s = new Lasso(a).solve(range(4), y, 0.0);
    DenseMatrix expected = LinearSolve.solve(a, new DenseMatrix(4, 1, y.clone()));
    double[] full = new double[4];
    int[] idx = s.indices();
    double[] val = s.values();
    for (int p = 0; p < idx.length; p++) {
      full[idx[p]] = val[p];
    }
    assertArrayEquals(expected.data(), full, 1e-9);
  }

  @Test
  void nearlyCollinearAtomsStillMeetKkt() throws IOException {
    // Recorded from an FSASL run: in this 4-dimensional problem the homotopy's steps were
    // inaccurate (nearly collinear active atoms) and ended 3% above the optimal objective.
    List<double[]> rows = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        LassoTest.class.getResourceAsStream("lasso-nearly-collinear.txt"),
        StandardCharsets.US_ASCII))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (!line.startsWith("#")) {
          rows.add(Arrays.stream(line.trim().split(" ")).mapToDouble(Double::parseDouble)
              .toArray());
        }
      }
    }
    double lambda = rows.get(0)[0];
    double[] y = rows.get(1);
    int m = rows.size() - 2;
    DenseMatrix a = new DenseMatrix(y.length, m);
    for (int j = 0; j < m; j++) {
      System.arraycopy(rows.get(j + 2), 0, a.data(), j * y.length, y.length);
    }
    Lasso.Solution s = new Lasso(a).solve(range(m), y, lambda);
    assertTrue(kktViolation(a, range(m), y, lambda, s) < 1e-9, "KKT violated");
    assertTrue(s.nonZeros() <= y.length);
  }
}
