package io.github.sparkufs.linalg;

import java.io.Serializable;
import java.util.List;

/**
 * A contiguous run of samples: rows {@code [offset, offset + numRows)} of the data, stored
 * either dense, as the papers' {@code X} block (d × numRows column-major, one column per
 * sample), or sparse, as the samples' non-zeros ({@link SparseRowMatrix}, one row per sample).
 * Sparse blocks serve the methods whose kernels read only the non-zeros (column statistics,
 * sample inner products, graph forms, {@code X F}); every other step reads {@link #columns()}
 * and so needs a dense block.
 */
public final class RowBlock implements Serializable {

  private static final long serialVersionUID = 2L;

  private final int offset;
  private final DenseMatrix columns;
  private final SparseRowMatrix rows;

  /** A dense block: {@code columns} is d × numRows, one column per sample. */
  public RowBlock(int offset, DenseMatrix columns) {
    this(offset, columns, null);
  }

  /** A sparse block: row i of {@code rows} is sample {@code offset + i}. */
  public RowBlock(int offset, SparseRowMatrix rows) {
    this(offset, null, rows);
  }

  private RowBlock(int offset, DenseMatrix columns, SparseRowMatrix rows) {
    if (offset < 0) {
      throw new IllegalArgumentException("negative row offset " + offset);
    }
    this.offset = offset;
    this.columns = columns;
    this.rows = rows;
  }

  /**
   * Consecutive blocks (their offsets ignored) as one block at {@code offset}, of d features,
   * stored sparse or dense whatever the parts are (a single part stored so is not copied).
   */
  public static RowBlock stack(int offset, int d, List<RowBlock> parts, boolean sparse) {
    if (parts.size() == 1 && parts.get(0).isSparse() == sparse) {
      return new RowBlock(offset, parts.get(0).columns, parts.get(0).rows);
    }
    int n = parts.stream().mapToInt(RowBlock::numRows).sum();
    if (!sparse) {
      DenseMatrix out = new DenseMatrix(d, n);
      int at = 0;
      for (RowBlock p : parts) {
        if (p.isSparse()) {
          for (int i = 0; i < p.numRows(); i++) {
            for (int e = p.rows.rowStart(i); e < p.rows.rowStart(i + 1); e++) {
              out.data()[(at + i) * d + p.rows.column(e)] = p.rows.value(e);
            }
          }
        } else {
          System.arraycopy(p.columns.data(), 0, out.data(), at * d, p.columns.data().length);
        }
        at += p.numRows();
      }
      return new RowBlock(offset, out);
    }
    long entries = parts.stream().mapToLong(RowBlock::nonZeros).sum();
    int[] rowPtr = new int[n + 1];
    int[] cols = new int[DriverMemory.checkedLength("a sparse block's entries", entries, 1)];
    double[] values = new double[cols.length];
    int row = 0;
    int at = 0;
    for (RowBlock p : parts) {
      for (int i = 0; i < p.numRows(); i++, row++) {
        if (p.isSparse()) {
          for (int e = p.rows.rowStart(i); e < p.rows.rowStart(i + 1); e++) {
            cols[at] = p.rows.column(e);
            values[at++] = p.rows.value(e);
          }
        } else {
          for (int j = 0; j < d; j++) {
            double v = p.columns.data()[i * d + j];
            if (v != 0) {
              cols[at] = j;
              values[at++] = v;
            }
          }
        }
        rowPtr[row + 1] = at;
      }
    }
    return new RowBlock(offset, SparseRowMatrix.fromCompressedRows(d, rowPtr, cols, values));
  }

  /** Global index of the first sample. */
  public int offset() {
    return offset;
  }

  public int numRows() {
    return isSparse() ? rows.numRows() : columns.cols();
  }

  public int numCols() {
    return isSparse() ? rows.numCols() : columns.rows();
  }

  /** Whether the block holds only its samples' non-zeros ({@link #rows()}). */
  public boolean isSparse() {
    return rows != null;
  }

  /**
   * The dense block as d × numRows, one column per sample (not a copy).
   *
   * @throws IllegalStateException for a sparse block
   */
  public DenseMatrix columns() {
    if (isSparse()) {
      throw new IllegalStateException("rows [" + offset + ", " + (offset + numRows())
          + ") are stored sparse; this step reads dense blocks");
    }
    return columns;
  }

  /**
   * The sparse block's samples, one row each (not a copy).
   *
   * @throws IllegalStateException for a dense block
   */
  public SparseRowMatrix rows() {
    if (!isSparse()) {
      throw new IllegalStateException("rows [" + offset + ", " + (offset + numRows())
          + ") are stored dense");
    }
    return rows;
  }

  /** The values the block stores: d · numRows when dense, its non-zeros when sparse. */
  public long storedValues() {
    return isSparse() ? rows.numEntries() : (long) columns.rows() * columns.cols();
  }

  private long nonZeros() {
    if (isSparse()) {
      return rows.numEntries();
    }
    long count = 0;
    for (double v : columns.data()) {
      count += v != 0 ? 1 : 0;
    }
    return count;
  }

  /** Local samples {@code [from, from + count)}, as a block stored the same way. */
  public RowBlock range(int from, int count) {
    return isSparse() ? new RowBlock(offset + from, rows.rows(from, count))
        : new RowBlock(offset + from, columns.columns(from, count));
  }

  /** The squared Euclidean norm of each sample. */
  public double[] normsSquared() {
    return isSparse() ? rows.rowSumsOfSquares() : columns.columnNormsSquared();
  }

  /**
   * The inner products of this block's samples with {@code other}'s, numRows ×
   * other.numRows: one GEMM when dense, the matching non-zeros only when sparse.
   */
  public DenseMatrix innerProducts(RowBlock other) {
    return isSparse() ? rows.multiplyTranspose(other.rows())
        : columns.transposeMultiply(other.columns());
  }

  /**
   * {@code ‖x_i − y_j‖²} of local sample i and {@code other}'s local sample j (a block stored the
   * same way): {@link DoubleArrays#squaredDistance} of the two, the same value whichever blocks
   * hold them, and either way round; of sparse samples the same bits, as the zeros they leave
   * out add exactly nothing.
   */
  public double squaredDistance(int i, RowBlock other, int j) {
    if (isSparse()) {
      double sum = 0;
      SparseRowMatrix o = other.rows;
      int p = rows.rowStart(i);
      int pEnd = rows.rowStart(i + 1);
      int q = o.rowStart(j);
      int qEnd = o.rowStart(j + 1);
      while (p < pEnd || q < qEnd) {
        int cp = p < pEnd ? rows.column(p) : Integer.MAX_VALUE;
        int cq = q < qEnd ? o.column(q) : Integer.MAX_VALUE;
        double diff = cp == cq ? rows.value(p++) - o.value(q++)
            : cp < cq ? rows.value(p++) : -o.value(q++);
        sum += diff * diff;
      }
      return sum;
    }
    int d = columns.rows();
    return DoubleArrays.squaredDistance(columns.data(), i * d, other.columns.data(), j * d, d);
  }

  /** Value of feature {@code j} of local sample {@code i}. */
  public double get(int i, int j) {
    return isSparse() ? rows.get(i, j) : columns.data()[i * columns.rows() + j];
  }

  /** This block's columns {@code [offset, offset + numRows)} of a per-sample matrix (k × n). */
  public DenseMatrix slice(DenseMatrix perSample) {
    return perSample.columns(offset, numRows());
  }
}
