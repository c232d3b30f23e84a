package io.github.sparkufs.cluster;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.DoubleArrays;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.Shared;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Lloyd's k-means over a {@link RowBlockMatrix}, seeded by greedy k-means++ (Arthur and
 * Vassilvitskii, 2007) on a uniform sample of at most {@link #INIT_SAMPLE_PER_CLUSTER}·c samples collected to
 * the driver (the whole data when it is smaller, which is exact k-means++). Each Lloyd
 * iteration is one pass: every block assigns its samples and returns per-cluster sums, counts
 * and cost. A cluster that loses all its samples is re-seeded at the sample farthest from its
 * centre (found by one more pass, only then).
 *
 * <p><b>Assignment.</b> A block's samples are compared with the centres through one GEMM per
 * tile of samples, {@code ||c||² − 2 xᵀc} ({@link #nearestInBlock}); the GEMM only screens.
 * Every centre within {@link DoubleArrays#distanceScreenMargin} of the best screened value, a bound on the
 * rounding of the screen and of the direct sum {@code Σ (x_j − c_j)²} whatever the order of
 * the GEMM's sums, is measured again by that direct sum ({@link #squaredDistance}), and the
 * sample goes to the nearest by it, ties to the lower index. So every label is exactly the one
 * {@link #nearest(double[], int, DenseMatrix)} gives, and every cost is that of the direct
 * sums: neither depends on the BLAS or on how the samples are split into blocks. The centres
 * are the blocks' sums merged in block order, which is deterministic for a given partitioning;
 * two partitionings can differ in the centres' last bits.
 */
public final class KMeans {

  /** Samples drawn per cluster for the k-means++ seeding. */
  public static final int INIT_SAMPLE_PER_CLUSTER = 200;

  /** Samples per GEMM tile of the assignment: a tile's products are k × TILE doubles. */
  private static final int TILE = 512;

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

  /** The lowest-cost of {@code runs} runs seeded by successive draws from {@code seed}. */
  public Result fitBest(RowBlockMatrix x, int runs, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] seeds = new long[runs];
    for (int run = 0; run < runs; run++) {
      seeds[run] = rnd.nextLong();
    }
    return fitBest(x, seeds);
  }

  /**
   * As {@link #fitBest(RowBlockMatrix, int, long)} on a uniform sample of at most
   * {@code maxSamples} of the samples (all of them when there are no more), gathered to the
   * driver, then every sample labelled by its nearest centre in one pass: for a clustering of
   * many samples whose Lloyd passes would cost more than the clustering is worth.
   */
  public Result fitBestOnSample(RowBlockMatrix x, int runs, long seed, int maxSamples) {
    int n = x.numRows();
    if (n <= maxSamples) {
      return fitBest(x, runs, seed);
    }
    DenseMatrix sample = x.gatherColumns(sampleWithoutReplacement(n,
        Math.max(maxSamples, k), new SplittableRandom(seed)));
    DenseMatrix centers = fitBest(RowBlockMatrix.local(sample), runs, seed).centers();
    Labels all = labelled(x, centers);
    return new Result(centers, all.labels, all.cost);
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
      int[] empty = IntStream.range(0, k).filter(c -> s.counts[c] == 0).toArray();
      DenseMatrix next = empty.length == 0 ? new DenseMatrix(d, k) : farthest(x, centers, empty);
      for (int c = 0; c < k; c++) {
        if (s.counts[c] > 0) {
          for (int j = 0; j < d; j++) {
            next.set(j, c, s.sums.get(j, c) / s.counts[c]);
          }
        }
      }
      centers = next;
      if (empty.length == 0 && prevCost - s.cost <= tol * s.cost) {
        break;
      }
      prevCost = s.cost;
    }
    Labels last = labelled(x, centers);
    return new Result(centers, last.labels, last.cost);
  }

  /**
   * A d × k matrix whose column c, for each c in {@code empty}, is the sample farthest from
   * centre c by {@link #squaredDistance} (ties: the earlier sample), the other columns zero.
   */
  private static DenseMatrix farthest(RowBlockMatrix x, DenseMatrix centers, int[] empty) {
    int d = x.numCols();
    Farthest f;
    try (Shared<DenseMatrix> shared = x.execution().share(centers)) {
      f = x.blocks().aggregate(b -> Farthest.of(b, shared.get(), empty), Farthest::merge);
    }
    DenseMatrix out = new DenseMatrix(d, centers.cols());
    for (int e = 0; e < empty.length; e++) {
      System.arraycopy(f.samples.data(), e * d, out.data(), empty[e] * d, d);
    }
    return out;
  }

  /** The index of the nearest centre for every sample, in sample order. */
  public static int[] assign(RowBlockMatrix x, DenseMatrix centers) {
    return labelled(x, centers).labels;
  }

  private static Labels labelled(RowBlockMatrix x, DenseMatrix centers) {
    try (Shared<DenseMatrix> shared = x.execution().share(centers)) {
      return Labels.concat(x.blocks().collect(b -> Labels.of(b, shared.get())), x.numRows());
    }
  }

  /**
   * Greedy k-means++ on a uniform sample of the samples (all of them when n is small): each
   * new centre is the best, by the resulting potential, of {@code 2 + ⌊ln k⌋} candidates drawn
   * with probability proportional to the squared distance to the nearest centre so far (the
   * variant scikit-learn uses by default). The candidates' distances to the sample come from one
   * GEMM per centre, {@code ||x||² + ||y||² − 2 xᵀy}, which only screens: a sample's distance is
   * measured by the direct sum unless the screen shows it beyond the sample's current nearest
   * by more than {@link DoubleArrays#distanceScreenMargin}, so every distance, potential and draw is that of the
   * direct sums, whatever the BLAS.
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
    double[] best = new double[m];
    for (int i = 0; i < m; i++) {
      best[i] = squaredDistance(sv, i, sample, first);
    }
    double[] trial = new double[m];
    double[] pickBest = new double[m];
    double[] norms = sample.columnNormsSquared();
    double margin = DoubleArrays.distanceScreenMargin(d);
    int[] drawn = new int[candidates];
    DenseMatrix drawnSamples = new DenseMatrix(d, candidates);
    double[] dots = new double[m * candidates];
    for (int c = 1; c < k; c++) {
      double total = 0;
      for (double v : best) {
        total += v;
      }
      for (int t = 0; t < candidates; t++) {
        drawn[t] = total > 0 ? drawProportional(best, total, rnd) : rnd.nextInt(m);
        System.arraycopy(sv, drawn[t] * d, drawnSamples.data(), t * d, d);
      }
      LinalgBackend.blas().dgemm("T", "N", m, candidates, d, 1.0, sv, 0, d, drawnSamples.data(),
          0, d, 0.0, dots, 0, m);
      int pick = -1;
      double pickPotential = Double.POSITIVE_INFINITY;
      for (int t = 0; t < candidates; t++) {
        int candidate = drawn[t];
        double potential = 0;
        for (int i = 0; i < m; i++) {
          // The screened distance rules the candidate out when it exceeds best[i] by more than
          // the rounding of it and of the direct sum; otherwise the direct sum decides.
          double screened = norms[i] + norms[candidate] - 2 * dots[t * m + i];
          trial[i] = screened > best[i] + margin * (norms[i] + norms[candidate]) ? best[i]
              : Math.min(best[i], squaredDistance(sv, i, sample, candidate));
          potential += trial[i];
        }
        if (potential < pickPotential) {
          pickPotential = potential;
          pick = candidate;
          double[] swap = pickBest;
          pickBest = trial;
          trial = swap;
        }
      }
      double[] swap = best;
      best = pickBest;
      pickBest = swap;
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
    return DoubleArrays.squaredDistance(points, i * d, centers.data(), c * d, d);
  }

  /**
   * For every sample of a block, the index of its nearest centre and its squared distance to
   * it, both exactly as {@link #nearest(double[], int, DenseMatrix)} and {@link
   * #squaredDistance} give them. Per tile of {@value #TILE} samples one GEMM forms {@code xᵀc};
   * a centre is measured by the direct sum only when its screened value {@code ||c||² − 2 xᵀc}
   * is within {@link DoubleArrays#distanceScreenMargin} of the sample's smallest, which the nearest centre by the
   * direct sum always is.
   */
  static void nearestInBlock(double[] points, int n, DenseMatrix centers, int[] labels,
      double[] distances) {
    int d = centers.rows();
    int k = centers.cols();
    double[] centerNorms = centers.columnNormsSquared();
    double largestCenterNorm = Arrays.stream(centerNorms).max().orElse(0);
    double margin = DoubleArrays.distanceScreenMargin(d);
    double[] dots = new double[k * Math.min(TILE, n)];
    for (int i0 = 0; i0 < n; i0 += TILE) {
      int tn = Math.min(TILE, n - i0);
      LinalgBackend.blas().dgemm("T", "N", k, tn, d, 1.0, centers.data(), 0, d, points, i0 * d,
          d, 0.0, dots, 0, k);
      for (int t = 0; t < tn; t++) {
        int i = i0 + t;
        double screenedBest = Double.POSITIVE_INFINITY;
        for (int c = 0; c < k; c++) {
          screenedBest = Math.min(screenedBest, centerNorms[c] - 2 * dots[t * k + c]);
        }
        double pointNorm = 0;
        for (int j = 0; j < d; j++) {
          pointNorm += points[i * d + j] * points[i * d + j];
        }
        double bound = screenedBest + margin * (pointNorm + largestCenterNorm);
        int nearest = 0;
        double nearestDistance = Double.POSITIVE_INFINITY;
        for (int c = 0; c < k; c++) {
          if (centerNorms[c] - 2 * dots[t * k + c] <= bound) {
            double exact = squaredDistance(points, i, centers, c);
            if (exact < nearestDistance) {
              nearestDistance = exact;
              nearest = c;
            }
          }
        }
        labels[i] = nearest;
        distances[i] = nearestDistance;
      }
    }
  }

  /** Per-cluster sums and counts of one pass, and its cost. */
  private static final class Stats implements java.io.Serializable {
    private static final long serialVersionUID = 2L;
    final DenseMatrix sums;
    final long[] counts;
    double cost;

    private Stats(int d, int k) {
      sums = new DenseMatrix(d, k);
      counts = new long[k];
    }

    static Stats of(RowBlock b, DenseMatrix centers) {
      int d = b.numCols();
      int n = b.numRows();
      Stats s = new Stats(d, centers.cols());
      double[] v = b.columns().data();
      int[] labels = new int[n];
      double[] distances = new double[n];
      nearestInBlock(v, n, centers, labels, distances);
      double[] sums = s.sums.data();
      for (int i = 0; i < n; i++) {
        int c = labels[i];
        s.counts[c]++;
        s.cost += distances[i];
        for (int j = 0; j < d; j++) {
          sums[c * d + j] += v[i * d + j];
        }
      }
      return s;
    }

    static Stats merge(Stats a, Stats b) {
      DenseMatrix.accumulate(a.sums, b.sums);
      for (int c = 0; c < a.counts.length; c++) {
        a.counts[c] += b.counts[c];
      }
      a.cost += b.cost;
      return a;
    }
  }

  /** A block's labels, in sample order, and the sum of its samples' distances to their centres. */
  private static final class Labels implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    final int[] labels;
    final double cost;

    private Labels(int[] labels, double cost) {
      this.labels = labels;
      this.cost = cost;
    }

    static Labels of(RowBlock b, DenseMatrix centers) {
      int n = b.numRows();
      int[] labels = new int[n];
      double[] distances = new double[n];
      nearestInBlock(b.columns().data(), n, centers, labels, distances);
      double cost = 0;
      for (double v : distances) {
        cost += v;
      }
      return new Labels(labels, cost);
    }

    /** The blocks' labels one after another, their costs summed in block order. */
    static Labels concat(List<Labels> parts, int n) {
      int[] out = new int[n];
      int at = 0;
      double cost = 0;
      for (Labels p : parts) {
        System.arraycopy(p.labels, 0, out, at, p.labels.length);
        at += p.labels.length;
        cost += p.cost;
      }
      return new Labels(out, cost);
    }
  }

  /** For each of some centres, the sample farthest from it so far and that distance. */
  private static final class Farthest implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Column e: the sample farthest from the e-th of the centres asked about. */
    final DenseMatrix samples;
    final double[] distances;

    private Farthest(int d, int count) {
      samples = new DenseMatrix(d, count);
      distances = new double[count];
      Arrays.fill(distances, -1);
    }

    static Farthest of(RowBlock b, DenseMatrix centers, int[] which) {
      int d = b.numCols();
      Farthest f = new Farthest(d, which.length);
      double[] v = b.columns().data();
      for (int i = 0; i < b.numRows(); i++) {
        for (int e = 0; e < which.length; e++) {
          double dist = squaredDistance(v, i, centers, which[e]);
          if (dist > f.distances[e]) {
            f.distances[e] = dist;
            System.arraycopy(v, i * d, f.samples.data(), e * d, d);
          }
        }
      }
      return f;
    }

    static Farthest merge(Farthest a, Farthest b) {
      int d = a.samples.rows();
      for (int e = 0; e < a.distances.length; e++) {
        if (b.distances[e] > a.distances[e]) {
          a.distances[e] = b.distances[e];
          System.arraycopy(b.samples.data(), e * d, a.samples.data(), e * d, d);
        }
      }
      return a;
    }
  }
}
