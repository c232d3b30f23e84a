package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SparseRowMatrixTest {

  static DenseMatrix sparseRandom(int rows, int cols, double density, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix a = new DenseMatrix(rows, cols);
    for (int i = 0; i < a.data().length; i++) {
      if (rnd.nextDouble() < density) {
        a.data()[i] = rnd.nextDouble() - 0.5;
      }
    }
    return a;
  }

  @Test
  void fromRowsSortsSumsRepeatsAndDropsZeros() {
    SparseRowMatrix m = SparseRowMatrix.fromRows(0, 5,
        new int[][] {{3, 1, 3}, {}, {4, 0}}, new double[][] {{1, 2, 0.5}, {}, {0, 7}});
    assertArrayEquals(new int[] {1, 3}, m.columns(0));
    assertArrayEquals(new double[] {2, 1.5}, m.values(0), 0);
    assertArrayEquals(new int[0], m.columns(1));
    assertArrayEquals(new int[] {0}, m.columns(2));
    assertEquals(3, m.numEntries());
  }

  @Test
  void fromCompressedRowsSortsEachRowKeepsZerosAndRejectsRepeats() {
    SparseRowMatrix m = SparseRowMatrix.fromCompressedRows(4, new int[] {0, 3, 3, 4},
        new int[] {3, 0, 2, 1}, new double[] {1, 0, 2, 5});
    assertArrayEquals(new int[] {0, 2, 3}, m.columns(0));
    assertArrayEquals(new double[] {0, 2, 1}, m.values(0), 0);
    assertEquals(4, m.numEntries());
    assertEquals(5.0, m.value(m.rowStart(2)));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SparseRowMatrix.fromCompressedRows(4, new int[] {0, 2}, new int[] {1, 1},
            new double[] {1, 2}));
    assertEquals("row 0: column 1 repeated", e.getMessage());
  }

  @Test
  void symmetricPartsScalingAndRowNormalizationMatchDense() {
    DenseMatrix a = sparseRandom(25, 25, 0.15, 4);
    SparseRowMatrix sa = SparseRowMatrix.fromDense(a);
    DenseMatrix at = a.transpose();
    DenseMatrix max = new DenseMatrix(25, 25);
    DenseMatrix sum = new DenseMatrix(25, 25);
    DenseMatrix scaled = new DenseMatrix(25, 25);
    double[] left = sparseRandom(1, 25, 1.0, 5).data();
    double[] right = sparseRandom(1, 25, 1.0, 6).data();
    double[] rowSums = sa.rowSums();
    DenseMatrix normalized = new DenseMatrix(25, 25);
    for (int i = 0; i < 25; i++) {
      for (int j = 0; j < 25; j++) {
        boolean either = a.get(i, j) != 0 || at.get(i, j) != 0;
        max.set(i, j, either ? Math.max(a.get(i, j) != 0 ? a.get(i, j) : Double.NEGATIVE_INFINITY,
            at.get(i, j) != 0 ? at.get(i, j) : Double.NEGATIVE_INFINITY) : 0.0);
        sum.set(i, j, a.get(i, j) + at.get(i, j));
        scaled.set(i, j, a.get(i, j) * (left[i] * right[j]));
        normalized.set(i, j, rowSums[i] > 0 ? a.get(i, j) / rowSums[i] : 0.0);
      }
    }
    assertArrayEquals(max.data(), sa.symmetrizeMax().toDense().data(), 0);
    assertArrayEquals(sum.data(), sa.plusTranspose().toDense().data(), 0);
    assertArrayEquals(scaled.data(), sa.scale(left, right).toDense().data(), 0);
    assertArrayEquals(normalized.data(), sa.rowNormalized().toDense().data(), 0);
    DenseMatrix block = sa.rows(8, 5).scale(left, right).toDense();
    for (int i = 0; i < 5; i++) {
      for (int j = 0; j < 25; j++) {
        assertEquals(scaled.get(8 + i, j), block.get(i, j), 0, "block row " + i);
      }
    }
  }

  @Test
  void transposeCombineAndMultiplyMatchDense() {
    DenseMatrix a = sparseRandom(30, 30, 0.1, 1);
    DenseMatrix b = sparseRandom(30, 30, 0.1, 2);
    SparseRowMatrix sa = SparseRowMatrix.fromDense(a);
    SparseRowMatrix sb = SparseRowMatrix.fromDense(b);
    assertArrayEquals(a.transpose().data(), sa.transpose().toDense().data(), 0);
    DenseMatrix expected = a.copy().scaleInPlace(0.5).addInPlace(2.0, b);
    assertArrayEquals(expected.data(), sa.combine(0.5, sb, 2.0).toDense().data(), 1e-15);
    DenseMatrix f = sparseRandom(4, 30, 1.0, 3);
    // Per-sample product: column i of the result is Σ_j a_ij f[:, j], i.e. (a fᵀ)ᵀ.
    DenseMatrix product = sa.multiply(f);
    assertArrayEquals(f.multiplyTranspose(a).data(), product.data(), 1e-14);
    SparseRowMatrix block = sa.rows(10, 7);
    assertEquals(10, block.firstRow());
    assertArrayEquals(product.columns(10, 7).data(), block.multiply(f).data(), 1e-14);
    assertArrayEquals(a.rowNormsSquared(), sa.rowSumsOfSquares(), 1e-15);
  }

  @Test
  void selectAndRenumberKeepEntries() {
    DenseMatrix a = sparseRandom(12, 12, 0.3, 4);
    SparseRowMatrix sa = SparseRowMatrix.fromDense(a);
    SparseRowMatrix picked = sa.select(new int[] {5, 2});
    for (int j = 0; j < 12; j++) {
      assertEquals(a.get(5, j), picked.get(0, j));
      assertEquals(a.get(2, j), picked.get(1, j));
    }
    int[] all = new int[12];
    for (int j = 0; j < 12; j++) {
      all[j] = j;
    }
    SparseRowMatrix renumbered = sa.renumberColumns(all);
    assertArrayEquals(a.data(), renumbered.toDense().data(), 0);
  }
}
