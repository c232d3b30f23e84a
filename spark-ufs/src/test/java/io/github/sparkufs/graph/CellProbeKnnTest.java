package io.github.sparkufs.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.testing.LogCapture;
import io.github.sparkufs.testing.TestData;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CellProbeKnnTest {

  private static final int N = 5000;
  private static final int D = 20;
  private static final int K = 10;
  /**
   * Lists found with single-precision distances against the exact double-precision search: the
   * r-th neighbours' distances agree to float rounding (relative 6e-8 per value, summed over D),
   * and a tie at the k-th neighbour may break either way.
   */
  private static final double TIE = 1e-5;

  private static DenseMatrix x;
  private static int[] exact;

  @BeforeAll
  static void data() {
    x = new PlantedClusters(D, 5, 4, 2.0, 11).matrix(N);
    exact = indices(KnnSearch.exact().searchAll(TestData.blocks(x, 1), K));
  }

  @Test
  void probingEveryCellIsTheExactSearch() {
    List<NeighborLists> lists = new CellProbeKnn(3, 100, 50).searchAll(TestData.blocks(x, 3), K);
    TestData.assertSameNeighbourDistances(x, exact, indices(lists), K, TIE);
    int row = 0;
    for (NeighborLists l : lists) {
      for (int i = 0; i < l.numRows(); i++, row++) {
        for (int r = 0; r < K; r++) {
          double d2 = squaredDistance(row, l.index(i, r));
          // single-precision values, summed in double: within float rounding of the distance
          assertEquals(d2, l.distance(i, r), 1e-6 * (1 + d2), "row " + row);
          assertTrue(r == 0 || l.distance(i, r - 1) <= l.distance(i, r), "row " + row);
        }
      }
    }
    assertEquals(N, row);
  }

  /** The search, a large fit's longest step, says in the log what it searches and when done. */
  @Test
  void searchLogsItsStartAndEnd() {
    List<String> lines = LogCapture.infoLines(CellProbeKnn.class,
        () -> new CellProbeKnn(3, 100, 10).searchAll(TestData.blocks(x, 3), K));
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(0).startsWith(x.cols() + " rows, approximate kNN graph: ")
        && lines.get(0).endsWith("searching each of 3 blocks and 3 pairs of them"), lines.get(0));
    assertTrue(lines.get(1).startsWith("approximate kNN graph of " + x.cols() + " rows found in "),
        lines.get(1));
  }

  @Test
  void probingSomeCellsFindsMostNeighbours() {
    // 100 cells of about 50 samples: the nearest cells holding 24 cells' worth of rows (and
    // the cells that probe them) find nine tenths of the neighbours of these 20-dimensional
    // samples, 8 cells' worth fewer. Measured over data seeds 1-12: 24 probes .885-.957 (mean
    // .912, .938 on this draw), 8 probes .604-.680, the gap .265-.292.
    double few = recall(indices(new CellProbeKnn(3, 50, 8).searchAll(TestData.blocks(x, 2), K)));
    double more = recall(indices(new CellProbeKnn(3, 50, 24).searchAll(TestData.blocks(x, 2), K)));
    assertTrue(more >= 0.85, "24 probes: recall " + more);
    assertTrue(more > few + 0.15, "24 probes " + more + ", 8 probes " + few);
  }

  @Test
  void sameListsForAnyNumberOfBlocks() {
    CellProbeKnn search = new CellProbeKnn(7, 40, 6);
    int[] one = indices(search.searchAll(TestData.blocks(x, 1), K));
    TestData.assertSameNeighbourDistances(x, one,
        indices(search.searchAll(TestData.blocks(x, 4), K)), K, TIE);
    TestData.assertSameNeighbourDistances(x, one,
        indices(new CellProbeKnn(7, 40, 6).searchAll(TestData.blocks(x, 7), K)), K, TIE);
  }

  @Test
  void cellsAreFineCellsUnderAboutRootManyCoarseOnes() {
    // Routing a sample meets the coarse centres and one coarse cell's fine centres: about
    // 2 √m of m. The fine cells are shared out by rounding each coarse cell's share of m.
    CellProbeKnn.Cells cells = CellProbeKnn.Cells.place(x, 400, new SplittableRandom(1));
    assertEquals(20, cells.coarseCount());
    assertTrue(Math.abs(cells.count() - 400) <= cells.coarseCount() / 2, "cells " + cells.count());
  }

  @Test
  void anotherSeedGivesOtherCells() {
    int[] a = indices(new CellProbeKnn(1, 40, 2).searchAll(TestData.blocks(x, 1), K));
    int[] b = indices(new CellProbeKnn(2, 40, 2).searchAll(TestData.blocks(x, 1), K));
    assertNotEquals(java.util.Arrays.toString(a), java.util.Arrays.toString(b));
  }

  @Test
  void autoIsExactBelowTheThreshold() {
    DenseMatrix small = x.columns(0, 300);
    TestData.assertSameNeighbourDistances(small,
        indices(KnnSearch.exact().searchAll(TestData.blocks(small, 1), K)),
        indices(KnnSearch.of(KnnSearch.AUTO, 1).searchAll(TestData.blocks(small, 2), K)), K, TIE);
    assertTrue(300 < KnnSearch.AUTO_APPROXIMATE_ROWS);
  }

  @Test
  void tinyCellsStillGiveFullLists() {
    DenseMatrix tiny = x.columns(0, 12);
    List<NeighborLists> lists = new CellProbeKnn(1, 1, 1).searchAll(TestData.blocks(tiny, 2), 11);
    TestData.assertSameNeighbourDistances(tiny,
        indices(KnnSearch.exact().searchAll(TestData.blocks(tiny, 1), 11)), indices(lists), 11,
        TIE);
  }

  @Test
  void rejectsBadSettingsNamingTheValue() {
    IllegalArgumentException cell = assertThrows(IllegalArgumentException.class,
        () -> new CellProbeKnn(1, 0, 8));
    assertTrue(cell.getMessage().contains("cellSize must be >= 1, got 0"), cell.getMessage());
    IllegalArgumentException probes = assertThrows(IllegalArgumentException.class,
        () -> new CellProbeKnn(1, 8, -1));
    assertTrue(probes.getMessage().contains("probes must be >= 1, got -1"), probes.getMessage());
    IllegalArgumentException k = assertThrows(IllegalArgumentException.class,
        () -> CellProbeKnn.withDefaults(1).search(TestData.blocks(x.columns(0, 5), 1), 5));
    assertTrue(k.getMessage().contains("got 5"), k.getMessage());
    IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
        () -> KnnSearch.of("fast", 1));
    assertTrue(name.getMessage().contains("got fast"), name.getMessage());
    IllegalArgumentException option = assertThrows(IllegalArgumentException.class,
        () -> MethodOptions.of(List.of(CommonOptions.KNN_ALGORITHM))
            .with(CommonOptions.KNN_ALGORITHM, "fast"));
    assertTrue(option.getMessage().contains("knnAlgorithm") && option.getMessage().contains("got fast"),
        option.getMessage());
  }

  static int[] indices(List<NeighborLists> lists) {
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
  private static double recall(int[] found) {
    long hits = 0;
    for (int row = 0; row < N; row++) {
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
