package io.github.sparkufs.linalg;

import java.util.Arrays;

/** Small helpers on {@code double[]} vectors. */
public final class DoubleArrays {

  private DoubleArrays() {}

  /** {@code a += b}, returning {@code a}: the merge step of sums over blocks. */
  public static double[] accumulate(double[] a, double[] b) {
    if (a.length != b.length) {
      throw new IllegalArgumentException("lengths differ: " + a.length + " and " + b.length);
    }
    for (int i = 0; i < a.length; i++) {
      a[i] += b[i];
    }
    return a;
  }

  /**
   * {@code Σ (a_f − b_f)²} over {@code length} features from {@code a[aFrom]} and
   * {@code b[bFrom]}, summed in index order with one accumulator: the same bits for the same two
   * vectors wherever they are stored, and either way round. The direct sums by which the
   * GEMM-screened searches (k-means' assignment, the exact kNN search) measure their candidates.
   */
  public static double squaredDistance(double[] a, int aFrom, double[] b, int bFrom,
      int length) {
    double s = 0;
    for (int f = 0; f < length; f++) {
      double diff = a[aFrom + f] - b[bFrom + f];
      s += diff * diff;
    }
    return s;
  }

  /**
   * The relative margin of a squared-distance screen in dimension d, as a multiple of
   * {@code ||x||² + ||y||²} (k-means: {@code ||x||² + max_c ||c||²}): {@code 8 (d + 4) u} with
   * u = 2⁻⁵³ the unit roundoff. A dot product of length d summed in any order (blocked, with or
   * without fused multiply-adds) is within γ_d·||x||·||y|| of the exact one (γ_d ≈ d·u; Higham,
   * Accuracy and Stability of Numerical Algorithms, 2002, §3.1), so a screened
   * {@code ||x||² + ||y||² − 2xᵀy} and the direct sum {@link #squaredDistance} are each within
   * about {@code 2 (d + 3) u (||x||² + ||y||²)} of the exact distance. A candidate screened more
   * than the margin beyond the best one (k-means' assignment, four such errors) or beyond a
   * direct sum (k-means' seeding and the exact kNN search, two) cannot win by its direct sum.
   */
  public static double distanceScreenMargin(int d) {
    return 8.0 * (d + 4) * 0x1p-53;
  }

  public static double sum(double[] a) {
    double s = 0;
    for (double v : a) {
      s += v;
    }
    return s;
  }

  /** The median (the mean of the middle two when the length is even); {@code a} is unchanged. */
  public static double median(double[] a) {
    if (a.length == 0) {
      throw new IllegalArgumentException("the median of no values");
    }
    double[] sorted = a.clone();
    Arrays.sort(sorted);
    int h = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
  }

  /** Element-wise square root. */
  public static double[] sqrt(double[] a) {
    double[] out = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = Math.sqrt(a[i]);
    }
    return out;
  }
}
