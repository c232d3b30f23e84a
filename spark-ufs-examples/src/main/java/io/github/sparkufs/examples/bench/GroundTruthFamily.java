package io.github.sparkufs.examples.bench;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Families of data with known informative features, each the shape of a case where unsupervised
 * selectors are known to go wrong, for the ground-truth recall table ({@code docs/recall.md}) and
 * its tests. Every family draws n samples in c clusters; a sample's informative features carry
 * its cluster's centre (levels spaced as in {@link PlantedClusters}) plus unit Gaussian noise,
 * and its other features carry no cluster information. What differs:
 *
 * <ul>
 *   <li>{@link #EQUAL_VARIANCE}: noise features Gaussian with the informative features' total
 *       variance, so variance alone cannot tell them apart ({@link PlantedClusters}).
 *   <li>{@link #REDUNDANT}: the informative features are noisy copies of two signals (copy noise
 *       0.3 of the within-cluster noise), so half the kept set says the same thing twice.
 *   <li>{@link #ZSCORED_REDUNDANT}: {@link #REDUNDANT} with every column standardised to mean 0
 *       and variance 1, the way users often hand data over.
 *   <li>{@link #UNEQUAL_SIZES}: clusters of 55, 25, 15 and 5% of the samples.
 *   <li>{@link #HEAVY_TAILED_NOISE}: noise features Student-t with 3 degrees of freedom, scaled
 *       to the informative features' variance: rare huge values, no structure.
 *   <li>{@link #SMALL_SCALE_SIGNAL}: the informative features multiplied by 0.05, so they are
 *       small next to the unit-variance noise features though they alone carry the clusters.
 *   <li>{@link #MANY_NOISE}: 8 informative features among 500.
 *   <li>{@link #UNIFORM_NOISE}: noise features uniform with the informative features' variance:
 *       no values far out, so they span less range for their spread (3.5 standard deviations)
 *       than the clustered informative features (about 4.2) or Gaussian noise (about 5.9).
 *   <li>{@link #CORRELATED_NOISE}: each noise feature, of the informative features' variance,
 *       has {@value #FACTOR_SHARE} of it from one of {@value #FACTORS} Gaussian factors shared
 *       with the others (a batch or size effect): few directions, each of about 14 noise
 *       features, hold most of the variance and of the samples' distances, with no clusters.
 *   <li>{@link #FEW_SAMPLES}: 8 informative features among 1000 on 150 samples, d far above n
 *       (gene expression's shape): any partition of the samples can be fitted by the noise.
 * </ul>
 *
 * Deterministic for a seed.
 */
public enum GroundTruthFamily {
  EQUAL_VARIANCE(50, 4, 400),
  REDUNDANT(50, 4, 400),
  ZSCORED_REDUNDANT(50, 4, 400),
  UNEQUAL_SIZES(50, 4, 400),
  HEAVY_TAILED_NOISE(50, 4, 400),
  SMALL_SCALE_SIGNAL(50, 4, 400),
  MANY_NOISE(500, 4, 400),
  UNIFORM_NOISE(50, 4, 400),
  CORRELATED_NOISE(50, 4, 400),
  FEW_SAMPLES(1000, 4, 150);

  /** Informative features in every family. */
  public static final int INFORMATIVE = 8;
  /** Spread of the cluster centres relative to the within-cluster noise. */
  static final double SEPARATION = 3.0;
  private static final double COPY_NOISE = 0.3;
  private static final double SMALL_SCALE = 0.05;
  private static final double[] UNEQUAL_SHARES = {0.55, 0.25, 0.15, 0.05};
  private static final int TAIL_DEGREES = 3;
  /** Shared Gaussian factors of {@link #CORRELATED_NOISE}'s noise features. */
  static final int FACTORS = 3;
  /** The share of a {@link #CORRELATED_NOISE} noise feature's variance from its factor. */
  static final double FACTOR_SHARE = 0.8;

  private final int numFeatures;
  private final int clusters;
  private final int rows;

  GroundTruthFamily(int numFeatures, int clusters, int rows) {
    this.numFeatures = numFeatures;
    this.clusters = clusters;
    this.rows = rows;
  }

  /** The family's name as written in tables and on the command line, e.g. {@code many-noise}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public int numFeatures() {
    return numFeatures;
  }

  public int clusters() {
    return clusters;
  }

  /** Samples drawn by {@link #draw}. */
  public int rows() {
    return rows;
  }

  /** One draw of the family: data (d × n, a column per sample), labels and the informative features. */
  public Draw draw(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + ordinal());
    int[] informative = PlantedClusters.choose(numFeatures, INFORMATIVE, rnd);
    boolean[] isInformative = new boolean[numFeatures];
    for (int f : informative) {
      isInformative[f] = true;
    }
    int[] labels = labels(rnd);
    // A signal's centres: a random permutation of c evenly spaced levels of spread SEPARATION.
    int signals = this == REDUNDANT || this == ZSCORED_REDUNDANT ? 2 : INFORMATIVE;
    double step = SEPARATION / Math.sqrt((clusters * (double) clusters - 1) / 12);
    double[][] centers = new double[signals][clusters];
    for (int s = 0; s < signals; s++) {
      int[] levels = PlantedClusters.choose(clusters, clusters, rnd);
      for (int c = 0; c < clusters; c++) {
        centers[s][c] = step * (levels[c] - (clusters - 1) / 2.0);
      }
    }
    double noiseStd = Math.sqrt(1 + SEPARATION * SEPARATION);
    // Each noise feature of CORRELATED_NOISE follows one factor, with a random sign (drawn for
    // that family only, so that the other families' draws stay as they were).
    boolean factored = this == CORRELATED_NOISE;
    int[] factorOf = new int[numFeatures];
    double[] factorSign = new double[numFeatures];
    for (int f = 0; factored && f < numFeatures; f++) {
      factorOf[f] = rnd.nextInt(FACTORS);
      factorSign[f] = rnd.nextBoolean() ? 1 : -1;
    }
    DenseMatrix x = new DenseMatrix(numFeatures, rows);
    double[] signal = new double[signals];
    double[] factor = new double[FACTORS];
    for (int i = 0; i < rows; i++) {
      for (int s = 0; s < signals; s++) {
        signal[s] = centers[s][labels[i]] + PlantedClusters.gaussian(rnd);
      }
      for (int k = 0; factored && k < FACTORS; k++) {
        factor[k] = PlantedClusters.gaussian(rnd);
      }
      for (int f = 0, inf = 0; f < numFeatures; f++) {
        double v;
        if (isInformative[f]) {
          v = signals == INFORMATIVE ? signal[inf] : signal[inf % signals] + COPY_NOISE * PlantedClusters.gaussian(rnd);
          v *= this == SMALL_SCALE_SIGNAL ? SMALL_SCALE : 1;
          inf++;
        } else if (this == HEAVY_TAILED_NOISE) {
          v = noiseStd * studentT(rnd) / Math.sqrt(TAIL_DEGREES / (TAIL_DEGREES - 2.0));
        } else if (this == UNIFORM_NOISE) {
          v = noiseStd * Math.sqrt(3) * (2 * rnd.nextDouble() - 1);
        } else if (factored) {
          v = noiseStd * (Math.sqrt(FACTOR_SHARE) * factorSign[f] * factor[factorOf[f]]
              + Math.sqrt(1 - FACTOR_SHARE) * PlantedClusters.gaussian(rnd));
        } else {
          v = (this == SMALL_SCALE_SIGNAL ? 1 : noiseStd) * PlantedClusters.gaussian(rnd);
        }
        x.set(f, i, v);
      }
    }
    if (this == ZSCORED_REDUNDANT) {
      standardizeRows(x);
    }
    Arrays.sort(informative);
    return new Draw(x, labels, informative);
  }

  /** One draw: {@code x} is d × n (a column per sample); {@code informative} ascending. */
  public static final class Draw {
    private final DenseMatrix x;
    private final int[] labels;
    private final int[] informative;

    Draw(DenseMatrix x, int[] labels, int[] informative) {
      this.x = x;
      this.labels = labels;
      this.informative = informative;
    }

    public DenseMatrix x() {
      return x;
    }

    public int[] labels() {
      return labels.clone();
    }

    public int[] informative() {
      return informative.clone();
    }

    /** The share of the informative features among the first |informative| of {@code ranking}. */
    public double recall(int[] ranking) {
      int hits = 0;
      for (int r = 0; r < Math.min(informative.length, ranking.length); r++) {
        if (Arrays.binarySearch(informative, ranking[r]) >= 0) {
          hits++;
        }
      }
      return (double) hits / informative.length;
    }
  }

  private int[] labels(SplittableRandom rnd) {
    int[] labels = new int[rows];
    if (this == UNEQUAL_SIZES) {
      int at = 0;
      for (int c = 0; c < clusters; c++) {
        int size = c == clusters - 1 ? rows - at : (int) Math.round(UNEQUAL_SHARES[c] * rows);
        Arrays.fill(labels, at, at + size, c);
        at += size;
      }
      // Shuffled, so that no method can lean on the row order.
      int[] order = PlantedClusters.choose(rows, rows, rnd);
      int[] shuffled = new int[rows];
      for (int i = 0; i < rows; i++) {
        shuffled[i] = labels[order[i]];
      }
      return shuffled;
    }
    for (int i = 0; i < rows; i++) {
      labels[i] = i % clusters;
    }
    return labels;
  }

  private static void standardizeRows(DenseMatrix x) {
    for (int f = 0; f < x.rows(); f++) {
      double mean = 0;
      for (int i = 0; i < x.cols(); i++) {
        mean += x.get(f, i);
      }
      mean /= x.cols();
      double var = 0;
      for (int i = 0; i < x.cols(); i++) {
        double d = x.get(f, i) - mean;
        var += d * d;
      }
      double std = Math.sqrt(var / x.cols());
      for (int i = 0; i < x.cols(); i++) {
        x.set(f, i, (x.get(f, i) - mean) / std);
      }
    }
  }

  /** Student-t with {@link #TAIL_DEGREES} degrees of freedom: Z / sqrt(χ²_ν / ν). */
  private static double studentT(SplittableRandom rnd) {
    double chi2 = 0;
    for (int k = 0; k < TAIL_DEGREES; k++) {
      double g = PlantedClusters.gaussian(rnd);
      chi2 += g * g;
    }
    return PlantedClusters.gaussian(rnd) / Math.sqrt(chi2 / TAIL_DEGREES);
  }
}
