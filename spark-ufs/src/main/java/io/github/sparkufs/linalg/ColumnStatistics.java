package io.github.sparkufs.linalg;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Per-feature count, mean, variance, minimum and maximum of the data, computed block by block
 * and merged pairwise (Chan, Golub and LeVeque's update of the centred sums of squares), so
 * that the figures do not depend on how the samples are split into blocks beyond rounding.
 */
public final class ColumnStatistics implements Serializable {

  private static final long serialVersionUID = 1L;

  private long count;
  private final double[] mean;
  private final double[] centredSquares;
  private final double[] min;
  private final double[] max;

  private ColumnStatistics(int d) {
    mean = new double[d];
    centredSquares = new double[d];
    min = new double[d];
    max = new double[d];
    Arrays.fill(min, Double.POSITIVE_INFINITY);
    Arrays.fill(max, Double.NEGATIVE_INFINITY);
  }

  /** The statistics of one block (two passes over its values). */
  public static ColumnStatistics of(RowBlock block) {
    if (block.isSparse()) {
      return of(block.rows());
    }
    int d = block.numCols();
    int rows = block.numRows();
    double[] v = block.columns().data();
    ColumnStatistics s = new ColumnStatistics(d);
    s.count = rows;
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < d; j++) {
        double x = v[i * d + j];
        s.mean[j] += x;
        // Plain comparisons: the values are finite (checked when read), so the NaN and -0.0
        // rules of Math.min/max, which slow this pass, are not needed.
        if (x < s.min[j]) {
          s.min[j] = x;
        }
        if (x > s.max[j]) {
          s.max[j] = x;
        }
      }
    }
    for (int j = 0; j < d && rows > 0; j++) {
      s.mean[j] /= rows;
    }
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < d; j++) {
        double e = v[i * d + j] - s.mean[j];
        s.centredSquares[j] += e * e;
      }
    }
    return s;
  }

  /**
   * The statistics of sparse samples, one per row (two passes over the non-zeros): a feature
   * stored in m of the n rows has n − m zeros more, each adding {@code mean²} to its centred
   * sum of squares, and 0 to its range.
   */
  private static ColumnStatistics of(SparseRowMatrix rows) {
    int d = rows.numCols();
    int n = rows.numRows();
    ColumnStatistics s = new ColumnStatistics(d);
    s.count = n;
    int[] stored = new int[d];
    for (int p = 0; p < rows.numEntries(); p++) {
      int j = rows.column(p);
      double x = rows.value(p);
      stored[j]++;
      s.mean[j] += x;
      s.min[j] = Math.min(s.min[j], x);
      s.max[j] = Math.max(s.max[j], x);
    }
    for (int j = 0; j < d && n > 0; j++) {
      s.mean[j] /= n;
      if (stored[j] < n) {
        s.min[j] = Math.min(s.min[j], 0.0);
        s.max[j] = Math.max(s.max[j], 0.0);
      }
      s.centredSquares[j] = (n - stored[j]) * s.mean[j] * s.mean[j];
    }
    for (int p = 0; p < rows.numEntries(); p++) {
      double e = rows.value(p) - s.mean[rows.column(p)];
      s.centredSquares[rows.column(p)] += e * e;
    }
    return s;
  }

  /** Merges {@code b} into {@code a}, returning {@code a}. */
  public static ColumnStatistics merge(ColumnStatistics a, ColumnStatistics b) {
    long n = a.count + b.count;
    for (int j = 0; j < a.mean.length && b.count > 0; j++) {
      double delta = b.mean[j] - a.mean[j];
      a.centredSquares[j] += b.centredSquares[j]
          + delta * delta * ((double) a.count * b.count / n);
      a.mean[j] += delta * b.count / n;
      a.min[j] = Math.min(a.min[j], b.min[j]);
      a.max[j] = Math.max(a.max[j], b.max[j]);
    }
    a.count = n;
    return a;
  }

  public int numCols() {
    return mean.length;
  }

  /** The per-feature means (a copy). */
  public double[] means() {
    return mean.clone();
  }

  /**
   * The statistics of the samples with each feature's mean removed and feature j then multiplied
   * by {@code factors[j] ≥ 0} (null factors: by 1), derived from these without a pass over the
   * samples: mean 0, centred sums of squares times the factor squared, and extremes
   * {@code (x − mean) · factor}, the very values a pass would find (rounding is monotone).
   */
  public ColumnStatistics centered(double[] factors) {
    ColumnStatistics s = new ColumnStatistics(mean.length);
    s.count = count;
    for (int j = 0; j < mean.length; j++) {
      double f = factors == null ? 1 : factors[j];
      s.centredSquares[j] = centredSquares[j] * f * f;
      s.min[j] = (min[j] - mean[j]) * f;
      s.max[j] = (max[j] - mean[j]) * f;
    }
    return s;
  }

  /** {@code Σ x²} of feature j over the samples (not centred). */
  public double sumOfSquares(int j) {
    return centredSquares[j] + count * mean[j] * mean[j];
  }

  /** Population variance of feature j: {@code Σ (x − mean)² / n}. */
  public double variance(int j) {
    return centredSquares[j] / count;
  }

  /**
   * The factor each feature is multiplied by: {@code 1 / σ_j} (σ_j its standard deviation, so
   * the feature is in units of it) with {@code standardization}, else 1; 0 for a constant
   * feature, which spans no direction of the data (its centred values are rounding).
   */
  public double[] scales(boolean standardization) {
    double[] scale = new double[mean.length];
    for (int j = 0; j < scale.length; j++) {
      scale[j] = isConstant(j) ? 0 : standardization ? 1 / Math.sqrt(variance(j)) : 1;
    }
    return scale;
  }

  /**
   * The first problem of scale, naming the feature and the value, or null when every feature
   * lies in the range the methods compute in over {@code n} samples and {@code d} features:
   *
   * <ul>
   *   <li>its largest absolute value is at most {@link #largestSafeValue(long, long)}, so that
   *       Gram entries and squared distances (sums of n·d squares) and the products the
   *       eigensolvers and regressions form of them (fourth powers) stay finite;</li>
   *   <li>a non-constant feature's spread, max − min, is at least {@link #SMALLEST_SAFE_SPREAD}:
   *       below it, squared differences lie within 2⁵² of the subnormal range and lose their
   *       bits, so distances and scatters become rounding noise.</li>
   * </ul>
   */
  public String scaleProblem(long n, long d) {
    double largest = largestSafeValue(n, d);
    for (int j = 0; j < mean.length; j++) {
      double maxAbs = Math.max(Math.abs(min[j]), Math.abs(max[j]));
      if (maxAbs > largest) {
        return "feature " + j + " has the value " + (maxAbs == max[j] ? max[j] : min[j])
            + ", beyond " + String.format(Locale.ROOT, "%.3g", largest)
            + ", the largest magnitude at which Gram matrices "
            + "over " + n + " rows x " + d + " features and their products stay finite";
      }
      if (!isConstant(j) && max[j] - min[j] < SMALLEST_SAFE_SPREAD) {
        return "feature " + j + " spans only [" + min[j] + ", " + max[j] + "]: its squared "
            + "differences fall below " + String.format(Locale.ROOT, "%.3g",
                SMALLEST_SAFE_SPREAD * SMALLEST_SAFE_SPREAD) + ", where they lose their precision";
      }
    }
    return null;
  }

  /**
   * {@code MAX^{1/4} / √(n d)}, MAX the largest double: a Gram entry of values this large (n·d
   * squares) is at most √MAX, so a product of two such entries is finite.
   */
  public static double largestSafeValue(long n, long d) {
    return Math.sqrt(Math.sqrt(Double.MAX_VALUE) / ((double) n * d));
  }

  /** 2⁻⁴⁸⁵ ≈ 1.0e-146: its square is {@code Double.MIN_NORMAL / ulp(1)}, 2⁵² above subnormal. */
  public static final double SMALLEST_SAFE_SPREAD = 0x1p-485;

  /**
   * How far apart the features' scales lie: the median of the non-constant features' ranges
   * (max − min) over their 10th percentile (lower nearest rank), or 1 with fewer than two
   * non-constant features. Ranges, not standard deviations: the columns of same-unit data (the
   * pixels of an image) share a range even when their deviations differ by a factor of 20
   * (rarely lit edge pixels), while a tenth of the features on a smaller scale lowers the 10th
   * percentile.
   */
  public double rangeSpread() {
    double[] ranges = IntStream.range(0, mean.length).filter(j -> !isConstant(j))
        .mapToDouble(this::range).sorted().toArray();
    if (ranges.length < 2) {
      return 1;
    }
    return DoubleArrays.median(ranges) / ranges[(ranges.length - 1) / 10];
  }

  /** max − min of feature j. */
  public double range(int j) {
    return max[j] - min[j];
  }

  /** {@code 1 / (max − min)} of every feature, 0 for a constant one, as {@link #scales} does. */
  public double[] inverseRanges() {
    double[] scale = new double[mean.length];
    for (int j = 0; j < scale.length; j++) {
      scale[j] = isConstant(j) ? 0 : 1 / range(j);
    }
    return scale;
  }

  /** Whether every sample has the same value of feature j (its minimum equals its maximum). */
  public boolean isConstant(int j) {
    return min[j] == max[j];
  }

  /** The number of constant features. */
  public int numConstant() {
    int constant = 0;
    for (int j = 0; j < mean.length; j++) {
      if (isConstant(j)) {
        constant++;
      }
    }
    return constant;
  }
}
