package io.github.sparkufs.eval;

import io.github.sparkufs.linalg.DenseMatrix;
import java.io.Serializable;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Data with planted cluster structure, for demos, tests and scale runs: {@code informative}
 * features carry c well-separated Gaussian clusters, the other features are independent
 * Gaussian noise scaled to the same total variance, so that variance alone cannot tell them
 * apart. The informative features sit at random positions.
 *
 * <p>On every informative feature the c cluster centres are a random permutation of c evenly
 * spaced levels whose spread (standard deviation) is {@code separation}, so each informative
 * feature separates the clusters equally well while different features separate different
 * pairs; a sample is its centre plus {@code N(0, 1)} noise. Noise features are
 * {@code N(0, 1 + separation²)}. Deterministic for a seed; sample i's values depend only on
 * (seed, i), so any range of rows can be generated independently — on the driver, or per
 * partition on executors (the generator is serializable and small: O(d + c · informative)).
 */
public final class PlantedClusters implements Serializable {

  private static final long serialVersionUID = 1L;

  private final int numFeatures;
  private final int clusters;
  private final double separation;
  private final long seed;
  private final int[] informative;
  private final boolean[] isInformative;
  private final double[][] centers;

  /**
   * @param numFeatures d, total features
   * @param numInformative features that carry the clusters, 1..d
   * @param clusters c ≥ 2
   * @param separation spread of the centres relative to the within-cluster noise
   * @param seed fixes the centres, the positions and every sample
   */
  public PlantedClusters(int numFeatures, int numInformative, int clusters, double separation,
      long seed) {
    if (numInformative < 1 || numInformative > numFeatures) {
      throw new IllegalArgumentException("numInformative must be in [1, " + numFeatures
          + "], got " + numInformative);
    }
    if (clusters < 2) {
      throw new IllegalArgumentException("clusters must be >= 2, got " + clusters);
    }
    if (!(separation > 0)) {
      throw new IllegalArgumentException("separation must be > 0, got " + separation);
    }
    this.numFeatures = numFeatures;
    this.clusters = clusters;
    this.separation = separation;
    this.seed = seed;
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] perm = new int[numFeatures];
    for (int i = 0; i < numFeatures; i++) {
      perm[i] = i;
    }
    for (int i = numFeatures - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    informative = Arrays.copyOf(perm, numInformative);
    Arrays.sort(informative);
    isInformative = new boolean[numFeatures];
    for (int f : informative) {
      isInformative[f] = true;
    }
    centers = new double[clusters][numInformative];
    double step = separation / Math.sqrt((clusters * (double) clusters - 1) / 12);
    int[] levels = new int[clusters];
    for (int j = 0; j < numInformative; j++) {
      for (int c = 0; c < clusters; c++) {
        levels[c] = c;
      }
      for (int c = clusters - 1; c > 0; c--) {
        int r = rnd.nextInt(c + 1);
        int t = levels[c];
        levels[c] = levels[r];
        levels[r] = t;
      }
      for (int c = 0; c < clusters; c++) {
        centers[c][j] = step * (levels[c] - (clusters - 1) / 2.0);
      }
    }
  }

  /** The planted informative feature indices, ascending. */
  public int[] informativeFeatures() {
    return informative.clone();
  }

  public int numFeatures() {
    return numFeatures;
  }

  public int clusters() {
    return clusters;
  }

  /** The cluster of sample i (samples cycle through the clusters). */
  public int label(long i) {
    return (int) (i % clusters);
  }

  /** The features of sample i. */
  public double[] sample(long i) {
    SplittableRandom rnd = sampleStream(i);
    double[] c = centers[label(i)];
    double noiseStd = Math.sqrt(1 + separation * separation);
    double[] x = new double[numFeatures];
    int inf = 0;
    for (int f = 0; f < numFeatures; f++) {
      x[f] = isInformative[f] ? c[inf++] + gaussian(rnd) : noiseStd * gaussian(rnd);
    }
    return x;
  }

  /**
   * Sample i's own random stream, a function of (seed, i) only. Its start is hashed (the first
   * output of a generator seeded by seed and i), so the streams of different samples start at
   * unrelated points of the generator's sequence: seeded by {@code seed ^ (γ (i + 1))} directly,
   * with γ the generator's own step, sample i + 1's stream would be sample i's shifted by a step,
   * and most of their values would repeat.
   */
  private SplittableRandom sampleStream(long i) {
    long start = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (i + 1))).nextLong();
    return new SplittableRandom(start);
  }

  /** Samples {@code [0, n)} as a d × n matrix (one column per sample). */
  public DenseMatrix matrix(int n) {
    DenseMatrix m = new DenseMatrix(numFeatures, n);
    for (int i = 0; i < n; i++) {
      System.arraycopy(sample(i), 0, m.data(), i * numFeatures, numFeatures);
    }
    return m;
  }

  /** Labels of samples {@code [0, n)}. */
  public int[] labels(int n) {
    int[] l = new int[n];
    for (int i = 0; i < n; i++) {
      l[i] = label(i);
    }
    return l;
  }

  /** Fraction of the planted features among {@code selected}'s first |planted| entries. */
  public double recall(int[] ranking) {
    int hits = 0;
    for (int r = 0; r < Math.min(informative.length, ranking.length); r++) {
      if (isInformative[ranking[r]]) {
        hits++;
      }
    }
    return (double) hits / informative.length;
  }

  /** {@code count} distinct values of {@code [0, n)} in random order (a partial Fisher–Yates). */
  public static int[] choose(int n, int count, SplittableRandom rnd) {
    int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    for (int i = 0; i < count; i++) {
      int j = i + rnd.nextInt(n - i);
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    return Arrays.copyOf(perm, count);
  }

  /** A standard normal draw (Marsaglia's polar method). */
  public static double gaussian(SplittableRandom rnd) {
    double u;
    double v;
    double s;
    do {
      u = 2 * rnd.nextDouble() - 1;
      v = 2 * rnd.nextDouble() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s == 0);
    return u * Math.sqrt(-2 * Math.log(s) / s);
  }
}
