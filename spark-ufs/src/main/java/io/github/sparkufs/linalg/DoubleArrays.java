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
