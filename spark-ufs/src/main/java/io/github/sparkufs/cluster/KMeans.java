package io.github.sparkufs.cluster;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.Shared;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Lloyd's k-means over a {@link RowBlockMatrix}, seeded by greedy k-means++ (Arthur and
 * Vassilvitskii, 2007) on a uniform sample of at most {@link #INIT_SAMPLE_PER_CLUSTER}·c samples collected to
 * the driver (the whole data when it is smaller, which is exact k-means++). Each Lloyd
 * iteration is one pass: every block assigns its samples and returns per-cluster sums, counts
 * and cost. A cluster that loses all its samples is re-seeded at the sample farthest from its
 * centre. Deterministic for a given seed and row order, whatever the partitioning.
 */
public final class KMeans {

  /** Samples drawn per cluster for the k-means++ seeding. */
  public static final int INIT_SAMPLE_PER_CLUSTER = 200;

  private final int k;
  private final int maxIter;
  private final double tol;

  /**
   * @param k clusters, at least 1
   * @param maxIter Lloyd iterations at most, at least 1
   * @param tol stop when the cost decreases by less than this fraction
   */
  public KMeans(int k, int maxIter, double tol) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1, got " + k);
    }
    if (maxIter < 1) {
      throw new IllegalArgumentException("maxIter must be >= 1, got " + maxIter);
    }
    this.k = k;
    this.maxIter = maxIter;
    this.tol = tol;
  }

  /** Result of a clustering: centres (d × k), labels in sample order, and the cost. */
  public static final class Result {
    private final DenseMatrix centers;
    private final int[] labels;
    private final double cost;

    Result(DenseMatrix centers, int[] labels, double cost) {
      this.centers = centers;
      this.labels = labels;
      this.cost = cost;
    }

    public DenseMatrix centers() {
      return centers;
    }

    public int[] labels() {
      return labels;
    }

    /** Sum of squared distances of samples to their centres. */
    public double cost() {
      return cost;
    }
  }

  /** Clusters the samples (columns) of a driver-side d × n matrix. */
  public Result fit(DenseMatrix samples, long seed) {
    return fit(RowBlockMatrix.local(samples), seed);
  }

  /** The lowest-cost of one run per seed, in order (ties: the earlier run). */
  public Result fitBest(RowBlockMatrix x, long[] seeds) {
    Result best = null;
    for (long seed : seeds) {
      Result r = fit(x, seed);
      if (best == null || r.cost() < best.cost()) {
        best = r;
      }
    }
    return best;
  }

  /** Clusters the samples of {@code x}. */
  public Result fit(RowBlockMatrix x, long seed) {
    if (x.numRows() < k) {
      throw new IllegalArgumentException("cannot form " + k + " clusters from " + x.numRows()
          + " samples");
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix centers = seed(x, rnd);
    int d = x.numCols();
    double prevCost = Double.POSITIVE_INFINITY;
    for (int it = 0; it < maxIter; it++) {
      Stats s;
      try (Shared<DenseMatrix> shared = x.execution().share(centers)) {
        s = x.blocks().aggregate(b -> Stats.of(b, shared.get()), Stats::merge);
      }
      DenseMatrix next = new DenseMatrix(d, k);
      for (int c = 0; c < k; c++) {
        if (s.counts[c] == 0) {
          System.arraycopy(s.farthest.data(), c * d, next.data(), c * d, d);
        } else {
          for (int j = 0; j < d; j++) {
            next.set(j, c, s.sums.get(j, c) / s.counts[c]);
          }
        }
      }
      boolean emptied = Arrays.stream(s.counts).anyMatch(v -> v == 0);
      centers = next;
      if (!emptied && prevCost - s.cost <= tol * s.cost) {
        break;
      }
      prevCost = s.cost;
    }
    return new Result(centers, assign(x, centers), cost(x, centers));
  }

  /** The index of the nearest centre for every sample, in sample order. */
  public static int[] assign(RowBlockMatrix x, DenseMatrix centers) {
    List<int[]> parts;
    try (Shared<DenseMatrix> shared = x.execution().share(centers)) {
      parts = x.blocks().collect(b -> {
        int[] labels = new int[b.numRows()];
        for (int i = 0; i < labels.length; i++) {
          labels[i] = nearest(b, i, shared.get());
        }
        return labels;
      });
    }
    int[] out = new int[x.numRows()];
    int at = 0;
    for (int[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }

  private static double cost(RowBlockMatrix x, DenseMatrix centers) {
    try (Shared<DenseMatrix> shared = x.execution().share(centers)) {
      return x.blocks().aggregate(b -> {
        double s = 0;
        for (int i = 0; i < b.numRows(); i++) {
          s += squaredDistance(b, i, shared.get(), nearest(b, i, shared.get()));
        }
        return s;
      }, Double::sum);
    }
  }

  /**
   * Greedy k-means++ on a uniform sample of the samples (all of them when n is small): each
   * new centre is the best, by the resulting potential, of {@code 2 + ⌊ln k⌋} candidates drawn
   * with probability proportional to the squared distance to the nearest centre so far (the
   * variant scikit-learn uses by default).
   */
  private DenseMatrix seed(RowBlockMatrix x, SplittableRandom rnd) {
    int n = x.numRows();
    int m = (int) Math.min(n, (long) INIT_SAMPLE_PER_CLUSTER * k);
    int[] chosen = sampleWithoutReplacement(n, m, rnd);
    DenseMatrix sample = x.gatherColumns(chosen);
    int d = x.numCols();
    DenseMatrix centers = new DenseMatrix(d, k);
    double[] sv = sample.data();
    int candidates = 2 + (int) Math.log(k);
    int first = rnd.nextInt(m);
    System.arraycopy(sv, first * d, centers.data(), 0, d);
    double[] best = distancesTo(sv, d, m, sv, first);
    double[] trial = new double[m];
    for (int c = 1; c < k; c++) {
      double total = 0;
      for (double v : best) {
        total += v;
      }
      int pick = -1;
      double pickPotential = Double.POSITIVE_INFINITY;
      double[] pickBest = null;
      for (int t = 0; t < candidates; t++) {
        int candidate = total > 0 ? drawProportional(best, total, rnd) : rnd.nextInt(m);
        double[] dist = distancesTo(sv, d, m, sv, candidate);
        double potential = 0;
        for (int i = 0; i < m; i++) {
          trial[i] = Math.min(best[i], dist[i]);
          potential += trial[i];
        }
        if (potential < pickPotential) {
          pickPotential = potential;
          pick = candidate;
          pickBest = trial.clone();
        }
      }
      best = pickBest;
      System.arraycopy(sv, pick * d, centers.data(), c * d, d);
    }
    return centers;
  }

  private static int drawProportional(double[] weights, double total, SplittableRandom rnd) {
    double u = rnd.nextDouble() * total;
    double acc = 0;
    for (int i = 0; i < weights.length - 1; i++) {
      acc += weights[i];
      if (acc > u) {
        return i;
      }
    }
    return weights.length - 1;
  }

  /** Squared distances from each of the m samples to sample {@code at}. */
  private static double[] distancesTo(double[] samples, int d, int m, double[] from, int at) {
    double[] out = new double[m];
    for (int i = 0; i < m; i++) {
      double s = 0;
      for (int j = 0; j < d; j++) {
        double diff = samples[i * d + j] - from[at * d + j];
        s += diff * diff;
      }
      out[i] = s;
    }
    return out;
  }

  /** m distinct indices of [0, n), sorted (Floyd's algorithm when m < n). */
  static int[] sampleWithoutReplacement(int n, int m, SplittableRandom rnd) {
    if (m == n) {
      int[] all = new int[n];
      for (int i = 0; i < n; i++) {
        all[i] = i;
      }
      return all;
    }
    java.util.HashSet<Integer> set = new java.util.HashSet<>();
    for (int j = n - m; j < n; j++) {
      int t = rnd.nextInt(j + 1);
      set.add(set.contains(t) ? j : t);
    }
    return set.stream().mapToInt(Integer::intValue).sorted().toArray();
  }

  static int nearest(RowBlock b, int i, DenseMatrix centers) {
    return nearest(b.columns().data(), i, centers);
  }

  static double squaredDistance(RowBlock b, int i, DenseMatrix centers, int c) {
    return squaredDistance(b.columns().data(), i, centers, c);
  }

  /**
   * Index of the center (column of {@code centers}) nearest to point i of {@code points}, the
   * point stored at {@code points[i·dim, (i+1)·dim)} with dim = centers' rows; ties go to the
   * lower index.
   */
  public static int nearest(double[] points, int i, DenseMatrix centers) {
    int best = 0;
    double bestDist = Double.POSITIVE_INFINITY;
    for (int c = 0; c < centers.cols(); c++) {
      double dist = squaredDistance(points, i, centers, c);
      if (dist < bestDist) {
        bestDist = dist;
        best = c;
      }
    }
    return best;
  }

  /** Squared distance from point i of {@code points} (laid out as in {@link #nearest}) to center c. */
  public static double squaredDistance(double[] points, int i, DenseMatrix centers, int c) {
    int d = centers.rows();
    double[] cv = centers.data();
    double s = 0;
    for (int j = 0; j < d; j++) {
      double diff = points[i * d + j] - cv[c * d + j];
      s += diff * diff;
    }
    return s;
  }

  /** Per-cluster sums and counts of one pass, the cost, and each cluster's farthest sample. */
  private static final class Stats implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    final DenseMatrix sums;
    final long[] counts;
    double cost;
    /** Column c: the sample farthest from centre c among those assigned anywhere. */
    final DenseMatrix farthest;
    final double[] farthestDist;

    Stats(int d, int k) {
      sums = new DenseMatrix(d, k);
      counts = new long[k];
      farthest = new DenseMatrix(d, k);
      farthestDist = new double[k];
      Arrays.fill(farthestDist, -1);
    }

    static Stats of(RowBlock b, DenseMatrix centers) {
      int d = b.numCols();
      int k = centers.cols();
      Stats s = new Stats(d, k);
      double[] v = b.columns().data();
      double[] dist = new double[k];
      for (int i = 0; i < b.numRows(); i++) {
        int c = 0;
        for (int e = 0; e < k; e++) {
          dist[e] = squaredDistance(b, i, centers, e);
          if (dist[e] < dist[c]) {
            c = e;
          }
          if (dist[e] > s.farthestDist[e]) {
            s.farthestDist[e] = dist[e];
            System.arraycopy(v, i * d, s.farthest.data(), e * d, d);
          }
        }
        s.counts[c]++;
        s.cost += dist[c];
        for (int j = 0; j < d; j++) {
          s.sums.data()[c * d + j] += v[i * d + j];
        }
      }
      return s;
    }

    static Stats merge(Stats a, Stats b) {
      DenseMatrix.accumulate(a.sums, b.sums);
      for (int c = 0; c < a.counts.length; c++) {
        a.counts[c] += b.counts[c];
        if (b.farthestDist[c] > a.farthestDist[c]) {
          a.farthestDist[c] = b.farthestDist[c];
          System.arraycopy(b.farthest.data(), c * a.sums.rows(), a.farthest.data(),
              c * a.sums.rows(), a.sums.rows());
        }
      }
      a.cost += b.cost;
      return a;
    }
  }
}
