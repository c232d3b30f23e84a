package io.github.sparkufs.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlock;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KdTreeTest {

  /** Uniform coordinates in [0, 1). */
  private static DenseMatrix uniform(int d, int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix x = new DenseMatrix(d, n);
    for (int i = 0; i < x.data().length; i++) {
      x.data()[i] = rnd.nextDouble();
    }
    return x;
  }

  /**
   * Coordinates in {0, 1, 2, 3} with every third sample a copy of an earlier one: many samples
   * at exactly equal distances, all of them computed exactly by both searches.
   */
  private static DenseMatrix ties(int d, int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix x = new DenseMatrix(d, n);
    for (int i = 0; i < n; i++) {
      int source = i % 3 == 2 ? rnd.nextInt(i) : i;
      for (int t = 0; t < d; t++) {
        x.set(t, i, source == i ? rnd.nextInt(4) : x.get(t, source));
      }
    }
    return x;
  }

  /** The tree's and ExactKnn's lists: same indices, distances to {@code tol} (relative). */
  private static void assertSameNeighbours(DenseMatrix x, int offset, int count, int k,
      double tol) {
    RowBlock refs = new RowBlock(0, x);
    RowBlock queries = new RowBlock(offset, x.columns(offset, count));
    NeighborLists expected = ExactKnn.nearest(queries, refs, k);
    NeighborLists got = new KdTree(refs).nearest(queries, k);
    assertEquals(offset, got.offset());
    assertEquals(count, got.numRows());
    assertEquals(k, got.k());
    for (int i = 0; i < count; i++) {
      for (int r = 0; r < k; r++) {
        String where = "d = " + x.rows() + ", n = " + x.cols() + ", k = " + k + ", sample "
            + (offset + i) + ", neighbour " + r;
        assertEquals(expected.index(i, r), got.index(i, r), where);
        assertEquals(expected.distance(i, r), got.distance(i, r),
            tol * Math.max(1, expected.distance(i, r)), where);
      }
    }
  }

  @Test
  void findsTheExactNeighboursInOneToEightDimensions() {
    for (int d = 1; d <= 8; d++) {
      DenseMatrix x = uniform(d, 700, d);
      for (int k : new int[] {1, 5, 50}) {
        assertSameNeighbours(x, 0, 700, k, 1e-12);
      }
    }
  }

  @Test
  void breaksTiesAndDuplicatesTowardsTheLowerIndex() {
    for (int d = 1; d <= 8; d++) {
      DenseMatrix x = ties(d, 500, 10 + d);
      for (int k : new int[] {1, 3, 20, 120}) {
        assertSameNeighbours(x, 0, 500, k, 0.0);
      }
    }
  }

  @Test
  void ranksAllOtherSamplesWhenKIsNMinusOne() {
    assertSameNeighbours(uniform(3, 90, 21), 0, 90, 89, 1e-12);
    assertSameNeighbours(ties(2, 90, 22), 0, 90, 89, 0.0);
  }

  @Test
  void queriesFromABlockExcludeOnlyThemselves() {
    DenseMatrix x = ties(3, 400, 31);
    assertSameNeighbours(x, 137, 60, 7, 0.0);
    assertSameNeighbours(uniform(5, 400, 32), 340, 60, 7, 1e-12);
  }

  @Test
  void leavesOfIdenticalSamplesAndTinyTrees() {
    DenseMatrix same = new DenseMatrix(2, 3 * KdTree.LEAF_SIZE);
    for (int i = 0; i < same.cols(); i++) {
      same.set(0, i, 1.5);
      same.set(1, i, i < KdTree.LEAF_SIZE ? -2.0 : 0.5);
    }
    assertSameNeighbours(same, 0, same.cols(), 2 * KdTree.LEAF_SIZE, 0.0);
    assertSameNeighbours(uniform(4, 2, 41), 0, 2, 1, 1e-12);
    // k = n: the last entry has no sample to hold, as in ExactKnn.
    NeighborLists one = new KdTree(new RowBlock(0, uniform(4, 3, 42)))
        .nearest(new RowBlock(1, uniform(4, 3, 42).columns(1, 1)), 3);
    assertEquals(Integer.MAX_VALUE, one.index(0, 2));
    assertEquals(Double.POSITIVE_INFINITY, one.distance(0, 2));
  }

  @Test
  void rejectsBadQueries() {
    KdTree tree = new KdTree(new RowBlock(0, uniform(3, 10, 51)));
    RowBlock queries = new RowBlock(0, uniform(3, 4, 52));
    IllegalArgumentException k = assertThrows(IllegalArgumentException.class,
        () -> tree.nearest(queries, 11));
    assertTrue(k.getMessage().contains("got 11"), k.getMessage());
    assertThrows(IllegalArgumentException.class, () -> tree.nearest(queries, 0));
    IllegalArgumentException dim = assertThrows(IllegalArgumentException.class,
        () -> tree.nearest(new RowBlock(0, uniform(2, 4, 53)), 3));
    assertTrue(dim.getMessage().contains("dimension 2"), dim.getMessage());
  }
}
