package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.testing.TestData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Sparse row blocks against dense ones holding the same samples: every kernel the sparse methods
 * use gives the dense result to rounding.
 */
class RowBlockTest {

  private static final double TOL = 1e-13;

  /**
   * d × n samples, each with a few values in [-2, 2) at random features (some stored as explicit
   * zeros), a feature that is never stored and one stored in every sample.
   */
  private static DenseMatrix data(int d, int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix x = new DenseMatrix(d, n);
    for (int i = 0; i < n; i++) {
      for (int t = 0; t < 4; t++) {
        x.set(1 + rnd.nextInt(d - 2), i, 4 * rnd.nextDouble() - 2);
      }
      x.set(d - 1, i, 3 + rnd.nextDouble());
    }
    return x;
  }

  /** The samples [from, from + count) of x as a sparse block (odd rows store a zero too). */
  private static RowBlock sparse(DenseMatrix x, int from, int count) {
    int[] ptr = new int[count + 1];
    int[] c = new int[x.rows() * count];
    double[] v = new double[c.length];
    for (int i = 0; i < count; i++) {
      ptr[i + 1] = ptr[i];
      for (int j = 0; j < x.rows(); j++) {
        if (x.get(j, from + i) != 0 || (i % 2 == 1 && j == 1)) {
          c[ptr[i + 1]] = j;
          v[ptr[i + 1]++] = x.get(j, from + i);
        }
      }
    }
    return new RowBlock(from, SparseRowMatrix.fromCompressedRows(x.rows(), ptr,
        Arrays.copyOf(c, ptr[count]), Arrays.copyOf(v, ptr[count])));
  }

  private static RowBlockMatrix sparseBlocks(DenseMatrix x, int blocks) {
    List<RowBlock> out = new ArrayList<>();
    int n = x.cols();
    for (int b = 0; b < blocks; b++) {
      int from = n * b / blocks;
      out.add(sparse(x, from, n * (b + 1) / blocks - from));
    }
    return RowBlockMatrix.local(out);
  }

  @Test
  void columnStatisticsOfSparseBlocksAreThoseOfTheDenseOnes() {
    DenseMatrix x = data(30, 57, 1);
    RowBlockMatrix sparse = sparseBlocks(x, 3);
    assertTrue(sparse.isSparse());
    ColumnStatistics expected = TestData.blocks(x, 3).columnStatistics();
    ColumnStatistics actual = sparse.columnStatistics();
    // The zeros a sparse block leaves out add exactly nothing to the sums: the same bits.
    assertArrayEquals(expected.means(), actual.means());
    for (int j = 0; j < x.rows(); j++) {
      assertEquals(expected.variance(j), actual.variance(j), 0.0, "variance " + j);
      assertEquals(expected.sumOfSquares(j), actual.sumOfSquares(j), 0.0, "sum of squares " + j);
      assertEquals(expected.isConstant(j), actual.isConstant(j), "constant " + j);
    }
    assertTrue(actual.isConstant(0), "a feature never stored is the constant 0");
    assertEquals(expected.scaleProblem(57, 30), actual.scaleProblem(57, 30));
  }

  @Test
  void squaredDistancesOfSparseSamplesAreThoseOfTheDenseOnesToTheBit() {
    DenseMatrix x = data(30, 40, 5);
    RowBlock sparseA = sparse(x, 0, 25);
    RowBlock sparseB = sparse(x, 25, 15);
    RowBlock denseA = new RowBlock(0, x.columns(0, 25));
    RowBlock denseB = new RowBlock(25, x.columns(25, 15));
    for (int i = 0; i < 25; i++) {
      for (int j = 0; j < 15; j++) {
        double d2 = denseA.squaredDistance(i, denseB, j);
        assertEquals(TestData.squaredDistance(x, i, 25 + j), d2, TOL * d2, i + ", " + j);
        assertEquals(d2, sparseA.squaredDistance(i, sparseB, j), 0.0, "sparse " + i + ", " + j);
        assertEquals(d2, denseB.squaredDistance(j, denseA, i), 0.0, "swapped " + i + ", " + j);
      }
    }
  }

  @Test
  void productsOfSparseBlocksAreThoseOfTheDenseOnes() {
    DenseMatrix x = data(30, 57, 2);
    RowBlockMatrix sparse = sparseBlocks(x, 3);
    RowBlockMatrix dense = TestData.blocks(x, 3);
    TestData.assertClose(dense.gram().data(), sparse.gram().data(), TOL, "X Xᵀ");
    DenseMatrix f = TestData.uniform(4, 57, 3);
    try (Shared<DenseMatrix> shared = dense.execution().share(f)) {
      TestData.assertClose(dense.multiply(shared).data(), sparse.multiply(shared).data(), TOL,
          "X F");
    }
  }

  @Test
  void innerProductsAndNormsOfSparseRangesAreThoseOfTheDenseOnes() {
    DenseMatrix x = data(30, 40, 4);
    RowBlock sparse = sparse(x, 0, 40);
    RowBlock dense = new RowBlock(0, x);
    RowBlock queries = sparse.range(25, 15);
    assertEquals(25, queries.offset());
    TestData.assertClose(dense.range(3, 20).innerProducts(dense.range(25, 15)).data(),
        sparse.range(3, 20).innerProducts(queries).data(), TOL, "inner products");
    TestData.assertClose(dense.normsSquared(), sparse.normsSquared(), TOL, "norms");
  }

  @Test
  void stackingConvertsBetweenSparseAndDenseAndKeepsEveryValue() {
    DenseMatrix x = data(12, 20, 5);
    List<RowBlock> parts = List.of(sparse(x, 0, 7), new RowBlock(7, x.columns(7, 6)),
        sparse(x, 13, 7));
    RowBlock dense = RowBlock.stack(4, 12, parts, false);
    RowBlock sparse = RowBlock.stack(4, 12, parts, true);
    assertEquals(4, sparse.offset());
    assertTrue(sparse.isSparse());
    for (int i = 0; i < 20; i++) {
      for (int j = 0; j < 12; j++) {
        assertEquals(x.get(j, i), dense.get(i, j));
        assertEquals(x.get(j, i), sparse.get(i, j));
      }
    }
    IllegalStateException e = assertThrows(IllegalStateException.class, sparse::columns);
    assertEquals("rows [4, 24) are stored sparse; this step reads dense blocks", e.getMessage());
  }
}
