package io.github.sparkufs.examples;

/**
 * Reads a double from part of a string exactly as {@link Double#parseDouble} does, without
 * copying the part out first. Plain decimal numbers ({@code [+-]digits[.digits][(e|E)[+-]digits]})
 * whose significant digits form an integer m ≤ 2<sup>53</sup> and whose power of ten 10<sup>q</sup>
 * has |q| ≤ 22 take Clinger's fast path (W. D. Clinger, "How to read floating point numbers
 * accurately", PLDI 1990): m and 10<sup>|q|</sup> are both exact doubles, so the one
 * multiplication or division m · 10<sup>q</sup> is the correctly rounded value, the same double
 * {@code Double.parseDouble} gives. Anything else (more digits, larger exponents, NaN,
 * Infinity, hexadecimal, type suffixes, surrounding blanks, mistakes) goes to
 * {@code Double.parseDouble}, which also throws its {@link NumberFormatException}.
 */
final class DecimalParser {

  /** The largest m of the fast path: every integer up to 2^53 is an exact double. */
  private static final long EXACT_INTEGERS = 1L << 53;
  /** Up to 10^22 every power of ten is an exact double (5^22 < 2^53). */
  private static final double[] EXACT_POWERS_OF_TEN = {
      1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  private static final int MAX_EXACT_POWER = EXACT_POWERS_OF_TEN.length - 1;
  /** Significant digits that always fit a long (10^18 < 2^63). */
  private static final int LONG_DIGITS = 18;
  /** Exponent digits read before giving the string to Double.parseDouble. */
  private static final int EXPONENT_DIGITS = 4;

  private DecimalParser() {}

  /**
   * {@code Double.parseDouble(text.substring(from, to))}, without the substring when the
   * number takes the fast path.
   *
   * @throws NumberFormatException as {@code Double.parseDouble} throws it
   */
  static double parse(String text, int from, int to) {
    int i = from;
    boolean negative = false;
    if (i < to && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
      negative = text.charAt(i) == '-';
      i++;
    }
    long significand = 0;
    int significantDigits = 0;
    int digits = 0;
    int fractionDigits = 0;
    boolean point = false;
    for (; i < to; i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        digits++;
        if (point) {
          fractionDigits++;
        }
        if (significand > 0 || c != '0') {
          if (++significantDigits > LONG_DIGITS) {
            return Double.parseDouble(text.substring(from, to));
          }
          significand = 10 * significand + (c - '0');
        }
      } else if (c == '.' && !point) {
        point = true;
      } else {
        break;
      }
    }
    int exponent = 0;
    if (i < to && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
      i++;
      boolean negativeExponent = false;
      if (i < to && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
        negativeExponent = text.charAt(i) == '-';
        i++;
      }
      int start = i;
      for (; i < to && text.charAt(i) >= '0' && text.charAt(i) <= '9'; i++) {
        if (i - start == EXPONENT_DIGITS) {
          return Double.parseDouble(text.substring(from, to));
        }
        exponent = 10 * exponent + (text.charAt(i) - '0');
      }
      if (i == start) {
        return Double.parseDouble(text.substring(from, to));
      }
      exponent = negativeExponent ? -exponent : exponent;
    }
    int powerOfTen = exponent - fractionDigits;
    if (i != to || digits == 0 || significand > EXACT_INTEGERS
        || Math.abs(powerOfTen) > MAX_EXACT_POWER) {
      return Double.parseDouble(text.substring(from, to));
    }
    double value = powerOfTen >= 0 ? significand * EXACT_POWERS_OF_TEN[powerOfTen]
        : significand / EXACT_POWERS_OF_TEN[-powerOfTen];
    return negative ? -value : value;
  }
}
