package io.github.sparkufs.examples.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.solver.FeatureScoring;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.SelectionResult;
import io.github.sparkufs.solver.UfcmSolver;
import io.github.sparkufs.testing.BenchmarkData;
import io.github.sparkufs.testing.TestData;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * UFCM on the paper's datasets with the paper's protocol (top m features, k-means 20 times,
 * mean ACC and NMI): prints the table and asserts the figures this implementation reaches,
 * scoring by the paper's row norms ({@code scoring = projection}).
 * Parameters per dataset are the best point of the paper's grid ({1e-3, 1e-1, 1e1, 1e3} for α
 * and β, p in {0.5, 1, 1.5}) by mean ACC over m = 50..300; USPS uses the defaults (α = 1,
 * outside the paper's grid, beat every grid point there). The paper's own numbers (Tables
 * 2–3) are printed beside them; their ACC is out of reach here because the same protocol
 * gives all features 6–9 ACC points less than the paper's "AllFea" row (see the printed
 * all-features line; {@code bin/spark-ufs bench} with 20 k-means runs, seed 1: COIL20 .644 vs
 * .705, ORL .576 vs .668, USPS .630 vs .714). The README's "UFCM against its paper" has the
 * full tables.
 */
@Tag("paper")
class UfcmPaperTest {

  private static final int[] M_1024 = {50, 100, 150, 200, 250, 300, 500, 800, 1024};
  private static final int[] M_256 = {50, 100, 150, 200, 256};

  /** Fits, prints and returns the best mean ACC and NMI over m (all features excluded). */
  private static double[] table(String name, int d, int c, UfcmSolver solver, int[] ms,
      double paperAcc, double paperNmi) {
    BenchmarkData data = BenchmarkData.load(name, d);
    DenseMatrix x = data.x();
    long start = System.nanoTime();
    SelectionResult r = solver.fit(RowBlockMatrix.local(x));
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("UFCM %s: fit %.2f s (%d iterations), paper ACC %.4f NMI %.4f%n", name,
        seconds, r.iterations(), paperAcc, paperNmi);
    List<PaperProtocol.Row> rows =
        new PaperProtocol(c, 20, 42).evaluate(x, data.labels(), r.scores(), true, ms);
    double[] best = new double[2];
    for (PaperProtocol.Row row : rows) {
      System.out.printf("  m=%4d%s ACC %.4f ± %.4f  NMI %.4f ± %.4f%n", row.numFeatures(),
          row.numFeatures() == d ? " (all features)" : "", row.acc().mean(), row.acc().std(),
          row.nmi().mean(), row.nmi().std());
      if (row.numFeatures() < d) {
        best[0] = Math.max(best[0], row.acc().mean());
        best[1] = Math.max(best[1], row.nmi().mean());
      }
    }
    double[] f = r.objectiveHistory();
    for (int t = 1; t < f.length; t++) {
      assertTrue(f[t] >= f[t - 1] - 1e-9 * Math.abs(f[t - 1]), name + " objective fell at " + t);
    }
    return best;
  }

  private static MethodOptions options(int clusters) {
    return TestData.shared(UfcmSolver.PARAMS, clusters, 5, 20, 1e-6, 1)
        .with(FeatureScoring.PARAM, FeatureScoring.PROJECTION);
  }

  @Test
  void coil20() {
    double[] best = table("COIL20", 1024, 20, new UfcmSolver(options(20)
        .with(UfcmSolver.ALPHA, 1e-1).with(UfcmSolver.BETA, 1e3).with(UfcmSolver.P, 1.5)
        .with(UfcmSolver.PROJECTION_DIM, 0).with(UfcmSolver.RESTARTS, 10)),
        M_1024, 0.7475, 0.8119);
    assertTrue(best[0] >= 0.60 && best[1] >= 0.76, "COIL20 best ACC/NMI " + best[0] + " "
        + best[1]);
  }

  @Test
  void orl() {
    double[] best = table("ORL", 1024, 40, new UfcmSolver(options(40).with(UfcmSolver.ALPHA, 1e3)
        .with(UfcmSolver.BETA, 1e-3).with(UfcmSolver.P, 1.0).with(UfcmSolver.PROJECTION_DIM, 0)
        .with(UfcmSolver.RESTARTS, 10)),
        M_1024, 0.7210, 0.8518);
    assertTrue(best[0] >= 0.50 && best[1] >= 0.735, "ORL best ACC/NMI " + best[0] + " "
        + best[1]);
  }

  @Test
  void usps() {
    double[] best = table("USPS", 256, 10, new UfcmSolver(options(10)), M_256, 0.7813, 0.6535);
    // NMI within 3 points of the paper's; ACC is not (see the class comment).
    assertTrue(best[0] >= 0.65 && best[1] >= 0.6235, "USPS best ACC/NMI " + best[0] + " "
        + best[1]);
  }

  /** Driver-only fits with the defaults (maxIter 20, tol 1e-6): COIL20 under 10 s, USPS 60 s. */
  @Test
  void defaultFitTimes() {
    String[] names = {"COIL20", "USPS"};
    int[] dims = {1024, 256};
    int[] clusters = {20, 10};
    double[] limits = {10, 60};
    for (int i = 0; i < names.length; i++) {
      DenseMatrix x = BenchmarkData.load(names[i], dims[i]).x();
      long start = System.nanoTime();
      SelectionResult r = new UfcmSolver(options(clusters[i])).fit(RowBlockMatrix.local(x));
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf("UFCM %s defaults: fit %.2f s, %d iterations%n", names[i], seconds,
          r.iterations());
      assertTrue(seconds < limits[i], names[i] + " fit took " + seconds + " s");
    }
  }
}
