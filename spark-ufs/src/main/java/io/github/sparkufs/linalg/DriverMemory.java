package io.github.sparkufs.linalg;

import java.util.Locale;

/**
 * Announces a large allocation before it is made: a dense matrix of doubles the driver is about
 * to hold is checked against the largest Java array and against the heap the driver has free
 * ({@code Runtime.maxMemory()} less what is in use), and refused with a message that gives its
 * size, the bytes it needs and the ways out, instead of an {@code OutOfMemoryError} (or an
 * integer overflow) in the middle of a fit.
 */
public final class DriverMemory {

  /** The most values a Java array holds (a few below {@code Integer.MAX_VALUE}, as the JDK's). */
  public static final long MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

  /** The free heap the checks assume, when set (≥ 0): tests stand in a small driver with it. */
  static volatile long freeBytesForTests = -1;

  private DriverMemory() {}

  /**
   * A dense {@code rows × cols} matrix of doubles the driver will hold, named as the messages
   * name it: declared next to the allocation, so that the input reader can check it once the
   * input's shape is known, before the input is densified, with the message the allocation's
   * own check gives.
   */
  public record Need(String what, long rows, long cols) {

    /** Fails unless the driver can allocate this matrix: see {@link DriverMemory#require}. */
    public void require() {
      DriverMemory.require(what, rows, cols);
    }
  }

  /**
   * Fails unless the driver can allocate a dense {@code rows × cols} matrix of doubles.
   *
   * @param what the matrix, as the message names it (e.g. "the d x d Gram matrix X Xᵀ")
   */
  public static void require(String what, long rows, long cols) {
    long free = freeBytes();
    long values = checkedLength(what, rows, cols);
    if (values > free / Double.BYTES) {
      throw new IllegalArgumentException(what + ": a dense " + rows + " x " + cols
          + " matrix of doubles needs " + bytes((double) values * Double.BYTES)
          + ", but the driver has " + bytes(free) + " of heap free. " + WAYS_OUT);
    }
  }

  /**
   * The length of an array of {@code rows × cols} values, or an {@link IllegalArgumentException}
   * when it passes {@link #MAX_ARRAY_LENGTH} (2³¹ values are 16 GB of doubles: no single
   * matrix of this library can be that large, however much memory the JVM has).
   */
  public static int checkedLength(String what, long rows, long cols) {
    if (rows < 0 || cols < 0) {
      throw new IllegalArgumentException(what + ": negative size " + rows + " x " + cols);
    }
    if (rows != 0 && cols > MAX_ARRAY_LENGTH / rows) {
      throw new IllegalArgumentException(what + ": " + rows + " x " + cols + " values pass the "
          + MAX_ARRAY_LENGTH + " a Java array can hold; as doubles they need "
          + bytes((double) rows * cols * Double.BYTES) + ". " + WAYS_OUT);
    }
    return (int) (rows * cols);
  }

  private static final String WAYS_OUT = "Ways out: raise spark.driver.memory; keep fewer "
      + "features with a MaxVarianceSelector ahead of this selector in a Pipeline (or fewer rows, "
      + "for an n x n matrix); or use a method that keeps no d x d or n x n matrix on the driver "
      + "(maxvar, lapscore, spec)";

  private static long freeBytes() {
    if (freeBytesForTests >= 0) {
      return freeBytesForTests;
    }
    Runtime r = Runtime.getRuntime();
    return r.maxMemory() - (r.totalMemory() - r.freeMemory());
  }

  /** A byte count as, e.g., "3.2 GB (3200000000 bytes)". */
  private static String bytes(double b) {
    return String.format(Locale.ROOT, "%.1f %s (%.0f bytes)", b >= 1e9 ? b / 1e9 : b / 1e6,
        b >= 1e9 ? "GB" : "MB", b);
  }
}
