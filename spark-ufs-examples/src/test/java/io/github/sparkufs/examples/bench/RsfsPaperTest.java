package io.github.sparkufs.examples.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.FeatureScaling;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.solver.ClusterStart;
import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.RsfsSolver;
import io.github.sparkufs.solver.SelectionResult;
import io.github.sparkufs.testing.BenchmarkData;
import io.github.sparkufs.testing.TestData;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * RSFS on the paper's benchmarks with the papers' protocol (top m features, 20 k-means runs,
 * m = 50, 100, …, 300), printing the tables of the report. Slow (about 15 minutes on a loaded
 * 2-core machine): tagged "paper" and excluded from default runs.
 *
 * <p>COIL20 runs the authors' start ({@code initMode} spectral), which must reach the authors'
 * code's ACC of .633 at m = 50 (α = β = 1, their {@code nu} = our γ = 1), and prints the table
 * of the defaults, whose start of lower objective there is the k-means one (seeds 1..5: ACC at
 * m = 50 .608–.632 against .632–.644 from the spectral start). ORL and JAFFE use the best point
 * of the grid α, β ∈ {0.1, 1, 10} (γ = 0.1, ν = 1, seed 1, 30 iterations, best mean ACC over m),
 * which lies inside the paper's {10^-3, …, 10^3}; there the spectral start has the lower
 * objective, so the default start is the authors'. All run RSFS as the paper and the authors'
 * code do: the features as given ({@code featureScaling = none}) and the regression in their raw
 * units ({@code standardization = false}); with the library's defaults COIL20 gives .597 at m =
 * 50 and JAFFE's grid point .806 at best, and COIL20 and JAFFE had failed here since
 * {@code standardization} became the default.
 */
@Tag("paper")
class RsfsPaperTest {

  private static final int[] M = {50, 100, 150, 200, 250, 300};
  private static final int MAX_ITER = 30;
  private static final double TOL = 1e-4;

  /** ORL's grid point: best ACC .580 at m = 250 (defaults: .568). */
  private static final double ORL_ALPHA = 10;
  private static final double ORL_BETA = 0.1;
  private static final double ORL_GAMMA = RsfsSolver.GAMMA.defaultValue();
  private static final double ORL_NU = RsfsSolver.NU.defaultValue();
  private static final double ORL_TARGET = 0.57;
  /** JAFFE's grid point: best ACC .846 at m = 50 (defaults: .828). */
  private static final double JAFFE_ALPHA = 1;
  private static final double JAFFE_BETA = 10;
  private static final double JAFFE_GAMMA = RsfsSolver.GAMMA.defaultValue();
  private static final double JAFFE_NU = RsfsSolver.NU.defaultValue();
  private static final double JAFFE_TARGET = 0.83;
  /** ACC at m = 50 of the authors' code on COIL20. */
  private static final double COIL20_REFERENCE = 0.633;

  /** RSFS as the paper runs it: the features as given, the regression in their raw units. */
  private static MethodOptions asGiven(int c, long seed) {
    return TestData.shared(RsfsSolver.PARAMS, c, 5, MAX_ITER, TOL, seed)
        .with(CommonOptions.FEATURE_SCALING, FeatureScaling.NONE)
        .with(RsfsSolver.STANDARDIZATION, false);
  }

  private static SelectionResult fit(DenseMatrix x, int c, double alpha, double beta,
      double gamma, double nu, long seed) {
    return new RsfsSolver(asGiven(c, seed)
        .with(RsfsSolver.ALPHA, alpha).with(RsfsSolver.BETA, beta)
        .with(RsfsSolver.GAMMA, gamma)
        .with(RsfsSolver.NU, nu)).fit(RowBlockMatrix.local(x));
  }

  private static List<PaperProtocol.Row> table(String name, BenchmarkData data, int c,
      double[] scores) {
    List<PaperProtocol.Row> rows =
        new PaperProtocol(c, 20, 1L).evaluate(data.x(), data.labels(), scores, true, M);
    StringBuilder sb = new StringBuilder("RSFS " + name + "\n  m    ACC            NMI\n");
    for (PaperProtocol.Row r : rows) {
      sb.append(String.format("  %-4d %.3f ± %.3f  %.3f ± %.3f%n", r.numFeatures(),
          r.acc().mean(), r.acc().std(), r.nmi().mean(), r.nmi().std()));
    }
    System.out.print(sb);
    return rows;
  }

  private static double bestAcc(List<PaperProtocol.Row> rows) {
    return rows.stream().mapToDouble(r -> r.acc().mean()).max().getAsDouble();
  }

  @Test
  void coil20() {
    BenchmarkData data = BenchmarkData.load("COIL20", 1024);
    SelectionResult authors = new RsfsSolver(asGiven(20, 1L)
        .with(RsfsSolver.INIT_MODE, ClusterStart.SPECTRAL))
        .fit(RowBlockMatrix.local(data.x()));
    List<PaperProtocol.Row> rows = table("COIL20 (spectral start)", data, 20, authors.scores());
    assertTrue(rows.get(0).acc().mean() >= COIL20_REFERENCE, "COIL20 ACC at m = 50");
    long t0 = System.nanoTime();
    SelectionResult r = new RsfsSolver(asGiven(20, 1L)).fit(RowBlockMatrix.local(data.x()));
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf("RSFS COIL20 fit (driver-only, defaults: both starts, %d iterations "
        + "kept): %.2f s%n", r.iterations(), seconds);
    table("COIL20 (defaults)", data, 20, r.scores());
  }

  @Test
  void orl() {
    BenchmarkData data = BenchmarkData.load("ORL", 1024);
    SelectionResult r = fit(data.x(), 40, ORL_ALPHA, ORL_BETA, ORL_GAMMA, ORL_NU, 1L);
    assertTrue(bestAcc(table("ORL", data, 40, r.scores())) >= ORL_TARGET);
  }

  @Test
  void jaffe() {
    BenchmarkData data = BenchmarkData.load("JAFFE", 676);
    SelectionResult r = fit(data.x(), 10, JAFFE_ALPHA, JAFFE_BETA, JAFFE_GAMMA, JAFFE_NU, 1L);
    assertTrue(bestAcc(table("JAFFE", data, 10, r.scores())) >= JAFFE_TARGET);
  }

  /**
   * §IV-D: ORL with 20 % and 30 % of the images occluded by a black 12 × 12 block, 10 draws
   * each; mean ACC over m = 50..300 for RSFS, MaxVariance and all features.
   */
  @Test
  void occludedOrl() {
    BenchmarkData data = BenchmarkData.load("ORL", 1024);
    Occlusion occlusion = new Occlusion(32, 32, Occlusion.DEFAULT_BLOCK_SIZE, 0.0);
    PaperProtocol protocol = new PaperProtocol(40, 20, 1L);
    int[] all = new int[1024];
    for (int i = 0; i < all.length; i++) {
      all[i] = i;
    }
    for (double ratio : new double[] {0.2, 0.3}) {
      double rsfs = 0;
      double maxVar = 0;
      double allFea = 0;
      int draws = 10;
      for (int draw = 1; draw <= draws; draw++) {
        DenseMatrix x = occlusion.apply(data.x(), ratio, draw).data();
        SelectionResult r = fit(x, 40, ORL_ALPHA, ORL_BETA, ORL_GAMMA, ORL_NU, draw);
        rsfs += meanAcc(protocol.evaluate(x, data.labels(), r.scores(), true, M));
        maxVar += meanAcc(protocol.evaluate(x, data.labels(), variances(x), true, M));
        allFea += protocol.evaluate(x, data.labels(), all).acc().mean();
      }
      System.out.printf("occluded ORL ratio %.1f (%d draws): mean ACC RSFS %.3f, MaxVariance "
          + "%.3f, all features %.3f%n", ratio, draws, rsfs / draws, maxVar / draws,
          allFea / draws);
    }
  }

  private static double meanAcc(List<PaperProtocol.Row> rows) {
    return rows.stream().mapToDouble(r -> r.acc().mean()).average().getAsDouble();
  }

  private static double[] variances(DenseMatrix x) {
    double[] v = new double[x.rows()];
    for (int f = 0; f < x.rows(); f++) {
      double s = 0;
      double s2 = 0;
      for (int i = 0; i < x.cols(); i++) {
        s += x.get(f, i);
        s2 += x.get(f, i) * x.get(f, i);
      }
      double mean = s / x.cols();
      v[f] = s2 / x.cols() - mean * mean;
    }
    return v;
  }
}
