package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.DriverMemory;
import io.github.sparkufs.linalg.SparseRowMatrix;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * Sample graphs from neighbour lists, held as {@link SparseRowMatrix} (n × n weighted
 * adjacency; its row sums are the degrees, {@link SparseRowMatrix#symmetrizeMax()} and
 * {@link SparseRowMatrix#plusTranspose()} its undirected forms).
 */
public final class KnnGraphs {

  private KnnGraphs() {
  }

  /** The weight of the edge from sample i to its neighbour j at squared distance d2. */
  @FunctionalInterface
  public interface EdgeWeight {
    double apply(int i, int j, double d2);
  }

  /**
   * The directed kNN graph: row i holds its k neighbours, weighted by {@code weight} of the
   * squared distance.
   */
  public static SparseRowMatrix fromNeighbors(List<NeighborLists> lists, int n,
      DoubleUnaryOperator weight) {
    return fromNeighbors(lists, n, (i, j, d2) -> weight.applyAsDouble(d2));
  }

  /** The directed kNN graph: row i holds its k neighbours j, weighted by {@code weight}. */
  public static SparseRowMatrix fromNeighbors(List<NeighborLists> lists, int n,
      EdgeWeight weight) {
    int k = lists.get(0).k();
    int[] rowPtr = new int[n + 1];
    int edges = DriverMemory.checkedLength("the kNN graph's n x k edges", n, k);
    int[] cols = new int[edges];
    double[] w = new double[edges];
    int row = 0;
    for (NeighborLists l : lists) {
      for (int i = 0; i < l.numRows(); i++, row++) {
        int base = row * k;
        for (int r = 0; r < k; r++) {
          cols[base + r] = l.index(i, r);
          w[base + r] = weight.apply(row, cols[base + r], l.distance(i, r));
        }
        rowPtr[row + 1] = base + k;
      }
    }
    if (row != n) {
      throw new IllegalArgumentException("neighbour lists cover " + row + " rows, expected " + n);
    }
    return SparseRowMatrix.fromCompressedRows(n, rowPtr, cols, w);
  }

  /** Mean over samples of the distance (not squared) to the k-th nearest neighbour. */
  public static double meanKthNeighborDistance(List<NeighborLists> lists) {
    double sum = 0;
    long count = 0;
    for (NeighborLists l : lists) {
      for (int i = 0; i < l.numRows(); i++) {
        sum += Math.sqrt(l.distance(i, l.k() - 1));
        count++;
      }
    }
    return sum / count;
  }
}
