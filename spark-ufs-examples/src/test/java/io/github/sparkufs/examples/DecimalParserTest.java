package io.github.sparkufs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link DecimalParser} gives Double.parseDouble's double, bit for bit, or its exception. */
class DecimalParserTest {

  @ParameterizedTest
  @ValueSource(strings = {"0", "-0", "+0", "0.0", "-0.0", "00000", ".5", "5.", "-.5", "+5.",
      "1", "-1", "0.1", "0.2", "0.3", "0.01568627450980392", "0.015931372549019607",
      "9007199254740992", "9007199254740993", "9007199254740991", "-9007199254740992",
      "900719925474099.2", "0.9007199254740993", "123456789012345678", "1234567890123456789",
      "12345678901234567890123", "1e22", "1e23", "1e-22", "1e-23", "9e22", "1.5e-3", "1.5E+3",
      "2.5e0", "1e0000", "1e00022", "1e-0023", "0e999999", "1e400", "1e-400", "4.9e-324",
      "2.2250738585072014E-308", "1.7976931348623157E308", "1.7976931348623159E308",
      "0.000000000000000000000000001", "100000000000000000000000", "3.14159265358979323846",
      "NaN", "-NaN", "Infinity", "-Infinity", "+Infinity", "0x1p3", "0x1.8p-1", "1d", "1f",
      "1.5D", " 1", "1 ", "\t2.5", "", ".", "-", "+", "e5", ".e5", "1e", "1e+", "1e-", "1.2.3",
      "1e5.5", "--1", "+-1", "1,5", "1:2", "١", "0.5e", "12e3x"})
  void agreesWithParseDoubleOnEdgeCases(String text) {
    assertSame(text);
  }

  @Test
  void agreesWithParseDoubleOnRandomDoublesAsJavaWritesThem() {
    SplittableRandom random = new SplittableRandom(20261127);
    for (int i = 0; i < 200_000; i++) {
      double value = switch (i % 4) {
        case 0 -> random.nextDouble();
        case 1 -> Double.longBitsToDouble(random.nextLong());
        case 2 -> (random.nextInt(2_000_001) - 1_000_000) / 255.0;
        default -> random.nextDouble() * Math.pow(10, random.nextInt(-30, 31));
      };
      assertSame(Double.toString(value));
    }
  }

  @Test
  void agreesWithParseDoubleOnRandomDecimalStrings() {
    SplittableRandom random = new SplittableRandom(24);
    for (int i = 0; i < 200_000; i++) {
      assertSame(randomDecimal(random));
    }
  }

  @Test
  void takesOnlyItsPartOfTheString() {
    List<String> parts = List.of("0.25", "-1e-3", "17", "x", "9007199254740993", "1e23", "NaN",
        "");
    for (String part : parts) {
      String line = "12:" + part + " 3:4";
      int from = 3;
      int to = from + part.length();
      assertEquals(outcome(() -> Double.parseDouble(part)),
          outcome(() -> DecimalParser.parse(line, from, to)), part);
    }
  }

  /**
   * Signs, leading zeros, 1-25 digits with or without a point anywhere, exponents of 1-3
   * digits with or without a sign, and now and then a character out of place.
   */
  private static String randomDecimal(SplittableRandom random) {
    StringBuilder sb = new StringBuilder();
    int sign = random.nextInt(4);
    sb.append(sign == 0 ? "-" : sign == 1 ? "+" : "");
    sb.append("0".repeat(random.nextInt(4) == 0 ? random.nextInt(1, 5) : 0));
    int digits = random.nextInt(26);
    int point = random.nextInt(3) == 0 ? -1 : random.nextInt(digits + 1);
    for (int k = 0; k < digits; k++) {
      if (k == point) {
        sb.append('.');
      }
      sb.append((char) ('0' + random.nextInt(10)));
    }
    if (point == digits) {
      sb.append('.');
    }
    if (random.nextInt(3) == 0) {
      sb.append(random.nextBoolean() ? 'e' : 'E');
      int expSign = random.nextInt(3);
      sb.append(expSign == 0 ? "-" : expSign == 1 ? "+" : "");
      sb.append(random.nextInt(random.nextBoolean() ? 30 : 400));
    }
    if (random.nextInt(50) == 0) {
      sb.insert(random.nextInt(sb.length() + 1), "x.e-+ ".charAt(random.nextInt(6)));
    }
    return sb.toString();
  }

  private static void assertSame(String text) {
    assertEquals(outcome(() -> Double.parseDouble(text)),
        outcome(() -> DecimalParser.parse(text, 0, text.length())), "'" + text + "'");
  }

  /** The double's bits, or the exception's class and message. */
  private static String outcome(DoubleSupplier parse) {
    try {
      return Long.toHexString(Double.doubleToRawLongBits(parse.getAsDouble()));
    } catch (RuntimeException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }
}
