package io.github.sparkufs.examples.bench;

import io.github.sparkufs.cluster.KMeans;
import io.github.sparkufs.eval.ClusteringMetrics;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.solver.FeatureRanking;
import java.util.ArrayList;
import java.util.List;

/**
 * The evaluation protocol of the papers (e.g. the NDFS paper's §5, after Cai, Zhang and He
 * 2010): keep the top m features, run k-means
 * with c clusters {@code runs} times from random (k-means++) starts, and report the mean and
 * standard deviation of ACC and NMI against the known classes. Runs on the driver.
 */
public final class PaperProtocol {

  /** Lloyd iterations per k-means run at most. */
  public static final int KMEANS_MAX_ITER = 100;

  private final int clusters;
  private final int runs;
  private final long seed;

  public PaperProtocol(int clusters, int runs, long seed) {
    if (clusters < 1) {
      throw new IllegalArgumentException("clusters must be >= 1, got " + clusters);
    }
    if (runs < 1) {
      throw new IllegalArgumentException("runs must be >= 1, got " + runs);
    }
    this.clusters = clusters;
    this.runs = runs;
    this.seed = seed;
  }

  /** Mean and (population) standard deviation of one metric over the runs. */
  public static final class Stat {
    private final double mean;
    private final double std;

    Stat(double[] values) {
      double m = 0;
      for (double v : values) {
        m += v;
      }
      m /= values.length;
      double s = 0;
      for (double v : values) {
        s += (v - m) * (v - m);
      }
      this.mean = m;
      this.std = Math.sqrt(s / values.length);
    }

    public double mean() {
      return mean;
    }

    public double std() {
      return std;
    }
  }

  /** ACC and NMI for one number of features. */
  public static final class Row {
    private final int numFeatures;
    private final Stat acc;
    private final Stat nmi;

    Row(int numFeatures, Stat acc, Stat nmi) {
      this.numFeatures = numFeatures;
      this.acc = acc;
      this.nmi = nmi;
    }

    public int numFeatures() {
      return numFeatures;
    }

    public Stat acc() {
      return acc;
    }

    public Stat nmi() {
      return nmi;
    }
  }

  /**
   * Evaluates a score vector.
   *
   * @param x the data, d × n (one column per sample)
   * @param classes the known class of each sample
   * @param scores one score per feature
   * @param largerIsBetter the direction of the scores
   * @param numFeatures the values of m
   */
  public List<Row> evaluate(DenseMatrix x, int[] classes, double[] scores, boolean largerIsBetter,
      int[] numFeatures) {
    List<Row> rows = new ArrayList<>();
    for (int m : numFeatures) {
      rows.add(evaluate(x, classes, FeatureRanking.top(scores, largerIsBetter, m)));
    }
    return rows;
  }

  /** Evaluates one feature subset (indices into the rows of x). */
  public Row evaluate(DenseMatrix x, int[] classes, int[] features) {
    int n = x.cols();
    int m = features.length;
    DenseMatrix sub = new DenseMatrix(m, n);
    for (int i = 0; i < n; i++) {
      for (int f = 0; f < m; f++) {
        sub.data()[i * m + f] = x.get(features[f], i);
      }
    }
    double[] acc = new double[runs];
    double[] nmi = new double[runs];
    KMeans kmeans = new KMeans(clusters, KMEANS_MAX_ITER, 0.0);
    for (int r = 0; r < runs; r++) {
      int[] labels = kmeans.fit(sub, seed + r).labels();
      acc[r] = ClusteringMetrics.accuracy(classes, labels);
      nmi[r] = ClusteringMetrics.nmi(classes, labels, ClusteringMetrics.Normalization.SQRT);
    }
    return new Row(m, new Stat(acc), new Stat(nmi));
  }
}
