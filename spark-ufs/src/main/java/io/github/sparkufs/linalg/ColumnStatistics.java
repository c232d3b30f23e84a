package io.github.sparkufs.linalg;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Per-feature count, mean, variance, minimum and maximum of the data, computed block by block
 * and merged. The sums Σx and Σx² are carried in double-double precision (each value's
 * rounding error kept in a second double: Knuth's TwoSum and an exact FMA square), so that the
 * mean and variance, rounded once from them, are the same however the samples are split into
 * blocks and in whatever order the blocks merge (unless a sum lies within about n·2⁻¹⁰⁶ of
 * itself from the midpoint of two doubles): the centred data, and the ties among distances of
 * tied samples, are then the same on the driver and in any number of partitions.
 */
public final class ColumnStatistics implements Serializable {

  private static final long serialVersionUID = 2L;

  private long count;
  private final double[] sum;
  private final double[] sumError;
  private final double[] squares;
  private final double[] squaresError;
  private final double[] min;
  private final double[] max;

  private ColumnStatistics(int d) {
    sum = new double[d];
    sumError = new double[d];
    squares = new double[d];
    squaresError = new double[d];
    min = new double[d];
    max = new double[d];
    Arrays.fill(min, Double.POSITIVE_INFINITY);
    Arrays.fill(max, Double.NEGATIVE_INFINITY);
  }

  /** The statistics of one block (one pass over its values). */
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
        s.add(j, x);
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
    return s;
  }

  /**
   * The statistics of sparse samples, one per row (one pass over the non-zeros): a feature
   * stored in m of the n rows has n − m zeros more, which add nothing to its sums and 0 to its
   * range.
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
      s.add(j, x);
      s.min[j] = Math.min(s.min[j], x);
      s.max[j] = Math.max(s.max[j], x);
    }
    for (int j = 0; j < d; j++) {
      if (stored[j] < n) {
        s.min[j] = Math.min(s.min[j], 0.0);
        s.max[j] = Math.max(s.max[j], 0.0);
      }
    }
    return s;
  }

  /** Adds x to feature j's sums: x and x² each as a rounded sum and its exact error. */
  private void add(int j, double x) {
    addTo(sum, sumError, j, x);
    double square = x * x;
    addTo(squares, squaresError, j, square);
    squaresError[j] += Math.fma(x, x, -square);
  }

  /** {@code sums[j] += x}, the rounding error of that addition added to errors[j]. */
  private static void addTo(double[] sums, double[] errors, int j, double x) {
    double s = sums[j] + x;
    errors[j] += roundingError(sums[j], x, s);
    sums[j] = s;
  }

  /** {@code a + b − s} exactly, for s the rounded {@code a + b} (Knuth's TwoSum). */
  private static double roundingError(double a, double b, double s) {
    double bPart = s - a;
    return (a - (s - bPart)) + (b - bPart);
  }

  /** Merges {@code b} into {@code a}, returning {@code a}. */
  public static ColumnStatistics merge(ColumnStatistics a, ColumnStatistics b) {
    for (int j = 0; j < a.sum.length; j++) {
      addTo(a.sum, a.sumError, j, b.sum[j]);
      a.sumError[j] += b.sumError[j];
      addTo(a.squares, a.squaresError, j, b.squares[j]);
      a.squaresError[j] += b.squaresError[j];
      a.min[j] = Math.min(a.min[j], b.min[j]);
      a.max[j] = Math.max(a.max[j], b.max[j]);
    }
    a.count += b.count;
    return a;
  }

  public int numCols() {
    return sum.length;
  }

  /** The per-feature means, Σx rounded once and divided by the count. */
  public double[] means() {
    double[] mean = new double[sum.length];
    for (int j = 0; j < sum.length && count > 0; j++) {
      mean[j] = (sum[j] + sumError[j]) / count;
    }
    return mean;
  }

  /**
   * {@code Σ (x − mean)²} of feature j: {@code Σx² − (Σx)² / n} in double-double arithmetic,
   * rounded once (0 for a constant feature).
   */
  private double centredSquares(int j) {
    if (count == 0 || isConstant(j)) {
      return 0;
    }
    double hi = sum[j] + sumError[j];
    double lo = roundingError(sum[j], sumError[j], hi);
    // (hi + lo)² / n as q + qError: the square's exact product error, then the division's.
    double square = hi * hi;
    double squareError = Math.fma(hi, hi, -square) + 2 * hi * lo;
    double q = square / count;
    double qError = (Math.fma(-q, count, square) + squareError) / count;
    double difference = squares[j] - q;
    double differenceError = roundingError(squares[j], -q, difference);
    return Math.max(0, difference + (differenceError + squaresError[j] - qError));
  }

  /**
   * The statistics of the samples with each feature's mean removed and feature j then multiplied
   * by {@code factors[j] ≥ 0} (null factors: by 1), derived from these without a pass over the
   * samples: mean 0, centred sums of squares times the factor squared, and extremes
   * {@code (x − mean) · factor}, the very values a pass would find (rounding is monotone).
   */
  public ColumnStatistics centered(double[] factors) {
    ColumnStatistics s = new ColumnStatistics(sum.length);
    s.count = count;
    double[] mean = means();
    for (int j = 0; j < sum.length; j++) {
      double f = factors == null ? 1 : factors[j];
      s.squares[j] = centredSquares(j) * f * f;
      s.min[j] = (min[j] - mean[j]) * f;
      s.max[j] = (max[j] - mean[j]) * f;
    }
    return s;
  }

  /** {@code Σ x²} of feature j over the samples (not centred). */
  public double sumOfSquares(int j) {
    return squares[j] + squaresError[j];
  }

  /** Population variance of feature j: {@code Σ (x − mean)² / n}. */
  public double variance(int j) {
    return centredSquares(j) / count;
  }

  /**
   * The factor each feature is multiplied by: {@code 1 / σ_j} (σ_j its standard deviation, so
   * the feature is in units of it) with {@code standardization}, else 1; 0 for a constant
   * feature, which spans no direction of the data (its centred values are rounding).
   */
  public double[] scales(boolean standardization) {
    double[] scale = new double[sum.length];
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
    for (int j = 0; j < sum.length; j++) {
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
    double[] ranges = IntStream.range(0, sum.length).filter(j -> !isConstant(j))
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
    double[] scale = new double[sum.length];
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
    for (int j = 0; j < sum.length; j++) {
      if (isConstant(j)) {
        constant++;
      }
    }
    return constant;
  }
}
