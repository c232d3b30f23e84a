package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.DriverMemory;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * Rows {@code [firstRow, firstRow + numRows)} of a sparse n × n sample graph in compressed
 * sparse row form, with global column indices. The whole graph is the block with
 * {@code firstRow = 0, numRows = n}; {@link #rows(int, int)} cuts the row block a data block
 * needs. Never dense.
 */
public final class SparseGraph implements Serializable {

  private static final long serialVersionUID = 1L;

  private final int n;
  private final int firstRow;
  private final int[] rowPtr;
  private final int[] cols;
  private final double[] weights;

  SparseGraph(int n, int firstRow, int[] rowPtr, int[] cols, double[] weights) {
    this.n = n;
    this.firstRow = firstRow;
    this.rowPtr = rowPtr;
    this.cols = cols;
    this.weights = weights;
  }

  /**
   * The directed kNN graph: row i holds its k neighbours, weighted by {@code weight} of the
   * squared distance.
   */
  public static SparseGraph fromNeighbors(List<NeighborLists> lists, int n,
      DoubleUnaryOperator weight) {
    return fromNeighbors(lists, n, (i, j, d2) -> weight.applyAsDouble(d2));
  }

  /** The weight of the edge from sample i to its neighbour j at squared distance d2. */
  @FunctionalInterface
  public interface EdgeWeight {
    double apply(int i, int j, double d2);
  }

  /** The directed kNN graph: row i holds its k neighbours j, weighted by {@code weight}. */
  public static SparseGraph fromNeighbors(List<NeighborLists> lists, int n, EdgeWeight weight) {
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
        sortRow(cols, w, base, base + k);
        rowPtr[row + 1] = base + k;
      }
    }
    if (row != n) {
      throw new IllegalArgumentException("neighbour lists cover " + row + " rows, expected " + n);
    }
    return new SparseGraph(n, 0, rowPtr, cols, w);
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

  public int numNodes() {
    return n;
  }

  public int firstRow() {
    return firstRow;
  }

  public int numRows() {
    return rowPtr.length - 1;
  }

  /** Stored entries. */
  public int numEntries() {
    return rowPtr[rowPtr.length - 1] - rowPtr[0];
  }

  /** Position of local row i's first entry (entries of row i are [rowStart(i), rowStart(i + 1))). */
  public int rowStart(int i) {
    return rowPtr[i];
  }

  /** Global column of the entry at position p. */
  public int column(int p) {
    return cols[p];
  }

  /** Weight of the entry at position p. */
  public double value(int p) {
    return weights[p];
  }

  /** Column indices of local row i's entries, ascending. */
  public int[] neighbors(int i) {
    return Arrays.copyOfRange(cols, rowPtr[i], rowPtr[i + 1]);
  }

  /** Weights of local row i's entries, in the order of {@link #neighbors(int)}. */
  public double[] weights(int i) {
    return Arrays.copyOfRange(weights, rowPtr[i], rowPtr[i + 1]);
  }

  /** Weight of entry (local row i, global column j), 0 when absent. */
  public double weight(int i, int j) {
    int at = Arrays.binarySearch(cols, rowPtr[i], rowPtr[i + 1], j);
    return at >= 0 ? weights[at] : 0.0;
  }

  /** Row sums (degrees) of this block's rows. */
  public double[] rowSums() {
    double[] s = new double[numRows()];
    for (int i = 0; i < s.length; i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        s[i] += weights[p];
      }
    }
    return s;
  }

  /** The symmetric union {@code max(S, Sᵀ)}: an edge in either direction, with its larger weight. */
  public SparseGraph symmetrizeMax() {
    return combineWithTranspose(true);
  }

  /** {@code S + Sᵀ}. */
  public SparseGraph plusTranspose() {
    return combineWithTranspose(false);
  }

  /** {@code diag(left) S diag(right)}, with left indexed by this block's rows. */
  public SparseGraph scale(double[] left, double[] right) {
    double[] w = weights.clone();
    for (int i = 0; i < numRows(); i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        w[p] *= left[firstRow + i] * right[cols[p]];
      }
    }
    return new SparseGraph(n, firstRow, rowPtr, cols, w);
  }

  /** Each row divided by its sum (a row-stochastic matrix); empty rows stay empty. */
  public SparseGraph rowNormalized() {
    double[] s = rowSums();
    double[] w = weights.clone();
    for (int i = 0; i < numRows(); i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        w[p] = s[i] > 0 ? w[p] / s[i] : 0.0;
      }
    }
    return new SparseGraph(n, firstRow, rowPtr, cols, w);
  }

  /** Rows {@code [from, from + count)} of the whole graph, as a block. */
  public SparseGraph rows(int from, int count) {
    if (firstRow != 0 || from < 0 || from + count > numRows()) {
      throw new IllegalArgumentException("rows [" + from + ", " + (from + count)
          + ") of a block of " + numRows() + " rows starting at " + firstRow);
    }
    int start = rowPtr[from];
    int end = rowPtr[from + count];
    int[] ptr = new int[count + 1];
    for (int i = 0; i <= count; i++) {
      ptr[i] = rowPtr[from + i] - start;
    }
    return new SparseGraph(n, from, ptr, Arrays.copyOfRange(cols, start, end),
        Arrays.copyOfRange(weights, start, end));
  }

  /**
   * This block's rows of {@code S F}, for a per-sample matrix F given as k × n: the result is
   * k × numRows, column i being {@code Σ_j S_ij F[:, j]}.
   */
  public DenseMatrix multiply(DenseMatrix perSample) {
    if (perSample.cols() != n) {
      throw new IllegalArgumentException("graph on " + n + " nodes times " + perSample.shape());
    }
    int k = perSample.rows();
    double[] f = perSample.data();
    DenseMatrix out = new DenseMatrix(k, numRows());
    double[] o = out.data();
    for (int i = 0; i < numRows(); i++) {
      int oi = i * k;
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        double w = weights[p];
        int fj = cols[p] * k;
        for (int c = 0; c < k; c++) {
          o[oi + c] += w * f[fj + c];
        }
      }
    }
    return out;
  }

  private SparseGraph combineWithTranspose(boolean max) {
    if (firstRow != 0 || numRows() != n) {
      throw new IllegalStateException("the transpose needs the whole graph, not a row block");
    }
    int nnz = numEntries();
    int[] counts = new int[n + 1];
    for (int i = 0; i < n; i++) {
      counts[i + 1] += rowPtr[i + 1] - rowPtr[i];
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        counts[cols[p] + 1]++;
      }
    }
    for (int i = 0; i < n; i++) {
      counts[i + 1] += counts[i];
    }
    int[] fill = Arrays.copyOf(counts, n);
    int both = DriverMemory.checkedLength("the graph's edges in both directions", 2, nnz);
    int[] c = new int[both];
    double[] w = new double[both];
    for (int i = 0; i < n; i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        c[fill[i]] = cols[p];
        w[fill[i]++] = weights[p];
        c[fill[cols[p]]] = i;
        w[fill[cols[p]]++] = weights[p];
      }
    }
    int[] ptr = new int[n + 1];
    int out = 0;
    for (int i = 0; i < n; i++) {
      int start = counts[i];
      int end = counts[i + 1];
      sortRow(c, w, start, end);
      int rowStart = out;
      for (int p = start; p < end; p++) {
        if (out > rowStart && c[out - 1] == c[p]) {
          w[out - 1] = max ? Math.max(w[out - 1], w[p]) : w[out - 1] + w[p];
        } else {
          c[out] = c[p];
          w[out++] = w[p];
        }
      }
      ptr[i + 1] = out;
    }
    return new SparseGraph(n, 0, ptr, Arrays.copyOf(c, out), Arrays.copyOf(w, out));
  }

  /** Sorts entries [from, to) by column (insertion sort: rows are short). */
  private static void sortRow(int[] c, double[] w, int from, int to) {
    for (int p = from + 1; p < to; p++) {
      int cp = c[p];
      double wp = w[p];
      int q = p - 1;
      while (q >= from && c[q] > cp) {
        c[q + 1] = c[q];
        w[q + 1] = w[q];
        q--;
      }
      c[q + 1] = cp;
      w[q + 1] = wp;
    }
  }
}
