package io.github.sparkufs.linalg;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A small dense matrix in column-major order, the layout BLAS and LAPACK use.
 *
 * <p>Per-sample data follow the papers' orientation: a data block is the papers' {@code X}
 * (d × n, one column per sample) and a per-sample factor such as NDFS's {@code F} (n × c in
 * the papers) is stored transposed, c × n, so that each sample's values are contiguous.
 */
public final class DenseMatrix implements Serializable {

  private static final long serialVersionUID = 1L;

  private final int rows;
  private final int cols;
  private final double[] data;

  /** A zero matrix. */
  public DenseMatrix(int rows, int cols) {
    this(rows, cols, new double[checkedSize(rows, cols)]);
  }

  /** Wraps {@code data} (column-major, not copied). */
  public DenseMatrix(int rows, int cols, double[] data) {
    if (data.length != checkedSize(rows, cols)) {
      throw new IllegalArgumentException("data has " + data.length + " values, expected "
          + rows + " x " + cols);
    }
    this.rows = rows;
    this.cols = cols;
    this.data = data;
  }

  private static int checkedSize(int rows, int cols) {
    return DriverMemory.checkedLength("a dense matrix", rows, cols);
  }

  /** The n × n identity. */
  public static DenseMatrix identity(int n) {
    DenseMatrix m = new DenseMatrix(n, n);
    for (int i = 0; i < n; i++) {
      m.data[i * n + i] = 1.0;
    }
    return m;
  }

  /** A diagonal matrix. */
  public static DenseMatrix diagonal(double[] diag) {
    int n = diag.length;
    DenseMatrix m = new DenseMatrix(n, n);
    for (int i = 0; i < n; i++) {
      m.data[i * n + i] = diag[i];
    }
    return m;
  }

  public int rows() {
    return rows;
  }

  public int cols() {
    return cols;
  }

  /** The backing column-major array (not a copy). */
  public double[] data() {
    return data;
  }

  public double get(int i, int j) {
    return data[j * rows + i];
  }

  public void set(int i, int j, double v) {
    data[j * rows + i] = v;
  }

  public DenseMatrix copy() {
    return new DenseMatrix(rows, cols, data.clone());
  }

  public DenseMatrix transpose() {
    DenseMatrix t = new DenseMatrix(cols, rows);
    for (int j = 0; j < cols; j++) {
      for (int i = 0; i < rows; i++) {
        t.data[i * cols + j] = data[j * rows + i];
      }
    }
    return t;
  }

  /** Columns {@code [from, from + count)} as a new matrix. */
  public DenseMatrix columns(int from, int count) {
    return new DenseMatrix(rows, count,
        Arrays.copyOfRange(data, from * rows, (from + count) * rows));
  }

  /** {@code this × b}. */
  public DenseMatrix multiply(DenseMatrix b) {
    return gemm(false, false, 1.0, this, b);
  }

  /** {@code thisᵀ × b}. */
  public DenseMatrix transposeMultiply(DenseMatrix b) {
    return gemm(true, false, 1.0, this, b);
  }

  /** {@code this × bᵀ}. */
  public DenseMatrix multiplyTranspose(DenseMatrix b) {
    return gemm(false, true, 1.0, this, b);
  }

  /** {@code alpha · op(a) × op(b)} with {@code op} the transpose where asked. */
  public static DenseMatrix gemm(boolean transA, boolean transB, double alpha,
      DenseMatrix a, DenseMatrix b) {
    return new DenseMatrix(transA ? a.cols : a.rows, transB ? b.rows : b.cols)
        .addProductInPlace(transA, transB, alpha, a, b);
  }

  /**
   * {@code this += alpha · op(a) × op(b)}, in place (BLAS {@code dgemm} with β = 1, no
   * temporary of this size); returns this.
   */
  public DenseMatrix addProductInPlace(boolean transA, boolean transB, double alpha,
      DenseMatrix a, DenseMatrix b) {
    int m = transA ? a.cols : a.rows;
    int k = transA ? a.rows : a.cols;
    int kb = transB ? b.cols : b.rows;
    int n = transB ? b.rows : b.cols;
    if (k != kb) {
      throw new IllegalArgumentException("inner dimensions differ: " + a.shape()
          + (transA ? "ᵀ" : "") + " × " + b.shape() + (transB ? "ᵀ" : ""));
    }
    if (m != rows || n != cols) {
      throw new IllegalArgumentException("a product of " + m + " x " + n + " added to "
          + shape());
    }
    if (m == 0 || n == 0 || k == 0) {
      return this;
    }
    LinalgBackend.blas().dgemm(transA ? "T" : "N", transB ? "T" : "N", m, n, k, alpha,
        a.data, Math.max(1, a.rows), b.data, Math.max(1, b.rows), 1.0, data, Math.max(1, m));
    return this;
  }

  /** {@code this · thisᵀ} (symmetric, full storage), by BLAS {@code dsyrk}. */
  public DenseMatrix gram() {
    DenseMatrix c = new DenseMatrix(rows, rows);
    if (rows == 0 || cols == 0) {
      return c;
    }
    LinalgBackend.blas().dsyrk("U", "N", rows, cols, 1.0, data, rows, 0.0, c.data, rows);
    c.symmetrizeFromUpper();
    return c;
  }

  /** Copies the upper triangle into the lower one. */
  public void symmetrizeFromUpper() {
    requireSquare();
    for (int j = 0; j < cols; j++) {
      for (int i = j + 1; i < rows; i++) {
        data[j * rows + i] = data[i * rows + j];
      }
    }
  }

  /** {@code this += alpha · b}, in place; returns this. */
  public DenseMatrix addInPlace(double alpha, DenseMatrix b) {
    requireSameShape(b);
    for (int i = 0; i < data.length; i++) {
      data[i] += alpha * b.data[i];
    }
    return this;
  }

  /** {@code a += b}, returning {@code a}: the merge step of sums over blocks. */
  public static DenseMatrix accumulate(DenseMatrix a, DenseMatrix b) {
    return a.addInPlace(1.0, b);
  }

  /** {@code this *= s}, in place; returns this. */
  public DenseMatrix scaleInPlace(double s) {
    for (int i = 0; i < data.length; i++) {
      data[i] *= s;
    }
    return this;
  }

  /** Adds {@code diag[i]} to entry (i, i), in place; returns this. */
  public DenseMatrix addDiagonalInPlace(double[] diag) {
    requireSquare();
    if (diag.length != rows) {
      throw new IllegalArgumentException("diagonal of length " + diag.length + " for " + shape());
    }
    for (int i = 0; i < rows; i++) {
      data[i * rows + i] += diag[i];
    }
    return this;
  }

  /**
   * Adds {@code v diag(s)} (column j of v times s_j), in place; returns this. For vectors in the
   * per-sample orientation (one per row) it applies the diagonal operator diag(s) to each.
   */
  public DenseMatrix addScaledColumnsInPlace(DenseMatrix v, double[] s) {
    if (v.rows != rows || v.cols != cols || s.length != cols) {
      throw new IllegalArgumentException(shape() + " plus " + v.shape() + " times a diagonal "
          + "of length " + s.length);
    }
    for (int j = 0; j < cols; j++) {
      for (int i = 0; i < rows; i++) {
        data[j * rows + i] += s[j] * v.data[j * rows + i];
      }
    }
    return this;
  }

  /** The largest absolute column sum (the 1-norm; for a symmetric matrix, Gershgorin's bound). */
  public double maxAbsColumnSum() {
    double max = 0;
    for (int j = 0; j < cols; j++) {
      double sum = 0;
      for (int i = 0; i < rows; i++) {
        sum += Math.abs(data[j * rows + i]);
      }
      max = Math.max(max, sum);
    }
    return max;
  }

  /** Adds {@code v} to every diagonal entry, in place; returns this. */
  public DenseMatrix addDiagonalInPlace(double v) {
    requireSquare();
    for (int i = 0; i < rows; i++) {
      data[i * rows + i] += v;
    }
    return this;
  }

  /** Squared Euclidean norm of each row. */
  public double[] rowNormsSquared() {
    double[] out = new double[rows];
    for (int j = 0; j < cols; j++) {
      int base = j * rows;
      for (int i = 0; i < rows; i++) {
        double v = data[base + i];
        out[i] += v * v;
      }
    }
    return out;
  }

  /** Squared Euclidean norm of each column. */
  public double[] columnNormsSquared() {
    double[] out = new double[cols];
    for (int j = 0; j < cols; j++) {
      double s = 0;
      int base = j * rows;
      for (int i = 0; i < rows; i++) {
        s += data[base + i] * data[base + i];
      }
      out[j] = s;
    }
    return out;
  }

  /** Sum of squares of all entries. */
  public double frobeniusNormSquared() {
    double s = 0;
    for (double v : data) {
      s += v * v;
    }
    return s;
  }

  public double trace() {
    requireSquare();
    double s = 0;
    for (int i = 0; i < rows; i++) {
      s += data[i * rows + i];
    }
    return s;
  }

  /** {@code Σ_ij this_ij · b_ij}, i.e. {@code Tr(thisᵀ b)}. */
  public double dot(DenseMatrix b) {
    requireSameShape(b);
    double s = 0;
    for (int i = 0; i < data.length; i++) {
      s += data[i] * b.data[i];
    }
    return s;
  }

  public String shape() {
    return rows + " x " + cols;
  }

  private void requireSquare() {
    if (rows != cols) {
      throw new IllegalArgumentException("expected a square matrix, got " + shape());
    }
  }

  private void requireSameShape(DenseMatrix b) {
    if (rows != b.rows || cols != b.cols) {
      throw new IllegalArgumentException("shapes differ: " + shape() + " and " + b.shape());
    }
  }

  @Override
  public String toString() {
    return "DenseMatrix(" + shape() + ")";
  }
}
