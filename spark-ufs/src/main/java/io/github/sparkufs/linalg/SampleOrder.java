package io.github.sparkufs.linalg;

import java.util.Arrays;

/**
 * A renumbering of the n samples that puts samples close in space close in number (a k-d
 * tree's leaf order, say), for the sparse products over samples. A product {@code A V} reads,
 * for each row, the vectors of the row's neighbours; in the data's own order they lie anywhere
 * among the n vectors, a cache miss each. Renumbered, a row's neighbours lie near it, and rows
 * taken in order reuse what the previous rows brought into the cache: at n = 10⁶ a product of
 * FSASL's Laplacian in the k-d tree's order took 1.66 s instead of 3.07 s (docs/benchmarks.md,
 * "Scaling").
 *
 * <p>Position p holds sample {@code sampleAt[p]} ({@link #of}). Vectors are per-sample (k × n,
 * one column per sample), as everywhere in this package.
 */
public final class SampleOrder {

  private final int[] sampleAt;
  private final int[] positionOf;

  private SampleOrder(int[] sampleAt, int[] positionOf) {
    this.sampleAt = sampleAt;
    this.positionOf = positionOf;
  }

  /**
   * The order with sample {@code sampleAt[p]} at position p.
   *
   * @throws IllegalArgumentException if sampleAt is not a permutation of {@code 0 … n − 1}
   */
  public static SampleOrder of(int[] sampleAt) {
    int n = sampleAt.length;
    int[] positionOf = new int[n];
    Arrays.fill(positionOf, -1);
    for (int p = 0; p < n; p++) {
      int i = sampleAt[p];
      if (i < 0 || i >= n || positionOf[i] >= 0) {
        throw new IllegalArgumentException("not a permutation of 0 … " + (n - 1) + ": sample "
            + i + " at position " + p);
      }
      positionOf[i] = p;
    }
    return new SampleOrder(sampleAt.clone(), positionOf);
  }

  /** Number of samples. */
  public int size() {
    return sampleAt.length;
  }

  /**
   * {@code Π A Πᵀ} of a square matrix over the samples: row p is row {@code sampleAt[p]} of a,
   * with every column index renumbered the same way.
   */
  public SparseRowMatrix permute(SparseRowMatrix a) {
    int n = size();
    if (a.numRows() != n || a.numCols() != n || a.firstRow() != 0) {
      throw new IllegalArgumentException("a " + a.numRows() + " × " + a.numCols()
          + " matrix from row " + a.firstRow() + " for an order of " + n + " samples");
    }
    int[] rowPtr = new int[n + 1];
    int[] cols = new int[a.numEntries()];
    double[] values = new double[cols.length];
    int at = 0;
    for (int p = 0; p < n; p++) {
      int i = sampleAt[p];
      for (int q = a.rowStart(i); q < a.rowStart(i + 1); q++) {
        cols[at] = positionOf[a.column(q)];
        values[at++] = a.value(q);
      }
      rowPtr[p + 1] = at;
    }
    return SparseRowMatrix.fromCompressedRows(n, rowPtr, cols, values);
  }

  /** Per-sample vectors (k × n) in this order: column p is column {@code sampleAt[p]}. */
  public DenseMatrix toOrder(DenseMatrix perSample) {
    return gather(perSample, sampleAt);
  }

  /** The inverse of {@link #toOrder}: back to the samples' own order. */
  public DenseMatrix fromOrder(DenseMatrix ordered) {
    return gather(ordered, positionOf);
  }

  /** Values given one per position back in the samples' own order. */
  public double[] fromOrder(double[] ordered) {
    double[] out = new double[ordered.length];
    for (int p = 0; p < out.length; p++) {
      out[sampleAt[p]] = ordered[p];
    }
    return out;
  }

  /** Column j of the result is column {@code source[j]} of v. */
  private DenseMatrix gather(DenseMatrix v, int[] source) {
    if (v.cols() != size()) {
      throw new IllegalArgumentException(v.shape() + " vectors for an order of " + size()
          + " samples");
    }
    int k = v.rows();
    DenseMatrix out = new DenseMatrix(k, source.length);
    for (int j = 0; j < source.length; j++) {
      System.arraycopy(v.data(), source[j] * k, out.data(), j * k, k);
    }
    return out;
  }
}
