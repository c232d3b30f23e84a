package io.github.sparkufs.linalg;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Rows {@code [firstRow, firstRow + numRows)} of a sparse matrix with {@code numCols} columns,
 * in compressed sparse row form with global column indices (ascending within a row, no
 * duplicates). The one sparse matrix of the library: the n × n sample graphs (built by
 * {@code graph.KnnGraphs} and read as weighted adjacency) and the other sample-by-sample
 * matrices, such as FSASL's LASSO coefficients S (Eq. 6) and simplex rows P (Eq. 8), and the
 * samples of sparse input ({@link RowBlock}, one row per sample). A whole
 * matrix is the block with {@code firstRow = 0}; {@link #rows(int, int)} cuts a data block's
 * rows. Never dense.
 */
public final class SparseRowMatrix implements Serializable {

  private static final long serialVersionUID = 1L;

  private final int numCols;
  private final int firstRow;
  private final int[] rowPtr;
  private final int[] cols;
  private final double[] values;

  private SparseRowMatrix(int numCols, int firstRow, int[] rowPtr, int[] cols, double[] values) {
    this.numCols = numCols;
    this.firstRow = firstRow;
    this.rowPtr = rowPtr;
    this.cols = cols;
    this.values = values;
  }

  /**
   * Rows from per-row entries: row r holds {@code values[r][t]} at column {@code indices[r][t]}.
   * Entries may come in any order; repeated columns are summed, zeros are dropped.
   */
  public static SparseRowMatrix fromRows(int firstRow, int numCols, int[][] indices,
      double[][] values) {
    if (indices.length != values.length) {
      throw new IllegalArgumentException(indices.length + " index rows for " + values.length
          + " value rows");
    }
    long total = 0;
    for (int r = 0; r < indices.length; r++) {
      if (indices[r].length != values[r].length) {
        throw new IllegalArgumentException("row " + r + " has " + indices[r].length
            + " indices for " + values[r].length + " values");
      }
      total += indices[r].length;
    }
    int entries = DriverMemory.checkedLength("a sparse matrix's entries", total, 1);
    int[] ptr = new int[indices.length + 1];
    int[] c = new int[entries];
    double[] v = new double[entries];
    int at = 0;
    for (int r = 0; r < indices.length; r++) {
      int start = at;
      for (int t = 0; t < indices[r].length; t++) {
        int j = indices[r][t];
        if (j < 0 || j >= numCols) {
          throw new IllegalArgumentException("column " + j + " out of [0, " + numCols + ")");
        }
        c[at] = j;
        v[at++] = values[r][t];
      }
      at = sortAndMerge(c, v, start, at);
      ptr[r + 1] = at;
    }
    return new SparseRowMatrix(numCols, firstRow, ptr, Arrays.copyOf(c, at),
        Arrays.copyOf(v, at));
  }

  /**
   * A whole matrix from its compressed rows: row i holds {@code values[p]} at column
   * {@code cols[p]} for p in {@code [rowPtr[i], rowPtr[i + 1])}, in any column order (each row
   * is sorted here; entries are kept as given, zeros included). Takes ownership of the arrays.
   */
  public static SparseRowMatrix fromCompressedRows(int numCols, int[] rowPtr, int[] cols,
      double[] values) {
    if (cols.length != values.length || rowPtr[rowPtr.length - 1] != cols.length) {
      throw new IllegalArgumentException(rowPtr[rowPtr.length - 1] + " row entries, "
          + cols.length + " columns and " + values.length + " values");
    }
    for (int i = 0; i + 1 < rowPtr.length; i++) {
      sortRow(cols, values, rowPtr[i], rowPtr[i + 1]);
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        if (cols[p] < 0 || cols[p] >= numCols || p > rowPtr[i] && cols[p] == cols[p - 1]) {
          throw new IllegalArgumentException("row " + i + ": column " + cols[p]
              + (cols[p] < 0 || cols[p] >= numCols ? " out of [0, " + numCols + ")"
              : " repeated"));
        }
      }
    }
    return new SparseRowMatrix(numCols, 0, rowPtr, cols, values);
  }

  /** The rows of a dense matrix's non-zero entries (for tests and small inputs). */
  public static SparseRowMatrix fromDense(DenseMatrix a) {
    int[][] idx = new int[a.rows()][];
    double[][] val = new double[a.rows()][];
    for (int i = 0; i < a.rows(); i++) {
      int nnz = 0;
      for (int j = 0; j < a.cols(); j++) {
        if (a.get(i, j) != 0) {
          nnz++;
        }
      }
      idx[i] = new int[nnz];
      val[i] = new double[nnz];
      for (int j = 0, t = 0; j < a.cols(); j++) {
        if (a.get(i, j) != 0) {
          idx[i][t] = j;
          val[i][t++] = a.get(i, j);
        }
      }
    }
    return fromRows(0, a.cols(), idx, val);
  }

  public int numRows() {
    return rowPtr.length - 1;
  }

  public int numCols() {
    return numCols;
  }

  /** Global index of the first row. */
  public int firstRow() {
    return firstRow;
  }

  /** Stored entries. */
  public int numEntries() {
    return rowPtr[rowPtr.length - 1];
  }

  /** Position of local row i's first entry: row i's entries are [rowStart(i), rowStart(i + 1)). */
  public int rowStart(int i) {
    return rowPtr[i];
  }

  /** Global column of the entry at position p. */
  public int column(int p) {
    return cols[p];
  }

  /** Value of the entry at position p. */
  public double value(int p) {
    return values[p];
  }

  /** Column indices of local row i, ascending. */
  public int[] columns(int i) {
    return Arrays.copyOfRange(cols, rowPtr[i], rowPtr[i + 1]);
  }

  /** Values of local row i, in the order of {@link #columns(int)}. */
  public double[] values(int i) {
    return Arrays.copyOfRange(values, rowPtr[i], rowPtr[i + 1]);
  }

  /** Entry (local row i, column j), 0 when absent. */
  public double get(int i, int j) {
    int at = Arrays.binarySearch(cols, rowPtr[i], rowPtr[i + 1], j);
    return at >= 0 ? values[at] : 0.0;
  }

  /** Row sums (a graph's degrees). */
  public double[] rowSums() {
    double[] s = new double[numRows()];
    for (int i = 0; i < s.length; i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        s[i] += values[p];
      }
    }
    return s;
  }

  /** Sums of squares of each row. */
  public double[] rowSumsOfSquares() {
    double[] s = new double[numRows()];
    for (int i = 0; i < s.length; i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        s[i] += values[p] * values[p];
      }
    }
    return s;
  }

  /** Sum of the absolute values of all entries. */
  public double l1Norm() {
    double s = 0;
    for (int p = 0; p < numEntries(); p++) {
      s += Math.abs(values[p]);
    }
    return s;
  }

  /** Sum of the squares of all entries. */
  public double frobeniusNormSquared() {
    double s = 0;
    for (int p = 0; p < numEntries(); p++) {
      s += values[p] * values[p];
    }
    return s;
  }

  /** The transpose of a whole matrix (numRows × numCols becomes numCols × numRows). */
  public SparseRowMatrix transpose() {
    requireWhole();
    int nnz = numEntries();
    int[] ptr = new int[numCols + 1];
    for (int p = 0; p < nnz; p++) {
      ptr[cols[p] + 1]++;
    }
    for (int j = 0; j < numCols; j++) {
      ptr[j + 1] += ptr[j];
    }
    int[] fill = Arrays.copyOf(ptr, numCols);
    int[] c = new int[nnz];
    double[] v = new double[nnz];
    for (int i = 0; i < numRows(); i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        int at = fill[cols[p]]++;
        c[at] = i;
        v[at] = values[p];
      }
    }
    return new SparseRowMatrix(numRows(), 0, ptr, c, v);
  }

  /**
   * The symmetric union {@code max(S, Sᵀ)} of a whole square matrix: an entry in either place,
   * with the larger value.
   */
  public SparseRowMatrix symmetrizeMax() {
    return combineWithTranspose(true);
  }

  /** {@code S + Sᵀ} of a whole square matrix. */
  public SparseRowMatrix plusTranspose() {
    return combineWithTranspose(false);
  }

  /** {@code diag(left) S diag(right)}, with left indexed by global row. */
  public SparseRowMatrix scale(double[] left, double[] right) {
    double[] v = values.clone();
    for (int i = 0; i < numRows(); i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        v[p] *= left[firstRow + i] * right[cols[p]];
      }
    }
    return new SparseRowMatrix(numCols, firstRow, rowPtr, cols, v);
  }

  /** Each row divided by its sum (a row-stochastic matrix); empty rows stay empty. */
  public SparseRowMatrix rowNormalized() {
    double[] s = rowSums();
    double[] v = values.clone();
    for (int i = 0; i < numRows(); i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        v[p] = s[i] > 0 ? v[p] / s[i] : 0.0;
      }
    }
    return new SparseRowMatrix(numCols, firstRow, rowPtr, cols, v);
  }

  /** {@code a · this + b · other} for two whole matrices of the same shape. */
  public SparseRowMatrix combine(double a, SparseRowMatrix other, double b) {
    requireWhole();
    other.requireWhole();
    if (numRows() != other.numRows() || numCols != other.numCols) {
      throw new IllegalArgumentException("shapes differ: " + numRows() + " x " + numCols
          + " and " + other.numRows() + " x " + other.numCols);
    }
    int[][] idx = new int[numRows()][];
    double[][] val = new double[numRows()][];
    for (int i = 0; i < numRows(); i++) {
      int na = rowPtr[i + 1] - rowPtr[i];
      int nb = other.rowPtr[i + 1] - other.rowPtr[i];
      idx[i] = new int[na + nb];
      val[i] = new double[na + nb];
      System.arraycopy(cols, rowPtr[i], idx[i], 0, na);
      System.arraycopy(other.cols, other.rowPtr[i], idx[i], na, nb);
      for (int t = 0; t < na; t++) {
        val[i][t] = a * values[rowPtr[i] + t];
      }
      for (int t = 0; t < nb; t++) {
        val[i][na + t] = b * other.values[other.rowPtr[i] + t];
      }
    }
    return fromRows(0, numCols, idx, val);
  }

  /**
   * Local rows {@code [from, from + count)} as a block starting at global row
   * {@code firstRow() + from} (of a whole matrix: its rows [from, from + count)).
   */
  public SparseRowMatrix rows(int from, int count) {
    if (from < 0 || count < 0 || from + count > numRows()) {
      throw new IllegalArgumentException("rows [" + from + ", " + (from + count) + ") of "
          + numRows());
    }
    int start = rowPtr[from];
    int end = rowPtr[from + count];
    int[] ptr = new int[count + 1];
    for (int i = 0; i <= count; i++) {
      ptr[i] = rowPtr[from + i] - start;
    }
    return new SparseRowMatrix(numCols, firstRow + from, ptr, Arrays.copyOfRange(cols, start, end),
        Arrays.copyOfRange(values, start, end));
  }

  /** The listed local rows, in the listed order, as a matrix starting at row 0. */
  public SparseRowMatrix select(int[] localRows) {
    int[] ptr = new int[localRows.length + 1];
    for (int q = 0; q < localRows.length; q++) {
      int i = localRows[q];
      ptr[q + 1] = ptr[q] + rowPtr[i + 1] - rowPtr[i];
    }
    int[] c = new int[ptr[localRows.length]];
    double[] v = new double[c.length];
    for (int q = 0; q < localRows.length; q++) {
      int i = localRows[q];
      System.arraycopy(cols, rowPtr[i], c, ptr[q], rowPtr[i + 1] - rowPtr[i]);
      System.arraycopy(values, rowPtr[i], v, ptr[q], rowPtr[i + 1] - rowPtr[i]);
    }
    return new SparseRowMatrix(numCols, 0, ptr, c, v);
  }

  /**
   * The same entries with every column j renamed {@code position(j)} in a sorted list of
   * columns that contains all of them; the result has {@code sortedColumns.length} columns.
   */
  public SparseRowMatrix renumberColumns(int[] sortedColumns) {
    int[] c = new int[cols.length];
    for (int p = 0; p < cols.length; p++) {
      int at = Arrays.binarySearch(sortedColumns, cols[p]);
      if (at < 0) {
        throw new IllegalArgumentException("column " + cols[p] + " is not in the list");
      }
      c[p] = at;
    }
    return new SparseRowMatrix(sortedColumns.length, firstRow, rowPtr.clone(), c,
        values.clone());
  }

  /**
   * This block's rows of {@code M Fᵀᵀ} for a per-sample matrix given as k × numCols (column j
   * for sample j): the result is k × numRows, column i being {@code Σ_j M_ij F[:, j]}.
   */
  public DenseMatrix multiply(DenseMatrix perSample) {
    if (perSample.cols() != numCols) {
      throw new IllegalArgumentException("matrix with " + numCols + " columns times "
          + perSample.shape());
    }
    int k = perSample.rows();
    double[] f = perSample.data();
    DenseMatrix out = new DenseMatrix(k, numRows());
    double[] o = out.data();
    for (int i = 0; i < numRows(); i++) {
      int oi = i * k;
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        double w = values[p];
        int fj = cols[p] * k;
        for (int t = 0; t < k; t++) {
          o[oi + t] += w * f[fj + t];
        }
      }
    }
    return out;
  }

  /** Column sums {@code 1ᵀ M} (length numCols). */
  public double[] columnSums() {
    double[] s = new double[numCols];
    for (int p = 0; p < numEntries(); p++) {
      s[cols[p]] += values[p];
    }
    return s;
  }

  /**
   * {@code Mᵀ Fᵀ} (numCols × k) for a per-row matrix given as k × numRows ({@code Fᵀ}, column i
   * for row i): entry (j, t) is {@code Σ_i M_ij F_it}.
   */
  public DenseMatrix transposeMultiply(DenseMatrix perRow) {
    if (perRow.cols() != numRows()) {
      throw new IllegalArgumentException("transpose of a matrix with " + numRows()
          + " rows times the transpose of " + perRow.shape());
    }
    int k = perRow.rows();
    double[] f = perRow.data();
    DenseMatrix out = new DenseMatrix(numCols, k);
    double[] o = out.data();
    for (int i = 0; i < numRows(); i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        for (int t = 0; t < k; t++) {
          o[t * numCols + cols[p]] += values[p] * f[i * k + t];
        }
      }
    }
    return out;
  }

  /** The numCols × numCols Gram {@code Mᵀ M}, as the sum of the rows' outer products. */
  public DenseMatrix columnGram() {
    DenseMatrix g = new DenseMatrix(numCols, numCols);
    double[] o = g.data();
    for (int i = 0; i < numRows(); i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        for (int q = rowPtr[i]; q < rowPtr[i + 1]; q++) {
          o[cols[q] * numCols + cols[p]] += values[p] * values[q];
        }
      }
    }
    return g;
  }

  /**
   * The inner products of this block's rows with {@code other}'s, numRows × other.numRows,
   * entry (r, i) = row r · row i of other: each row of other is scattered over this block's
   * columns, so the work is the number of matching pairs of entries, plus numCols.
   */
  public DenseMatrix multiplyTranspose(SparseRowMatrix other) {
    if (other.numCols != numCols) {
      throw new IllegalArgumentException("rows of " + numCols + " columns times rows of "
          + other.numCols);
    }
    int[] colPtr = new int[numCols + 1];
    for (int p = 0; p < numEntries(); p++) {
      colPtr[cols[p] + 1]++;
    }
    for (int j = 0; j < numCols; j++) {
      colPtr[j + 1] += colPtr[j];
    }
    int[] fill = Arrays.copyOf(colPtr, numCols);
    int[] rowOf = new int[numEntries()];
    double[] valueOf = new double[numEntries()];
    for (int r = 0; r < numRows(); r++) {
      for (int p = rowPtr[r]; p < rowPtr[r + 1]; p++) {
        rowOf[fill[cols[p]]] = r;
        valueOf[fill[cols[p]]++] = values[p];
      }
    }
    int m = numRows();
    DenseMatrix out = new DenseMatrix(m, other.numRows());
    double[] o = out.data();
    for (int i = 0; i < other.numRows(); i++) {
      for (int p = other.rowPtr[i]; p < other.rowPtr[i + 1]; p++) {
        double v = other.values[p];
        int j = other.cols[p];
        for (int q = colPtr[j]; q < colPtr[j + 1]; q++) {
          o[i * m + rowOf[q]] += v * valueOf[q];
        }
      }
    }
    return out;
  }

  /** The block as a dense numRows × numCols matrix (for tests and small inputs). */
  public DenseMatrix toDense() {
    DenseMatrix d = new DenseMatrix(numRows(), numCols);
    for (int i = 0; i < numRows(); i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        d.set(i, cols[p], values[p]);
      }
    }
    return d;
  }

  private SparseRowMatrix combineWithTranspose(boolean max) {
    requireWhole();
    if (numRows() != numCols) {
      throw new IllegalStateException("the symmetric part needs a square matrix, not "
          + numRows() + " x " + numCols);
    }
    int n = numCols;
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
    int both = DriverMemory.checkedLength("a sparse matrix's entries in both directions", 2, nnz);
    int[] c = new int[both];
    double[] v = new double[both];
    for (int i = 0; i < n; i++) {
      for (int p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        c[fill[i]] = cols[p];
        v[fill[i]++] = values[p];
        c[fill[cols[p]]] = i;
        v[fill[cols[p]]++] = values[p];
      }
    }
    int[] ptr = new int[n + 1];
    int out = 0;
    for (int i = 0; i < n; i++) {
      int start = counts[i];
      int end = counts[i + 1];
      sortRow(c, v, start, end);
      int rowStart = out;
      for (int p = start; p < end; p++) {
        if (out > rowStart && c[out - 1] == c[p]) {
          v[out - 1] = max ? Math.max(v[out - 1], v[p]) : v[out - 1] + v[p];
        } else {
          c[out] = c[p];
          v[out++] = v[p];
        }
      }
      ptr[i + 1] = out;
    }
    return new SparseRowMatrix(n, 0, ptr, Arrays.copyOf(c, out), Arrays.copyOf(v, out));
  }

  private void requireWhole() {
    if (firstRow != 0) {
      throw new IllegalStateException("needs the whole matrix, not a row block at "
          + firstRow);
    }
  }

  /** Sorts entries [from, to) by column (insertion sort, stable: rows are short). */
  private static void sortRow(int[] c, double[] v, int from, int to) {
    for (int p = from + 1; p < to; p++) {
      int cp = c[p];
      double vp = v[p];
      int q = p - 1;
      while (q >= from && c[q] > cp) {
        c[q + 1] = c[q];
        v[q + 1] = v[q];
        q--;
      }
      c[q + 1] = cp;
      v[q + 1] = vp;
    }
  }

  /** Sorts entries [from, to) by column, sums repeats, drops zeros; returns the new end. */
  private static int sortAndMerge(int[] c, double[] v, int from, int to) {
    sortRow(c, v, from, to);
    int out = from;
    for (int p = from; p < to; p++) {
      if (out > from && c[out - 1] == c[p]) {
        v[out - 1] += v[p];
      } else {
        c[out] = c[p];
        v[out++] = v[p];
      }
    }
    int kept = from;
    for (int p = from; p < out; p++) {
      if (v[p] != 0) {
        c[kept] = c[p];
        v[kept++] = v[p];
      }
    }
    return kept;
  }
}
