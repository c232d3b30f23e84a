package io.github.sparkufs.graph;

import static io.github.sparkufs.testing.TestData.bruteForceNearest;
import static io.github.sparkufs.testing.TestData.squaredDistance;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.SparseRowMatrix;
import io.github.sparkufs.testing.TestData;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ExactKnnTest {

  private static DenseMatrix random(int d, int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix x = new DenseMatrix(d, n);
    for (int i = 0; i < x.data().length; i++) {
      x.data()[i] = rnd.nextDouble();
    }
    return x;
  }

  @Test
  void equalsBruteForceForAnyNumberOfBlocks() {
    DenseMatrix x = random(7, 150, 1);
    int k = 6;
    for (int blocks : new int[] {1, 3, 8}) {
      Partitioned<NeighborLists> knn = ExactKnn.search(TestData.blocks(x, blocks), k);
      int i = 0;
      for (NeighborLists l : knn.collect(v -> v)) {
        for (int r = 0; r < l.numRows(); r++, i++) {
          int[] expected = bruteForceNearest(x, i, k);
          int[] got = new int[k];
          for (int q = 0; q < k; q++) {
            got[q] = l.index(r, q);
            assertEquals(squaredDistance(x, i, got[q]), l.distance(r, q), 1e-9);
          }
          assertEquals(Arrays.toString(expected), Arrays.toString(got), "row " + i);
        }
      }
      assertEquals(150, i);
    }
  }

  /**
   * Small word counts (0–3 per feature) centred and divided by their ranges, as the solvers
   * read them: many samples lie at one distance from another, and the lists must keep the same
   * ones, at the same distances, however the samples are blocked (1 block spans two tiles).
   * Before each candidate's distance was summed feature by feature, the GEMM's rounding, which
   * differs between a tile with itself and two tiles, chose among tied samples: the heat-kernel
   * graph of the word counts in selection-check differed between 1, 2 and 4 blocks.
   */
  @Test
  void tiedSamplesGiveTheSameListsInAnyBlocks() {
    SplittableRandom rnd = new SplittableRandom(5);
    DenseMatrix counts = new DenseMatrix(40, ExactKnn.TILE + 60);
    for (int i = 0; i < counts.data().length; i++) {
      counts.data()[i] = rnd.nextInt(10) < 7 ? 0 : rnd.nextInt(1, 4);
    }
    int k = 8;
    int[] indices = null;
    double[] distances = null;
    for (int blocks : new int[] {1, 2, 3, 5}) {
      RowBlockMatrix x = TestData.blocks(counts, blocks);
      x = x.centered(x.columnStatistics().inverseRanges());
      List<NeighborLists> lists = ExactKnn.search(x, k).collect(v -> v);
      int[] idx = lists.stream().flatMapToInt(l -> IntStream.range(0, l.numRows() * k)
          .map(p -> l.index(p / k, p % k))).toArray();
      double[] dist = lists.stream().flatMapToDouble(l -> IntStream.range(0, l.numRows() * k)
          .mapToDouble(p -> l.distance(p / k, p % k))).toArray();
      if (indices == null) {
        indices = idx;
        distances = dist;
        int ties = 0;
        for (int p = 1; p < dist.length; p++) {
          ties += p % k != 0 && dist[p] == dist[p - 1] ? 1 : 0;
        }
        assertTrue(ties > 100, "only " + ties + " tied neighbours: the data test nothing");
      }
      assertArrayEquals(indices, idx, blocks + " blocks: neighbours");
      assertArrayEquals(distances, dist, blocks + " blocks: distances");
    }
  }

  @Test
  void tilesLargerThanOneTileAgree() {
    DenseMatrix x = random(3, ExactKnn.TILE + 300, 2);
    List<NeighborLists> lists = ExactKnn.search(TestData.blocks(x, 1), 3).collect(v -> v);
    NeighborLists l = lists.get(0);
    for (int i : new int[] {0, 17, ExactKnn.TILE - 1, ExactKnn.TILE, ExactKnn.TILE + 299}) {
      int[] expected = bruteForceNearest(x, i, 3);
      for (int q = 0; q < 3; q++) {
        assertEquals(expected[q], l.index(i, q), "row " + i);
      }
    }
  }

  @Test
  void blocksOfSeveralTilesEqualBruteForce() {
    // Each unordered pair of blocks and of tiles is computed once and offered both ways:
    // blocks that are not multiples of a tile, and tiles split across blocks, cover every pair.
    int n = 2 * ExactKnn.TILE + 77;
    DenseMatrix x = random(4, n, 3);
    int k = 5;
    for (int blocks : new int[] {1, 2, 5}) {
      int i = 0;
      for (NeighborLists l : ExactKnn.search(TestData.blocks(x, blocks), k).collect(v -> v)) {
        for (int r = 0; r < l.numRows(); r++, i++) {
          int[] expected = bruteForceNearest(x, i, k);
          for (int q = 0; q < k; q++) {
            assertEquals(expected[q], l.index(r, q), blocks + " blocks, row " + i);
          }
        }
      }
      assertEquals(n, i);
    }
  }

  @Test
  void queriesInsideTheReferencesSkipOnlyThemselves() {
    // A query block that is part of the references at the same offset (as FSASL searches):
    // every tile pair is read one way, and only the sample itself is left out.
    int n = ExactKnn.TILE + 40;
    DenseMatrix x = random(3, n, 4);
    int rows = ExactKnn.TILE + 10;
    NeighborLists l = ExactKnn.nearest(new RowBlock(0, x.columns(0, rows)), new RowBlock(0, x), 4);
    for (int i = 0; i < rows; i++) {
      int[] expected = bruteForceNearest(x, i, 4);
      for (int q = 0; q < 4; q++) {
        assertEquals(expected[q], l.index(i, q), "row " + i);
      }
    }
  }

  @Test
  void selfTuningGraphScalesEachEdgeByBothLocalWidths() {
    DenseMatrix x = random(4, 50, 7);
    SparseRowMatrix s = HeatKernelGraph.selfTuning(TestData.blocks(x, 3), 4).weights();
    double[] local = new double[50];
    for (int i = 0; i < 50; i++) {
      int[] nn = bruteForceNearest(x, i, 4);
      local[i] = Math.sqrt(squaredDistance(x, i, nn[3]));
    }
    for (int i = 0; i < 50; i++) {
      for (int j : bruteForceNearest(x, i, 4)) {
        double expected = Math.exp(-squaredDistance(x, i, j) / (local[i] * local[j]));
        assertEquals(expected, s.get(i, j), 1e-9, "edge " + i + "-" + j);
        assertEquals(expected, s.get(j, i), 1e-9, "edge " + j + "-" + i);
      }
    }
  }

  @Test
  void heatKernelGraphIsSymmetricUnionOfNeighbourhoods() {
    DenseMatrix x = random(4, 60, 3);
    HeatKernelGraph g = HeatKernelGraph.build(TestData.blocks(x, 2), 4, 0);
    SparseRowMatrix s = g.weights();
    double sigma2 = g.sigma() * g.sigma();
    for (int row = 0; row < 60; row++) {
      int i = row;
      int[] nn = bruteForceNearest(x, i, 4);
      for (int j : nn) {
        double expected = Math.exp(-squaredDistance(x, i, j) / sigma2);
        assertEquals(expected, s.get(i, j), 1e-9, "edge " + i + "-" + j);
        assertEquals(expected, s.get(j, i), 1e-9, "edge " + j + "-" + i);
      }
      for (int j : s.columns(i)) {
        boolean either = Arrays.stream(nn).anyMatch(v -> v == j)
            || Arrays.stream(bruteForceNearest(x, j, 4)).anyMatch(v -> v == i);
        assertTrue(either, "edge " + i + "-" + j + " is in neither neighbourhood");
      }
    }
  }

  @Test
  void graphWithAtMostPiecesTakesTheFewestNeighboursThatJoinThem() {
    // 12 tight pairs along a line, the gaps between pairs growing: one neighbour each leaves 12
    // pieces, and joining them takes more neighbours.
    DenseMatrix x = new DenseMatrix(1, 24);
    double at = 0;
    for (int p = 0; p < 12; p++) {
      at += 1 + 0.3 * p;
      x.set(0, 2 * p, at);
      x.set(0, 2 * p + 1, at + 0.01);
    }
    KnnSearch exact = KnnSearch.exact();
    HeatKernelGraph same = HeatKernelGraph.withAtMostPieces(TestData.blocks(x, 2), 1, 10, 12,
        0, exact);
    assertEquals(1, same.numNeighbors());
    for (int maxPieces : new int[] {1, 3}) {
      HeatKernelGraph g = HeatKernelGraph.withAtMostPieces(TestData.blocks(x, 3), 1, 20,
          maxPieces, 0, exact);
      int k = g.numNeighbors();
      assertTrue(k > 1 && pieces(g.weights()) <= maxPieces, "k " + k);
      assertTrue(pieces(HeatKernelGraph.build(TestData.blocks(x, 3), k - 1, 0).weights())
          > maxPieces, "k " + k + " is not the fewest");
    }
  }

  private static int pieces(SparseRowMatrix g) {
    UnionFind pieces = new UnionFind(g.numRows());
    for (int i = 0; i < g.numRows(); i++) {
      for (int j : g.columns(i)) {
        pieces.union(i, j);
      }
    }
    return pieces.count();
  }

  @Test
  void rejectsTooManyNeighbours() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ExactKnn.search(TestData.blocks(random(2, 5, 4), 1), 5));
    assertTrue(e.getMessage().contains("got 5"), e.getMessage());
  }
}
