package io.github.sparkufs.examples;

import io.github.sparkufs.examples.bench.PaperProtocol;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.DoubleArrays;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The reference rows of every {@code bench} table, evaluated with the methods' protocol (the
 * same {@link PaperProtocol}, clusters, k-means runs and seeds), so that a table shows whether
 * selecting helped at all: k-means on all d features; the top m features by variance
 * ({@code maxvar}, absent when it is one of the benched methods); and, for each m, the median
 * over {@code --random-draws} draws of m features drawn uniformly at random (absent for zero
 * draws). Each draw costs as much k-means work as evaluating one method.
 */
final class Baselines {

  /** Draws of random features per m when {@code --random-draws} is not given. */
  static final int DEFAULT_RANDOM_DRAWS = 10;

  /** The median and the (population) standard deviation of one metric's mean over the draws. */
  record Spread(double median, double std) {

    static Spread of(double[] values) {
      double mean = Arrays.stream(values).average().orElseThrow();
      double s = 0;
      for (double v : values) {
        s += (v - mean) * (v - mean);
      }
      return new Spread(DoubleArrays.median(values), Math.sqrt(s / values.length));
    }
  }

  /** The random row for one m: ACC and NMI, each the spread of its mean over the draws. */
  record RandomRow(int numFeatures, Spread acc, Spread nmi) {}

  final PaperProtocol.Row allFeatures;
  /** The maxvar baseline, or null when maxvar is one of the benched methods. */
  final MethodBench maxvar;
  final int randomDraws;
  /** One row per m; empty for zero draws. */
  final List<RandomRow> random;

  Baselines(PaperProtocol.Row allFeatures, MethodBench maxvar, int randomDraws,
      List<RandomRow> random) {
    if (randomDraws < 0) {
      throw new IllegalArgumentException("randomDraws must be >= 0, got " + randomDraws);
    }
    this.allFeatures = allFeatures;
    this.maxvar = maxvar;
    this.randomDraws = randomDraws;
    this.random = List.copyOf(random);
  }

  /** The protocol on all d features (the rows of x). */
  static PaperProtocol.Row allFeatures(PaperProtocol protocol, DenseMatrix x, int[] classes) {
    int[] all = new int[x.rows()];
    Arrays.setAll(all, f -> f);
    return protocol.evaluate(x, classes, all);
  }

  /**
   * The random row for each m (capped at d, as the methods' top m): {@code draws} subsets of m
   * distinct features, each drawn by a partial Fisher–Yates shuffle from a generator seeded
   * with {@code seed} for that m, each evaluated by the protocol.
   */
  static List<RandomRow> random(PaperProtocol protocol, DenseMatrix x, int[] classes,
      int[] numFeatures, int draws, long seed) {
    List<RandomRow> rows = new ArrayList<>();
    if (draws == 0) {
      return rows;
    }
    int d = x.rows();
    for (int requested : numFeatures) {
      int m = Math.min(requested, d);
      SplittableRandom rnd = new SplittableRandom(seed);
      double[] acc = new double[draws];
      double[] nmi = new double[draws];
      int[] order = new int[d];
      for (int draw = 0; draw < draws; draw++) {
        Arrays.setAll(order, f -> f);
        for (int i = 0; i < m; i++) {
          int j = i + rnd.nextInt(d - i);
          int t = order[i];
          order[i] = order[j];
          order[j] = t;
        }
        int[] subset = Arrays.copyOf(order, m);
        Arrays.sort(subset);
        PaperProtocol.Row row = protocol.evaluate(x, classes, subset);
        acc[draw] = row.acc().mean();
        nmi[draw] = row.nmi().mean();
      }
      rows.add(new RandomRow(m, Spread.of(acc), Spread.of(nmi)));
    }
    return rows;
  }
}
