package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.DoubleArrays;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.Partitioned.Pieces;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Exact k-nearest-neighbour search by blocked all-pairs squared distances
 * {@code ||a||² + ||b||² − 2 aᵀb} (docs/design.md): each pair of blocks is searched in tiles whose
 * inner products come from one GEMM (from the matching non-zeros, for sparse blocks), and the
 * per-pair lists are merged. Those distances screen; a pair that may enter a list is measured
 * feature by feature, so the lists do not depend on the blocks. Distances are
 * symmetric, so each unordered pair of blocks, and within a block each pair of tiles, is
 * computed once and offered to both samples' lists: about n² d / 2 multiply-adds in all. On the
 * driver the tile pairs run on every core. O(n² d) time (dense), O(tile²) extra memory per
 * thread; never an n × n matrix.
 */
public final class ExactKnn {

  /** Samples per tile side: a tile's distance matrix is TILE² doubles (512 kB). */
  static final int TILE = 256;

  private ExactKnn() {}

  /** The k nearest neighbours of every sample, one {@link NeighborLists} per block. */
  public static Partitioned<NeighborLists> search(RowBlockMatrix x, int k) {
    if (k < 1 || k >= x.numRows()) {
      throw new IllegalArgumentException("numNeighbors must be in [1, n - 1] = [1, "
          + (x.numRows() - 1) + "], got " + k);
    }
    x.execution().describe("exact kNN graph (k = " + k + ")");
    // Spark runs a task per core already; on the driver the pair's tiles take the cores.
    boolean parallel = !x.execution().isDistributed();
    return x.blocks().crossMergeOnce((a, b) -> {
      boolean same = a.offset() == b.offset();
      double[] aNorms = a.normsSquared();
      double[] bNorms = same ? aNorms : b.normsSquared();
      Candidates c = tilePairs(a, b, same, parallel).collect(
          () -> new Candidates(a, aNorms, b, bNorms, k, true),
          Candidates::offerTilePair, Candidates::mergeFrom);
      return new Pieces<>(c.toA, c.toB);
    }, NeighborLists::merge);
  }

  /**
   * For each sample of {@code queries}, its k nearest among {@code refs}, excluding the sample
   * itself when refs hold it (same global index).
   */
  public static NeighborLists nearest(RowBlock queries, RowBlock refs, int k) {
    Candidates c = new Candidates(queries, queries.normsSquared(), refs, refs.normsSquared(), k,
        false);
    tilePairs(queries, refs, false, false).forEach(c::offerTilePair);
    return c.toA;
  }

  /**
   * The tile pairs (a-tile × b-tile, numbered a-tile-major) a search of a and b reads; of a
   * block with itself ({@code same}), those with the b-tile at or after the a-tile.
   */
  private static IntStream tilePairs(RowBlock a, RowBlock b, boolean same, boolean parallel) {
    int bTiles = tiles(b.numRows());
    IntStream pairs = IntStream.range(0, tiles(a.numRows()) * bTiles)
        .filter(p -> !same || p % bTiles >= p / bTiles);
    return parallel ? pairs.parallel() : pairs;
  }

  private static int tiles(int rows) {
    return (rows + TILE - 1) / TILE;
  }

  /**
   * The lists one thread fills from its tile pairs: a's samples' neighbours among b and, when
   * searched both ways, b's among a (the same lists when a and b are one block).
   */
  private static final class Candidates {
    private final RowBlock a;
    private final RowBlock b;
    private final boolean same;
    private final double[] aNorms;
    private final double[] bNorms;
    private final double[] buffer = new double[TILE * TILE];
    /** 1 less {@link DoubleArrays#distanceScreenMargin} of the features. */
    private final double belowOne;
    private NeighborLists toA;
    private NeighborLists toB;

    /**
     * @param aNorms the squared norms of a's samples (bNorms, b's)
     * @param bothWays whether b's samples get lists too (one list when a and b are one block,
     *     same offset), or only a's
     */
    Candidates(RowBlock a, double[] aNorms, RowBlock b, double[] bNorms, int k,
        boolean bothWays) {
      this.a = a;
      this.b = b;
      this.same = bothWays && a.offset() == b.offset();
      this.aNorms = aNorms;
      this.bNorms = bNorms;
      this.belowOne = 1 - DoubleArrays.distanceScreenMargin(a.numCols());
      this.toA = empty(a, k);
      this.toB = same ? toA : bothWays ? empty(b, k) : null;
    }

    private static NeighborLists empty(RowBlock block, int k) {
      int[] idx = new int[block.numRows() * k];
      double[] dist = new double[idx.length];
      Arrays.fill(idx, Integer.MAX_VALUE);
      Arrays.fill(dist, Double.POSITIVE_INFINITY);
      return new NeighborLists(block.offset(), k, idx, dist);
    }

    /**
     * Offers the distances of tile pair p (numbered as {@link #tilePairs} does). Each pair of
     * samples lies in one tile pair and is offered to each list once, so no list is scanned
     * for the sample offered. The GEMM's distances only screen: a pair that may enter a list
     * gets its distance summed feature by feature ({@link RowBlock#squaredDistance}), the same
     * value whichever blocks, tiles or kernels the two samples meet in, so that the lists are
     * the same in any number of partitions (ties going to the lower index).
     */
    void offerTilePair(int p) {
      int bTiles = tiles(b.numRows());
      int a0 = p / bTiles * TILE;
      int b0 = p % bTiles * TILE;
      int an = Math.min(TILE, a.numRows() - a0);
      int bn = Math.min(TILE, b.numRows() - b0);
      boolean diagonal = same && a0 == b0;
      double[] dots = innerProducts(a0, an, b0, bn, diagonal);
      int k = toA.k();
      for (int i = 0; i < an; i++) {
        int ga = a.offset() + a0 + i;
        double aNorm = aNorms[a0 + i];
        double kthA = toA.distance(a0 + i, k - 1);
        for (int j = diagonal ? i + 1 : 0; j < bn; j++) {
          int gb = b.offset() + b0 + j;
          if (gb == ga) {
            continue;
          }
          // The screened distance less its rounding bound: no lower than the summed one.
          double lowest = (aNorm + bNorms[b0 + j]) * belowOne - 2 * dots[i * bn + j];
          if (lowest <= kthA || (toB != null && lowest <= toB.distance(b0 + j, k - 1))) {
            double d2 = a.squaredDistance(a0 + i, b, b0 + j);
            kthA = toA.offerDistinct(a0 + i, d2, gb);
            if (toB != null) {
              toB.offerDistinct(b0 + j, d2, ga);
            }
          }
        }
      }
    }

    /**
     * The inner products of b's tile with a's (bn × an, column-major): dense tiles multiplied
     * where they lie in the d × n blocks, into this thread's buffer; sparse ones from their
     * matching non-zeros. A tile with itself ({@code diagonal}) is symmetric and only its
     * strict lower triangle is read, so dense it is one {@code dsyrk}: half the multiply-adds.
     */
    private double[] innerProducts(int a0, int an, int b0, int bn, boolean diagonal) {
      if (a.isSparse()) {
        return b.range(b0, bn).innerProducts(a.range(a0, an)).data();
      }
      int d = a.numCols();
      if (diagonal) {
        LinalgBackend.blas().dsyrk("L", "T", an, d, 1.0, a.columns().data(), a0 * d, d, 0.0,
            buffer, 0, an);
      } else {
        LinalgBackend.blas().dgemm("T", "N", bn, an, d, 1.0, b.columns().data(), b0 * d, d,
            a.columns().data(), a0 * d, d, 0.0, buffer, 0, bn);
      }
      return buffer;
    }

    /** Takes in the lists another thread filled from other tile pairs. */
    void mergeFrom(Candidates other) {
      toA = NeighborLists.merge(toA, other.toA);
      toB = same ? toA : toB == null ? null : NeighborLists.merge(toB, other.toB);
    }
  }
}
