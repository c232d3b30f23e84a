package io.github.sparkufs.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.testing.TestData;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RandomProjectionKnnTest {

  private static final int N = 5000;
  private static final int D = 20;
  private static final int K = 10;

  private static DenseMatrix x;
  private static int[] exact;

  @BeforeAll
  static void data() {
    PlantedClusters planted = new PlantedClusters(D, 5, 4, 2.0, 11);
    x = new DenseMatrix(D, N);
    for (int i = 0; i < N; i++) {
      System.arraycopy(planted.sample(i), 0, x.data(), i * D, D);
    }
    exact = indices(KnnSearch.exact().searchAll(TestData.blocks(x, 1), K));
  }

  @Test
  void findsNineTenthsOfTheExactNeighbours() {
    int[] found = indices(RandomProjectionKnn.withDefaults(3).searchAll(TestData.blocks(x, 2), K));
    double recall = recall(exact, found);
    assertTrue(recall >= 0.9, "recall " + recall);
  }

  @Test
  void refinementImprovesOnTheForestAlone() {
    double forest = recall(exact, indices(new RandomProjectionKnn(3, 4, 64, 0)
        .searchAll(TestData.blocks(x, 2), K)));
    double refined = recall(exact, indices(new RandomProjectionKnn(3, 4, 64, 2)
        .searchAll(TestData.blocks(x, 2), K)));
    assertTrue(refined > forest + 0.1, "forest " + forest + ", refined " + refined);
  }

  @Test
  void listsHoldKOtherSamplesSortedByTheirTrueDistance() {
    List<NeighborLists> lists = new RandomProjectionKnn(5, 2, 32, 1)
        .searchAll(TestData.blocks(x, 3), K);
    int row = 0;
    for (NeighborLists l : lists) {
      assertEquals(K, l.k());
      for (int i = 0; i < l.numRows(); i++, row++) {
        for (int r = 0; r < K; r++) {
          int j = l.index(i, r);
          assertTrue(j >= 0 && j < N && j != row, "row " + row + " neighbour " + j);
          assertEquals(squaredDistance(row, j), l.distance(i, r), 1e-9 * (1 + l.distance(i, r)));
          for (int s = 0; s < r; s++) {
            assertNotEquals(l.index(i, s), j, "row " + row + " lists " + j + " twice");
          }
          if (r > 0) {
            assertTrue(l.distance(i, r - 1) <= l.distance(i, r), "row " + row + " unsorted");
          }
        }
      }
    }
    assertEquals(N, row);
  }

  @Test
  void sameSeedSameListsForAnyNumberOfBlocks() {
    RandomProjectionKnn search = RandomProjectionKnn.withDefaults(7);
    int[] one = indices(search.searchAll(TestData.blocks(x, 1), K));
    assertArrayEquals(one, indices(search.searchAll(TestData.blocks(x, 1), K)));
    assertArrayEquals(one, indices(search.searchAll(TestData.blocks(x, 4), K)));
    assertArrayEquals(one,
        indices(RandomProjectionKnn.withDefaults(7).searchAll(TestData.blocks(x, 7), K)));
  }

  @Test
  void anotherSeedGivesOtherTrees() {
    int[] a = indices(new RandomProjectionKnn(1, 1, 64, 0).searchAll(TestData.blocks(x, 1), K));
    int[] b = indices(new RandomProjectionKnn(2, 1, 64, 0).searchAll(TestData.blocks(x, 1), K));
    assertNotEquals(Arrays.toString(a), Arrays.toString(b));
  }

  @Test
  void autoIsExactBelowTheThreshold() {
    DenseMatrix small = x.columns(0, 300);
    assertArrayEquals(indices(KnnSearch.exact().searchAll(TestData.blocks(small, 1), K)),
        indices(KnnSearch.of(KnnSearch.AUTO, 1).searchAll(TestData.blocks(small, 2), K)));
    assertTrue(300 < KnnSearch.AUTO_APPROXIMATE_ROWS);
  }

  @Test
  void tinyDataStillGetsFullLists() {
    DenseMatrix tiny = x.columns(0, 12);
    List<NeighborLists> lists = new RandomProjectionKnn(1, 3, 2, 1)
        .searchAll(TestData.blocks(tiny, 2), 11);
    int[] found = indices(lists);
    assertArrayEquals(indices(KnnSearch.exact().searchAll(TestData.blocks(tiny, 1), 11)), found);
  }

  @Test
  void rejectsBadSettingsNamingTheValue() {
    IllegalArgumentException trees = assertThrows(IllegalArgumentException.class,
        () -> new RandomProjectionKnn(1, 0, 64, 1));
    assertTrue(trees.getMessage().contains("numTrees must be >= 1, got 0"), trees.getMessage());
    IllegalArgumentException leaf = assertThrows(IllegalArgumentException.class,
        () -> new RandomProjectionKnn(1, 2, 1, 1));
    assertTrue(leaf.getMessage().contains("got 1"), leaf.getMessage());
    IllegalArgumentException rounds = assertThrows(IllegalArgumentException.class,
        () -> new RandomProjectionKnn(1, 2, 8, -1));
    assertTrue(rounds.getMessage().contains("got -1"), rounds.getMessage());
    IllegalArgumentException k = assertThrows(IllegalArgumentException.class,
        () -> RandomProjectionKnn.withDefaults(1).search(TestData.blocks(x.columns(0, 5), 1), 5));
    assertTrue(k.getMessage().contains("got 5"), k.getMessage());
    IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
        () -> KnnSearch.of("fast", 1));
    assertTrue(name.getMessage().contains("got fast"), name.getMessage());
    IllegalArgumentException option = assertThrows(IllegalArgumentException.class,
        () -> new CommonOptions(2, 5, 10, 0, 1, "fast"));
    assertTrue(option.getMessage().contains("knnAlgorithm") && option.getMessage().contains("got fast"),
        option.getMessage());
  }

  private static int[] indices(List<NeighborLists> lists) {
    int n = 0;
    for (NeighborLists l : lists) {
      n += l.numRows();
    }
    int k = lists.get(0).k();
    int[] out = new int[n * k];
    for (NeighborLists l : lists) {
      for (int i = 0; i < l.numRows(); i++) {
        for (int r = 0; r < k; r++) {
          out[(l.offset() + i) * k + r] = l.index(i, r);
        }
      }
    }
    return out;
  }

  /** The share of the exact lists' entries that the found lists (same k) also hold. */
  private static double recall(int[] exact, int[] found) {
    long hits = 0;
    for (int row = 0; row < exact.length / K; row++) {
      for (int r = 0; r < K; r++) {
        for (int s = 0; s < K; s++) {
          if (found[row * K + s] == exact[row * K + r]) {
            hits++;
            break;
          }
        }
      }
    }
    return (double) hits / exact.length;
  }

  private static double squaredDistance(int i, int j) {
    double s = 0;
    for (int f = 0; f < D; f++) {
      double diff = x.get(f, i) - x.get(f, j);
      s += diff * diff;
    }
    return s;
  }
}
