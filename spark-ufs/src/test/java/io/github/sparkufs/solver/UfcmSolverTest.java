package io.github.sparkufs.solver;

import static io.github.sparkufs.solver.DenseReference.eigenvectors;
import static io.github.sparkufs.solver.DenseReference.multiplyTranspose;
import static io.github.sparkufs.solver.DenseReference.plus;
import static io.github.sparkufs.solver.DenseReference.quadratic;
import static io.github.sparkufs.solver.DenseReference.transposeMultiply;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.cluster.ClusterSums;
import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.FeatureScaling;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.RowSparsityWeights;
import io.github.sparkufs.linalg.SymmetricEigen;
import io.github.sparkufs.testing.TestData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class UfcmSolverTest {

  private static final PlantedClusters PLANTED = new PlantedClusters(40, 8, 4, 3.0, 17);

  private static MethodOptions options(int clusters, int maxIter, double tol, long seed) {
    return TestData.shared(UfcmSolver.PARAMS, clusters, 5, maxIter, tol, seed);
  }

  private static RowBlockMatrix threeBlocks(DenseMatrix x) {
    int n = x.cols();
    return RowBlockMatrix.local(List.of(new RowBlock(0, x.columns(0, 70)),
        new RowBlock(70, x.columns(70, 111)), new RowBlock(181, x.columns(181, n - 181))));
  }

  private static void assertNonDecreasing(double[] f) {
    for (int t = 1; t < f.length; t++) {
      assertTrue(f[t] >= f[t - 1] - 1e-9 * Math.abs(f[t - 1]),
          "objective fell from " + f[t - 1] + " to " + f[t] + " at iteration " + t);
    }
  }

  @Test
  void objectiveNeverDecreases() {
    DenseMatrix x = PLANTED.matrix(300);
    double[][] settings = {{1e-1, 1e1, 1.0}, {1e1, 1e-1, 0.5}, {1.0, 1.0, 1.5}, {1e-3, 1e3, 1.0}};
    for (double[] s : settings) {
      SelectionResult r = new UfcmSolver(options(4, 12, 0.0, 3).with(UfcmSolver.ALPHA, s[0])
          .with(UfcmSolver.BETA, s[1]).with(UfcmSolver.P, s[2]).with(UfcmSolver.PROJECTION_DIM, 0)
          .with(UfcmSolver.RESTARTS, 4))
          .fit(RowBlockMatrix.local(x));
      double[] f = r.objectiveHistory();
      // The initial value plus one per iteration; tol = 0 stops only on an unchanged value.
      assertEquals(r.iterations() + 1, f.length);
      assertTrue(f.length >= 3 && f.length <= 13, "history of " + f.length);
      assertNonDecreasing(f);
      assertTrue(f[f.length - 1] > f[0], "the iterations improved nothing");
    }
  }

  @Test
  void recoversPlantedFeatures() {
    // Measured: mean .975, .75 at seed 8 and 1.0 elsewhere (native and pure-Java BLAS).
    TestData.assertMeanRecall(TestData.plantedRecalls(new UfcmSolver(options(4, 20, 1e-6, 5)),
        300), 0.9, "ufcm");
    SelectionResult r = new UfcmSolver(options(4, 20, 1e-6, 5))
        .fit(RowBlockMatrix.local(PLANTED.matrix(300)));
    assertEquals(4.0, r.summary().get("projectionDim"));
    assertEquals(4.0, r.summary().get("nonEmptyClusters"));
  }

  @Test
  void sameScoresWithOneOrThreeBlocks() {
    DenseMatrix x = PLANTED.matrix(300);
    UfcmSolver solver = new UfcmSolver(options(4, 8, 0.0, 11).with(UfcmSolver.ALPHA, 1.0)
        .with(UfcmSolver.BETA, 1.0).with(UfcmSolver.P, 1.0).with(UfcmSolver.PROJECTION_DIM, 5)
        .with(UfcmSolver.RESTARTS, 3));
    SelectionResult one = solver.fit(RowBlockMatrix.local(x));
    SelectionResult three = solver.fit(threeBlocks(x));
    double[] a = one.scores();
    double[] b = three.scores();
    for (int i = 0; i < a.length; i++) {
      assertEquals(a[i], b[i], 1e-9 * Math.max(Math.abs(a[i]), 1e-12), "feature " + i);
    }
    double[] fa = one.objectiveHistory();
    double[] fb = three.objectiveHistory();
    assertEquals(fa.length, fb.length);
    for (int t = 0; t < fa.length; t++) {
      assertEquals(fa[t], fb[t], 1e-9 * Math.abs(fa[t]));
    }
  }

  @Test
  void rangeUnitsMakeTheFitIndependentOfEachFeaturesUnit() {
    // Feature j rescaled by 10^(j mod 7 - 3): the 8 planted features among them. By range the
    // centred data are the same up to rounding, so the fit is; as given, the planted features
    // scaled down are lost to the noise features scaled up.
    DenseMatrix x = PLANTED.matrix(300);
    DenseMatrix rescaled = x.copy();
    for (int j = 0; j < x.rows(); j++) {
      for (int i = 0; i < x.cols(); i++) {
        rescaled.set(j, i, x.get(j, i) * Math.pow(10, j % 7 - 3));
      }
    }
    MethodOptions o = options(4, 20, 1e-6, 5);
    double[] a = new UfcmSolver(o).fit(RowBlockMatrix.local(x)).scores();
    double[] b = new UfcmSolver(o).fit(RowBlockMatrix.local(rescaled)).scores();
    for (int j = 0; j < a.length; j++) {
      assertEquals(a[j], b[j], 1e-6 * Math.abs(a[j]), "feature " + j);
    }
    assertEquals(1.0, PLANTED.recall(FeatureRanking.rank(a, true)), "by range");
    double asGiven = PLANTED.recall(FeatureRanking.rank(new UfcmSolver(o.with(
        CommonOptions.FEATURE_SCALING, FeatureScaling.NONE)).fit(RowBlockMatrix.local(rescaled))
        .scores(), true));
    assertTrue(asGiven < 0.75, "as given: " + asGiven);
  }

  /** Brute-force {@code ||Y − G Uᵀ||²} with G the cluster means of Y = Wᵀ X. */
  private static double bruteForceCost(DenseMatrix y, int[] labels, int c) {
    int k = y.rows();
    double[][] mean = new double[c][k];
    int[] count = new int[c];
    for (int i = 0; i < y.cols(); i++) {
      count[labels[i]]++;
      for (int r = 0; r < k; r++) {
        mean[labels[i]][r] += y.get(r, i);
      }
    }
    double cost = 0;
    for (int i = 0; i < y.cols(); i++) {
      for (int r = 0; r < k; r++) {
        double diff = y.get(r, i) - mean[labels[i]][r] / count[labels[i]];
        cost += diff * diff;
      }
    }
    return cost;
  }

  @Test
  void indicatorUpdateNeverPicksAWorseClustering() {
    RowBlockMatrix xc = threeBlocks(PLANTED.matrix(300)).centered();
    DenseMatrix st = xc.gram();
    DenseMatrix w = SymmetricEigen.largest(st, 4).vectors();
    DenseMatrix y = xc.project(w);
    SplittableRandom rnd = new SplittableRandom(23);
    for (int trial = 0; trial < 6; trial++) {
      int[] current = new int[300];
      for (int i = 0; i < 300; i++) {
        // Trials 0-2 start from a random clustering, 3-5 from the planted one (near optimal).
        current[i] = trial < 3 ? rnd.nextInt(4) : PLANTED.label(i);
      }
      ClusterSums currentSums = ClusterSums.of(xc, current, 4);
      double currentCost = UfcmSolver.withinClusterScatter(st, w, currentSums);
      assertEquals(bruteForceCost(y, current, 4), currentCost, 1e-9 * currentCost);
      DenseMatrix g = currentSums.projectedCentroids(w);
      int restarts = trial % 3;
      UfcmSolver.IndicatorUpdate up =
          UfcmSolver.updateIndicator(xc, st, w, g, 4, restarts, rnd.nextLong());
      double[] costs = up.costs();
      assertEquals(restarts + 1, costs.length);
      double chosen = costs[up.chosen()];
      for (double cost : costs) {
        assertTrue(chosen <= cost, "kept " + chosen + " although " + cost + " was offered");
      }
      assertTrue(chosen <= currentCost * (1 + 1e-12),
          "kept cost " + chosen + " worse than the current " + currentCost);
      assertTrue(costs[0] <= currentCost * (1 + 1e-12), "Eq. 9 refinement made it worse");
      assertEquals(UfcmSolver.withinClusterScatter(st, w, up.sums()), chosen, 0.0);
      if (trial < 3) {
        assertTrue(chosen < 0.9 * currentCost, "a random clustering was not improved");
      }
    }
  }

  /** Tiny data for the dense replays: d features × n samples, two clusters far apart in 0 and 1. */
  private static double[][] tinyClusters(int d, int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    double[][] x = new double[d][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        x[j][i] = (j < 2 && i % 2 == 1 ? 8.0 : 0.0) + (j + 1) * 0.5 * rnd.nextGaussian();
      }
    }
    return x;
  }

  /**
   * Algorithm 1 replayed densely on a tiny problem, by a path independent of the solver's:
   * S_t = X Xᵀ of the centred X (Eq. 2); U (Eq. 9 and 14) by brute force over every
   * 2-clustering, asserted to be the unique minimiser of {@code ||WᵀX − GUᵀ||²} so that the
   * solver's candidate set must find it; G the cluster means (Eq. 10); D by Eq. 7; W the top d'
   * eigenvectors (Jacobi) of Eq. 13 formed as printed; Eq. 6 term by term with the ε-smoothed
   * ℓ2,p penalty. The solver's recorded objective must equal the replay value by value.
   */
  @Test
  void objectiveHistoryEqualsAlgorithm1ReplayedDensely() {
    int d = 5;
    int n = 12;
    int c = 2;
    double[][] x = centred(tinyClusters(d, n, 7));
    double[][] st = multiplyTranspose(x, x);
    // The solver gets the samples shifted off zero mean: it centres them itself.
    DenseMatrix data = new DenseMatrix(d, n);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        data.set(j, i, x[j][i] + 3.0 * j);
      }
    }
    double[][] settings = {{1.0, 0.5, 1.0}, {0.6, 2.0, 0.5}, {1.5, 1.0, 1.5}};
    for (double[] setting : settings) {
      double alpha = setting[0];
      double beta = setting[1];
      double p = setting[2];
      double[][] w = eigenvectors(st, c, true);
      int[] u = bestTwoClustering(x, w);
      List<Double> replay = new ArrayList<>();
      replay.add(eq6(x, st, w, u, alpha, beta, p));
      for (int t = 1; t <= 6; t++) {
        double[] dw = eq7(w, p);
        u = bestTwoClustering(x, w);
        w = eigenvectors(eq13(x, st, u, dw, alpha, beta), c, true);
        replay.add(eq6(x, st, w, u, alpha, beta, p));
      }
      // Algorithm 1 on the data as given: the replay does not scale the features.
      double[] recorded = new UfcmSolver(options(c, 6, 0.0, 13).with(UfcmSolver.ALPHA, alpha)
          .with(UfcmSolver.BETA, beta).with(UfcmSolver.P, p).with(UfcmSolver.PROJECTION_DIM, 0)
          .with(UfcmSolver.RESTARTS, 3).with(CommonOptions.FEATURE_SCALING, FeatureScaling.NONE))
          .fit(RowBlockMatrix.local(data)).objectiveHistory();
      // tol = 0 stops early only on an unchanged value.
      assertTrue(recorded.length >= 3, "history of " + recorded.length);
      for (int t = 0; t < recorded.length; t++) {
        double expected = replay.get(t);
        // Measured: largest relative difference 1.3e-15 over the three settings (7 values each).
        assertEquals(expected, recorded[t], 1e-10 * Math.abs(expected),
            "alpha " + alpha + ", beta " + beta + ", p " + p + ": objective at iteration " + t);
      }
    }
  }

  /**
   * The solver's D ({@link RowSparsityWeights#l2p}, Eq. 7) makes {@code β Tr(WᵀDW)} tangent to
   * the ℓ2,p penalty at the current W, and Eq. 10 substituted turns Eq. 6 into Eq. 12: at W₀,
   * Eq. 6 (G at its optimum) and Eq. 12's {@code Tr(Wᵀ M W)} (D from W₀) have the same
   * directional derivatives, checked by central differences along random directions; and G of
   * Eq. 10 is a stationary point of the k-means term.
   */
  @Test
  void eq12IsTangentToEq6AtTheCurrentW() {
    int d = 5;
    int n = 12;
    int c = 2;
    double alpha = 0.8;
    double beta = 1.5;
    SplittableRandom rnd = new SplittableRandom(5);
    double[][] x = centred(tinyClusters(d, n, 3));
    double[][] st = multiplyTranspose(x, x);
    for (double p : new double[] {0.5, 1.0, 1.5}) {
      double[][] w0 = eigenvectors(st, c, true);
      w0[4][1] = 0.05; // a small row, where the p < 1 penalty curves most
      int[] u = bestTwoClustering(x, w0);
      DenseMatrix dense = new DenseMatrix(d, c);
      for (int i = 0; i < d; i++) {
        for (int a = 0; a < c; a++) {
          dense.set(i, a, w0[i][a]);
        }
      }
      double[] dw = RowSparsityWeights.l2p(dense, p, RowSparsityWeights.DEFAULT_EPSILON);
      double[][] m = eq13(x, st, u, dw, alpha, beta);
      for (int trial = 0; trial < 5; trial++) {
        double[][] e = new double[d][c];
        for (double[] row : e) {
          for (int a = 0; a < c; a++) {
            row[a] = rnd.nextGaussian();
          }
        }
        double h = 1e-5;
        double f = (eq6(x, st, plus(w0, h, e), u, alpha, beta, p)
            - eq6(x, st, plus(w0, -h, e), u, alpha, beta, p)) / (2 * h);
        double g = (quadratic(m, plus(w0, h, e)) - quadratic(m, plus(w0, -h, e))) / (2 * h);
        // Measured: relative differences up to 1.2e-10 (h = 1e-5).
        assertEquals(f, g, 1e-8 * Math.max(1, Math.abs(f)), "p " + p + ", direction " + trial);
      }
      // G of Eq. 10 (the cluster means of WᵀX): the k-means term's gradient in G vanishes.
      double[][] y = transposeMultiply(w0, x);
      double[][] g = clusterMeans(y, u);
      for (int a = 0; a < c; a++) {
        for (int k = 0; k < 2; k++) {
          double h = 1e-4;
          g[a][k] += h;
          double up = kmeansTerm(y, g, u);
          g[a][k] -= 2 * h;
          double down = kmeansTerm(y, g, u);
          g[a][k] += h;
          assertEquals(0, (up - down) / (2 * h), 1e-6, "∂/∂G at (" + a + ", " + k + ")");
        }
      }
    }
  }

  private static double[][] centred(double[][] x) {
    double[][] out = new double[x.length][];
    for (int j = 0; j < x.length; j++) {
      double mean = Arrays.stream(x[j]).average().orElseThrow();
      out[j] = Arrays.stream(x[j]).map(v -> v - mean).toArray();
    }
    return out;
  }

  /** Eq. 6 with G = the cluster means of WᵀX (Eq. 10) and the ε-smoothed ℓ2,p penalty. */
  private static double eq6(double[][] x, double[][] st, double[][] w, int[] u, double alpha,
      double beta, double p) {
    double[][] y = transposeMultiply(w, x);
    double penalty = 0;
    for (double[] row : w) {
      double squared = 0;
      for (double v : row) {
        squared += v * v;
      }
      penalty += Math.pow(squared + RowSparsityWeights.DEFAULT_EPSILON, p / 2);
    }
    return quadratic(st, w) - alpha * kmeansTerm(y, clusterMeans(y, u), u) - beta * penalty;
  }

  /** Eq. 7 with the smoothing ε: {@code D_ii = p / (2 (||wⁱ||² + ε)^{(2 − p)/2})}. */
  private static double[] eq7(double[][] w, double p) {
    double[] out = new double[w.length];
    for (int i = 0; i < w.length; i++) {
      double squared = 0;
      for (double v : w[i]) {
        squared += v * v;
      }
      out[i] = p / (2 * Math.pow(squared + RowSparsityWeights.DEFAULT_EPSILON, (2 - p) / 2));
    }
    return out;
  }

  /** {@code ||Y − G Uᵀ||²}. */
  private static double kmeansTerm(double[][] y, double[][] g, int[] u) {
    double s = 0;
    for (int i = 0; i < u.length; i++) {
      for (int a = 0; a < y.length; a++) {
        double diff = y[a][i] - g[a][u[i]];
        s += diff * diff;
      }
    }
    return s;
  }

  /** The means of the columns of y per label (0 or 1), as columns. */
  private static double[][] clusterMeans(double[][] y, int[] u) {
    double[][] g = new double[y.length][2];
    int[] count = new int[2];
    for (int label : u) {
      count[label]++;
    }
    for (int i = 0; i < u.length; i++) {
      for (int a = 0; a < y.length; a++) {
        g[a][u[i]] += y[a][i] / count[u[i]];
      }
    }
    return g;
  }

  /**
   * Eq. 13, {@code S_t + α X U (UᵀU)⁻¹ Uᵀ Xᵀ − α X Xᵀ − β D}, with {@code X Xᵀ = S_t} (X centred)
   * and {@code X U (UᵀU)⁻¹ Uᵀ Xᵀ = Σ_k n_k m_k m_kᵀ} (m_k the cluster means).
   */
  private static double[][] eq13(double[][] x, double[][] st, int[] u, double[] dw,
      double alpha, double beta) {
    double[][] means = clusterMeans(x, u);
    int[] count = new int[2];
    for (int label : u) {
      count[label]++;
    }
    int d = x.length;
    double[][] m = new double[d][d];
    for (int a = 0; a < d; a++) {
      for (int e = 0; e < d; e++) {
        double between = 0;
        for (int k = 0; k < 2; k++) {
          between += count[k] * means[a][k] * means[e][k];
        }
        m[a][e] = st[a][e] + alpha * between - alpha * st[a][e] - (a == e ? beta * dw[a] : 0);
      }
    }
    return m;
  }

  /**
   * The 2-clustering minimising {@code ||WᵀX − GUᵀ||²} with G its means, by enumerating all;
   * asserts the minimiser is unique (sample 0 labelled 0).
   */
  private static int[] bestTwoClustering(double[][] x, double[][] w) {
    double[][] y = transposeMultiply(w, x);
    int n = x[0].length;
    double best = Double.POSITIVE_INFINITY;
    double second = Double.POSITIVE_INFINITY;
    int[] bestLabels = null;
    for (int mask = 1; mask < 1 << (n - 1); mask++) {
      int[] u = new int[n];
      for (int i = 1; i < n; i++) {
        u[i] = (mask >> (i - 1)) & 1;
      }
      double cost = kmeansTerm(y, clusterMeans(y, u), u);
      if (cost < best) {
        second = best;
        best = cost;
        bestLabels = u;
      } else if (cost < second) {
        second = cost;
      }
    }
    assertTrue(second > best * (1 + 1e-6), "the best 2-clustering is not unique");
    return bestLabels;
  }

  @Test
  void rejectsBadParameters() {
    MethodOptions o = options(4, 10, 1e-6, 1);
    assertEquals("alpha must be > 0, got -1.0", assertThrows(
        IllegalArgumentException.class, () -> new UfcmSolver(o.with(UfcmSolver.ALPHA, -1.0)
            .with(UfcmSolver.BETA, 1.0).with(UfcmSolver.P, 1.0).with(UfcmSolver.PROJECTION_DIM, 0)
            .with(UfcmSolver.RESTARTS, 10))).getMessage());
    assertEquals("beta must be >= 0, got NaN", assertThrows(
        IllegalArgumentException.class,
        () -> new UfcmSolver(o.with(UfcmSolver.ALPHA, 1.0).with(UfcmSolver.BETA, Double.NaN)
            .with(UfcmSolver.P, 1.0).with(UfcmSolver.PROJECTION_DIM, 0)
            .with(UfcmSolver.RESTARTS, 10))).getMessage());
    assertEquals("p must be in (0, 2], got 2.5", assertThrows(
        IllegalArgumentException.class, () -> new UfcmSolver(o.with(UfcmSolver.ALPHA, 1.0)
            .with(UfcmSolver.BETA, 1.0).with(UfcmSolver.P, 2.5).with(UfcmSolver.PROJECTION_DIM, 0)
            .with(UfcmSolver.RESTARTS, 10))).getMessage());
    assertEquals("p must be in (0, 2], got 0.0", assertThrows(
        IllegalArgumentException.class, () -> new UfcmSolver(o.with(UfcmSolver.ALPHA, 1.0)
            .with(UfcmSolver.BETA, 1.0).with(UfcmSolver.P, 0.0).with(UfcmSolver.PROJECTION_DIM, 0)
            .with(UfcmSolver.RESTARTS, 10))).getMessage());
    assertEquals("restarts must be >= 0, got -2", assertThrows(
        IllegalArgumentException.class, () -> new UfcmSolver(o.with(UfcmSolver.ALPHA, 1.0)
            .with(UfcmSolver.BETA, 1.0).with(UfcmSolver.P, 1.0).with(UfcmSolver.PROJECTION_DIM, 0)
            .with(UfcmSolver.RESTARTS, -2))).getMessage());
    RowBlockMatrix x = RowBlockMatrix.local(PLANTED.matrix(50));
    assertEquals("projectionDim 41 exceeds the 40 features", assertThrows(
        IllegalArgumentException.class,
        () -> new UfcmSolver(o.with(UfcmSolver.ALPHA, 1.0).with(UfcmSolver.BETA, 1.0)
            .with(UfcmSolver.P, 1.0).with(UfcmSolver.PROJECTION_DIM, 41)
            .with(UfcmSolver.RESTARTS, 10)).fit(x)).getMessage());
  }
}
