package io.github.sparkufs.examples;

import io.github.sparkufs.linalg.BlockOperator;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.Lobpcg;
import io.github.sparkufs.linalg.SmallestEigenpairs;

/**
 * Times the eigensolver's own work on the driver, without Spark: {@link Lobpcg} for the 2
 * smallest eigenpairs of a diagonal n × n operator (spread spectrum, so it does not converge
 * within the budget) with a block of 7 vectors, the shape of RSFS's spectral start at
 * n = 10⁷ on the scale command's planted data. The operator's own seconds, timed apart, are
 * taken off, so what is printed is the dense block work per product (orthonormalisation,
 * Rayleigh–Ritz, the next blocks), which on a real fit runs between the Spark jobs of the
 * products. One CSV line per repeat. Not a CLI command: run its main with the command line's
 * JVM flags and {@code OPENBLAS_NUM_THREADS=1}, as {@code bin/spark-ufs} does (about 1.4 KB of
 * heap per sample: {@code -Xmx14g} at 10⁷). Arguments: N [PRODUCTS, default 8] [REPEATS,
 * default 2].
 */
final class EigensolverTiming {

  private static final int WANTED = 2;
  private static final int BLOCK = 7;

  private EigensolverTiming() {}

  public static void main(String[] args) {
    TimingArguments arguments = TimingArguments.of(args, "N [PRODUCTS] [REPEATS]");
    int n = arguments.integer(0);
    int iterations = arguments.integer(1, 8);
    int repeats = arguments.integer(2, 2);
    double[] diagonal = new double[n];
    for (int i = 0; i < n; i++) {
      diagonal[i] = 1 + (i % 1000) * 0.01 + i * 1e-9;
    }
    BlockOperator op = v -> {
      DenseMatrix out = v.copy();
      double[] o = out.data();
      int m = v.rows();
      for (int i = 0; i < n; i++) {
        for (int r = 0; r < m; r++) {
          o[i * m + r] *= diagonal[i];
        }
      }
      return out;
    };
    System.out.println("n,block,products,seconds,operator_seconds,dense_seconds_per_product");
    for (int repeat = 0; repeat < repeats; repeat++) {
      long start = System.nanoTime();
      SmallestEigenpairs pairs = new Lobpcg(WANTED, BLOCK, 1e-12, iterations)
          .smallest(op, n, null, 11.0, null, null, 1L);
      double seconds = (System.nanoTime() - start) / 1e9;
      DenseMatrix v = new DenseMatrix(BLOCK, n);
      long opStart = System.nanoTime();
      for (int p = 0; p < pairs.products(); p++) {
        op.apply(v);
      }
      double opSeconds = (System.nanoTime() - opStart) / 1e9;
      System.out.printf("%d,%d,%d,%.2f,%.2f,%.3f%n", n, BLOCK, pairs.products(), seconds,
          opSeconds, (seconds - opSeconds) / pairs.products());
    }
  }
}
