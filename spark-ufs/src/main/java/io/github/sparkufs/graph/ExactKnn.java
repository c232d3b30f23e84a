package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import java.util.Arrays;

/**
 * Exact k-nearest-neighbour search by blocked all-pairs squared distances
 * {@code ||a||² + ||b||² − 2 aᵀb} (docs/design.md): each pair of blocks is searched in tiles whose
 * inner products come from one GEMM (from the matching non-zeros, for sparse blocks), and the
 * per-pair lists are merged. O(n² d) time (dense), O(tile²) extra memory; never an n × n
 * matrix.
 */
public final class ExactKnn {

  /** Samples per tile side: a tile's distance matrix is at most TILE² doubles (8 MB). */
  static final int TILE = 1024;

  private ExactKnn() {}

  /** The k nearest neighbours of every sample, one {@link NeighborLists} per block. */
  public static Partitioned<NeighborLists> search(RowBlockMatrix x, int k) {
    if (k < 1 || k >= x.numRows()) {
      throw new IllegalArgumentException("numNeighbors must be in [1, n - 1] = [1, "
          + (x.numRows() - 1) + "], got " + k);
    }
    x.execution().describe("exact kNN graph (k = " + k + ")");
    return x.blocks().crossMerge((a, b) -> nearest(a, b, k), NeighborLists::merge);
  }

  /** For each sample of {@code queries}, its k nearest among {@code refs} (self excluded). */
  public static NeighborLists nearest(RowBlock queries, RowBlock refs, int k) {
    int nq = queries.numRows();
    int[] idx = new int[nq * k];
    double[] dist = new double[nq * k];
    Arrays.fill(idx, Integer.MAX_VALUE);
    Arrays.fill(dist, Double.POSITIVE_INFINITY);
    double[] qNorms = queries.normsSquared();
    double[] rNorms = refs.normsSquared();
    for (int q0 = 0; q0 < nq; q0 += TILE) {
      int qn = Math.min(TILE, nq - q0);
      RowBlock qTile = queries.range(q0, qn);
      for (int r0 = 0; r0 < refs.numRows(); r0 += TILE) {
        int rn = Math.min(TILE, refs.numRows() - r0);
        DenseMatrix dots = refs.range(r0, rn).innerProducts(qTile);
        double[] dv = dots.data();
        for (int i = 0; i < qn; i++) {
          int qi = q0 + i;
          int self = queries.offset() + qi;
          for (int j = 0; j < rn; j++) {
            int global = refs.offset() + r0 + j;
            if (global == self) {
              continue;
            }
            double d2 = Math.max(0.0, qNorms[qi] + rNorms[r0 + j] - 2 * dv[i * rn + j]);
            NeighborLists.offer(idx, dist, qi * k, k, d2, global);
          }
        }
      }
    }
    return new NeighborLists(queries.offset(), k, idx, dist);
  }

}
