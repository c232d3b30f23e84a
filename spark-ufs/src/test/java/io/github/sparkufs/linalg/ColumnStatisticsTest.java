package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkufs.testing.TestData;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The column statistics do not depend on how the samples are split into blocks, nor on the order
 * the blocks merge in: the centred data, and with it every distance and tie the graph methods
 * read, are then the same on the driver and in any number of partitions.
 */
class ColumnStatisticsTest {

  /**
   * Features whose sums lose bits in plain double arithmetic: an offset of 10⁶ beside unit
   * noise, values spread over eight orders of magnitude, and small integer counts.
   */
  private static DenseMatrix awkward(int n) {
    SplittableRandom rnd = new SplittableRandom(17);
    DenseMatrix x = new DenseMatrix(4, n);
    for (int i = 0; i < n; i++) {
      x.set(0, i, 1e6 + rnd.nextGaussian());
      x.set(1, i, Math.pow(10, rnd.nextDouble(-4, 4)));
      x.set(2, i, rnd.nextInt(5));
      x.set(3, i, rnd.nextGaussian() * 1e-3);
    }
    return x;
  }

  private static ColumnStatistics merged(DenseMatrix x, int blocks, boolean reversed) {
    List<RowBlock> parts = new ArrayList<>(TestData.blocks(x, blocks).blocks().collect(b -> b));
    if (reversed) {
      Collections.reverse(parts);
    }
    ColumnStatistics s = ColumnStatistics.of(parts.get(0));
    for (RowBlock b : parts.subList(1, parts.size())) {
      s = ColumnStatistics.merge(s, ColumnStatistics.of(b));
    }
    return s;
  }

  @Test
  void meansAndVariancesAreTheSameBitsInAnyBlocksAndOrder() {
    DenseMatrix x = awkward(1001);
    ColumnStatistics one = merged(x, 1, false);
    for (int blocks = 2; blocks <= 7; blocks++) {
      for (boolean reversed : new boolean[] {false, true}) {
        ColumnStatistics s = merged(x, blocks, reversed);
        String what = blocks + " blocks" + (reversed ? ", merged last first" : "");
        assertArrayEquals(one.means(), s.means(), what + ": means");
        for (int j = 0; j < x.rows(); j++) {
          assertEquals(one.variance(j), s.variance(j), 0.0, what + ": variance of " + j);
        }
      }
    }
  }

  @Test
  void meanIsTheRoundedExactSumOverTheCountAndVarianceIsExactToRounding() {
    DenseMatrix x = awkward(1001);
    ColumnStatistics s = merged(x, 5, false);
    MathContext exact = MathContext.UNLIMITED;
    for (int j = 0; j < x.rows(); j++) {
      BigDecimal sum = BigDecimal.ZERO;
      for (int i = 0; i < x.cols(); i++) {
        sum = sum.add(new BigDecimal(x.get(j, i)), exact);
      }
      assertEquals(sum.doubleValue() / x.cols(), s.means()[j], 0.0, "mean of " + j);
      BigDecimal mean = sum.divide(BigDecimal.valueOf(x.cols()), MathContext.DECIMAL128);
      BigDecimal squares = BigDecimal.ZERO;
      for (int i = 0; i < x.cols(); i++) {
        BigDecimal e = new BigDecimal(x.get(j, i)).subtract(mean);
        squares = squares.add(e.multiply(e));
      }
      double variance = squares.doubleValue() / x.cols();
      assertEquals(variance, s.variance(j), 4 * Math.ulp(variance), "variance of " + j);
    }
  }
}
