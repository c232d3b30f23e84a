package io.github.sparkufs.solver;

import java.io.Serializable;

/**
 * The valid values of a numeric {@link ParamSpec}: an interval of finite numbers, optionally with
 * one extra value outside it (as {@code checkpointInterval}'s -1 for "never").
 */
public final class Range implements Serializable {

  private static final long serialVersionUID = 1L;

  private final double lower;
  private final boolean lowerClosed;
  private final double upper;
  private final boolean upperClosed;
  private final Double extra;

  private Range(double lower, boolean lowerClosed, double upper, boolean upperClosed,
      Double extra) {
    this.lower = lower;
    this.lowerClosed = lowerClosed;
    this.upper = upper;
    this.upperClosed = upperClosed;
    this.extra = extra;
  }

  /** Every finite value. */
  public static Range finite() {
    return new Range(Double.NEGATIVE_INFINITY, false, Double.POSITIVE_INFINITY, false, null);
  }

  /** {@code [lower, ∞)}. */
  public static Range atLeast(double lower) {
    return new Range(lower, true, Double.POSITIVE_INFINITY, false, null);
  }

  /** {@code (lower, ∞)}. */
  public static Range greaterThan(double lower) {
    return new Range(lower, false, Double.POSITIVE_INFINITY, false, null);
  }

  /** {@code [lower, upper]}. */
  public static Range closed(double lower, double upper) {
    return new Range(lower, true, upper, true, null);
  }

  /** {@code (lower, upper]}. */
  public static Range openClosed(double lower, double upper) {
    return new Range(lower, false, upper, true, null);
  }

  /** {@code (lower, upper)}. */
  public static Range open(double lower, double upper) {
    return new Range(lower, false, upper, false, null);
  }

  /** This range and the single value {@code value}. */
  public Range or(double value) {
    return new Range(lower, lowerClosed, upper, upperClosed, value);
  }

  /** Whether {@code value} is finite and in this range. */
  public boolean contains(double value) {
    if (extra != null && value == extra) {
      return true;
    }
    return Double.isFinite(value)
        && (lowerClosed ? value >= lower : value > lower)
        && (upperClosed ? value <= upper : value < upper);
  }

  /** E.g. {@code > 0}, {@code in [0, 1]}, {@code -1 or >= 1}, {@code finite}. */
  @Override
  public String toString() {
    String interval;
    if (lower == Double.NEGATIVE_INFINITY) {
      interval = "finite";
    } else if (upper == Double.POSITIVE_INFINITY) {
      interval = (lowerClosed ? ">= " : "> ") + number(lower);
    } else {
      interval = (lowerClosed ? "in [" : "in (") + number(lower) + ", " + number(upper)
          + (upperClosed ? "]" : ")");
    }
    return extra == null ? interval : number(extra) + " or " + interval;
  }

  private static String number(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
