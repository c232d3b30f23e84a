package io.github.sparkufs.examples.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.graph.TripletGraph.Weighting;
import io.github.sparkufs.graph.TripletGraph;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.SymmetricEigen;
import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureScoring;
import io.github.sparkufs.solver.OrdinalConsensusSolver;
import io.github.sparkufs.solver.SelectionResult;
import io.github.sparkufs.testing.BenchmarkData;
import io.github.sparkufs.testing.TestData;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The paper's protocol (Table 2 of the ordinal-consensus paper): rank features, keep the top
 * m = 50, 100, …, 300, run k-means 20 times, report NMI; the paper reports the best over m and
 * over its (α, β) grid {1e-6, 1e-4, …, 1e6}². Searched here more coarsely: first
 * {1e-6, 1e-3, 1, 1e3, 1e6}² per dataset and weighting (5 k-means runs per point), then the
 * 3 × 3 decade neighbourhood of the winner; seed 42, 30 iterations, k = 5, d₂ = c, s = 0.8.
 * The winners are evaluated below with 20 runs, next to all features and the defaults. ORL
 * (the 32 × 32 version, d = 1024, where the paper's AT&T has 644 features) is divided by 255,
 * a global scale that leaves the k-means evaluation unchanged: with raw grey levels every
 * self-paced weight underflows.
 *
 * <p>Measured (best mean NMI over m, 20 runs; 2026-11-22, greedy k-means++ starts): COIL20 78.1
 * scaled, 77.7 raw, 74.6 defaults (all features 77.3; paper 80.1, its all features 76.3);
 * Isolet1 76.9, 76.2, 66.4 (all 76.3; paper 82.2, all 75.9); ORL 76.3, 76.4, 75.1 (all 76.8;
 * paper 86.2 on its AT&T, all 80.5). {@link #withinScatterCriterionCeiling()}
 * shows why the paper's numbers are out of reach: even given the true classes, the W step
 * (the d₂ smallest eigenvectors of the within-class scatter plus αL) ranks features below
 * random choice (COIL20, best over m: 75.3 at α = 100, 69.6 at α = 0, against 77.8 for random
 * features), because minimising projected within-cluster
 * scatter under {@code WᵀW = I} favours low-variance features. The best grid points (β ≥ 1 on
 * COIL20 and Isolet1) are those where the ℓ2,1 reweighting keeps W on its random initial
 * columns, i.e. near-random selections; the defaults (β = 0.1) let W move and score lower.
 * The assertions guard the measured values (1 NMI point below them). Every fit here scores by the
 * paper's row norms ({@code scoring = projection}), the score these figures were measured with.
 */
@Tag("paper")
class OrdinalConsensusPaperTest {

  private static final int[] M = {50, 100, 150, 200, 250, 300};
  private static final int RUNS = 20;
  private static final long SEED = 42;
  private static final int MAX_ITER = 30;

  /** Fits, evaluates with the paper's protocol, prints the table; returns the best mean NMI. */
  private static double table(String name, DenseMatrix x, int[] labels, int c, double alpha,
      double beta, Weighting weighting) {
    OrdinalConsensusSolver solver = new OrdinalConsensusSolver(
        TestData.shared(OrdinalConsensusSolver.PARAMS, c, 5, MAX_ITER, 1e-6, SEED)
        .with(FeatureScoring.PARAM, FeatureScoring.PROJECTION)
        .with(OrdinalConsensusSolver.ALPHA, alpha).with(OrdinalConsensusSolver.BETA, beta)
        .with(OrdinalConsensusSolver.PROJECTION_DIM, 0)
        .with(OrdinalConsensusSolver.TRIPLET_WEIGHTING, weighting)
        .with(OrdinalConsensusSolver.SCATTER_CRITERION, OrdinalConsensusSolver.Criterion.WITHIN));
    long t0 = System.nanoTime();
    SelectionResult r = solver.fit(RowBlockMatrix.local(x));
    double seconds = (System.nanoTime() - t0) / 1e9;
    List<PaperProtocol.Row> rows = new PaperProtocol(c, RUNS, 7).evaluate(x, labels,
        r.scores(), true, M);
    StringBuilder sb = new StringBuilder(String.format(
        "%s %s alpha=%g beta=%g (fit %.1f s, %s):%n", name, weighting, alpha, beta, seconds,
        r.summary()));
    double best = 0;
    for (PaperProtocol.Row row : rows) {
      sb.append(String.format("  m=%d NMI %.1f ± %.1f  ACC %.1f ± %.1f%n", row.numFeatures(),
          100 * row.nmi().mean(), 100 * row.nmi().std(), 100 * row.acc().mean(),
          100 * row.acc().std()));
      best = Math.max(best, 100 * row.nmi().mean());
    }
    System.out.print(sb);
    return best;
  }

  private static double allFeatures(String name, DenseMatrix x, int[] labels, int c) {
    int[] all = new int[x.rows()];
    for (int j = 0; j < all.length; j++) {
      all[j] = j;
    }
    PaperProtocol.Row row = new PaperProtocol(c, RUNS, 7).evaluate(x, labels, all);
    System.out.printf("%s all %d features: NMI %.1f ± %.1f%n", name, x.rows(),
        100 * row.nmi().mean(), 100 * row.nmi().std());
    return 100 * row.nmi().mean();
  }

  @Test
  void coil20() {
    BenchmarkData data = BenchmarkData.load("COIL20", 1024);
    allFeatures("COIL20", data.x(), data.labels(), 20);
    double scaled = table("COIL20", data.x(), data.labels(), 20, 1e-3, 1, Weighting.SCALED);
    double raw = table("COIL20", data.x(), data.labels(), 20, 1, 1e-3, Weighting.RAW);
    double defaults = table("COIL20", data.x(), data.labels(), 20,
        OrdinalConsensusSolver.ALPHA.defaultValue(), OrdinalConsensusSolver.BETA.defaultValue(),
        OrdinalConsensusSolver.TRIPLET_WEIGHTING.defaultValue());
    assertTrue(scaled >= 75.4, "COIL20 scaled best NMI " + scaled + " (paper 80.1)");
    assertTrue(raw >= 75.5, "COIL20 raw best NMI " + raw);
    assertTrue(defaults >= 70.7, "COIL20 defaults best NMI " + defaults);
  }

  @Test
  void isolet1() {
    BenchmarkData data = BenchmarkData.load("Isolet1", 617);
    allFeatures("Isolet1", data.x(), data.labels(), 26);
    double scaled = table("Isolet1", data.x(), data.labels(), 26, 1e5, 1e3, Weighting.SCALED);
    double raw = table("Isolet1", data.x(), data.labels(), 26, 1e-6, 10, Weighting.RAW);
    double defaults = table("Isolet1", data.x(), data.labels(), 26,
        OrdinalConsensusSolver.ALPHA.defaultValue(), OrdinalConsensusSolver.BETA.defaultValue(),
        OrdinalConsensusSolver.TRIPLET_WEIGHTING.defaultValue());
    assertTrue(scaled >= 75.9, "Isolet1 scaled best NMI " + scaled + " (paper 82.2)");
    assertTrue(raw >= 74.7, "Isolet1 raw best NMI " + raw);
    assertTrue(defaults >= 65.5, "Isolet1 defaults best NMI " + defaults);
  }

  @Test
  void orl() {
    BenchmarkData data = BenchmarkData.load("ORL", 1024);
    DenseMatrix x = data.x().copy().scaleInPlace(1.0 / 255);
    allFeatures("ORL", x, data.labels(), 40);
    double scaled = table("ORL", x, data.labels(), 40, 1, 1, Weighting.SCALED);
    double raw = table("ORL", x, data.labels(), 40, 1e-5, 1e-3, Weighting.RAW);
    double defaults = table("ORL", x, data.labels(), 40,
        OrdinalConsensusSolver.ALPHA.defaultValue(), OrdinalConsensusSolver.BETA.defaultValue(),
        OrdinalConsensusSolver.TRIPLET_WEIGHTING.defaultValue());
    assertTrue(scaled >= 73.2, "ORL scaled best NMI " + scaled + " (paper 86.2 on AT&T 644)");
    assertTrue(raw >= 73.4, "ORL raw best NMI " + raw);
    assertTrue(defaults >= 72.9, "ORL defaults best NMI " + defaults);
  }

  /**
   * Driver-only fit time on COIL20 with the defaults, 30 iterations, after one warm-up fit. The
   * machine is shared, so the bound is on the CPU time the JVM spends in the fit (all threads,
   * native BLAS included), which is what the wall time is on an idle machine; both are printed.
   */
  @Test
  void coil20FitTime() {
    BenchmarkData data = BenchmarkData.load("COIL20", 1024);
    OrdinalConsensusSolver solver = new OrdinalConsensusSolver(
        TestData.shared(OrdinalConsensusSolver.PARAMS, 20, 5, MAX_ITER, 0, SEED)
            .with(FeatureScoring.PARAM, FeatureScoring.PROJECTION));
    RowBlockMatrix x = RowBlockMatrix.local(data.x());
    solver.fit(x);
    com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    SelectionResult r = solver.fit(x);
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpuSeconds = (os.getProcessCpuTime() - cpu0) / 1e9;
    System.out.printf("COIL20 fit (driver, %s iterations): %.2f s wall, %.2f s CPU, load %.1f%n",
        r.iterations(), seconds, cpuSeconds, os.getSystemLoadAverage());
    assertTrue(cpuSeconds < 10, "COIL20 fit used " + cpuSeconds + " s of CPU");
  }

  /**
   * The W step's selection when the clusters are the true classes and every weight is 1: the
   * d₂ = c smallest eigenvectors of {@code S_w + αL}, ranked by row norm. Prints it next to
   * the same number of random features.
   */
  @Test
  void withinScatterCriterionCeiling() {
    BenchmarkData data = BenchmarkData.load("COIL20", 1024);
    DenseMatrix x = data.x();
    int[] labels = data.labels();
    int c = 20;
    int d = x.rows();
    DenseMatrix sums = new DenseMatrix(d, c);
    double[] counts = new double[c];
    for (int i = 0; i < x.cols(); i++) {
      int l = labels[i] - 1;
      counts[l]++;
      for (int j = 0; j < d; j++) {
        sums.set(j, l, sums.get(j, l) + x.get(j, i));
      }
    }
    for (int l = 0; l < c; l++) {
      for (int j = 0; j < d; j++) {
        sums.set(j, l, sums.get(j, l) / Math.sqrt(counts[l]));
      }
    }
    DenseMatrix gram = x.gram();
    DenseMatrix within = gram.copy().addInPlace(-1, sums.multiplyTranspose(sums));
    DenseMatrix lap = TripletGraph.fromGram(gram, 5, Weighting.SCALED).laplacian().toDense();
    double[] random = new double[d];
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(1);
    for (int j = 0; j < d; j++) {
      random[j] = rnd.nextDouble();
    }
    double bestOracle = 0;
    double bestRandom = 0;
    for (double alpha : new double[] {0, 1, 100}) {
      DenseMatrix w = SymmetricEigen.smallest(within.copy().addInPlace(alpha, lap), c).vectors();
      StringBuilder sb = new StringBuilder(String.format("COIL20 true-class W step, alpha=%g:",
          alpha));
      for (PaperProtocol.Row row : new PaperProtocol(c, RUNS, 7).evaluate(x, labels,
          w.rowNormsSquared(), true, M)) {
        sb.append(String.format(" %.1f", 100 * row.nmi().mean()));
        bestOracle = Math.max(bestOracle, 100 * row.nmi().mean());
      }
      System.out.println(sb);
    }
    StringBuilder sb = new StringBuilder("COIL20 random features:");
    for (PaperProtocol.Row row : new PaperProtocol(c, RUNS, 7).evaluate(x, labels, random, true,
        M)) {
      sb.append(String.format(" %.1f", 100 * row.nmi().mean()));
      bestRandom = Math.max(bestRandom, 100 * row.nmi().mean());
    }
    System.out.println(sb);
    assertTrue(bestOracle < 77.1, "the true-class W step reaches " + bestOracle);
    assertTrue(bestOracle < bestRandom + 1, "true-class W step " + bestOracle + " vs random "
        + bestRandom);
  }
}
