package io.github.sparkufs.linalg;

import java.util.List;

/**
 * The data matrix, the papers' {@code X} (d features × n samples), split into
 * {@link RowBlock}s of consecutive samples. Products that shrink the sample dimension (Gram,
 * {@code X F}) are computed per block and merged by a tree aggregate; products that keep it
 * ({@code Wᵀ X}) are computed per block and returned in sample order.
 *
 * <p>Per-sample matrices ({@code F}, {@code Y}, …) are passed as k × n matrices, column i
 * for sample i, shared with every block.
 */
public final class RowBlockMatrix implements Releasable {

  private final Partitioned<RowBlock> blocks;
  private final int numRows;
  private final int numCols;
  private final boolean sparse;
  private ColumnStatistics columnStatistics;

  public RowBlockMatrix(Partitioned<RowBlock> blocks, int numRows, int numCols) {
    this(blocks, numRows, numCols, false);
  }

  /** @param sparse whether the blocks are stored sparse ({@link RowBlock#isSparse()}) */
  public RowBlockMatrix(Partitioned<RowBlock> blocks, int numRows, int numCols, boolean sparse) {
    this.blocks = blocks;
    this.numRows = numRows;
    this.numCols = numCols;
    this.sparse = sparse;
  }

  /** A driver-only matrix over the given blocks. */
  public static RowBlockMatrix local(List<RowBlock> blocks) {
    int n = 0;
    int d = blocks.get(0).numCols();
    for (RowBlock b : blocks) {
      if (b.offset() != n) {
        throw new IllegalArgumentException("block at offset " + b.offset() + " follows " + n
            + " rows: blocks must be consecutive");
      }
      if (b.isSparse() != blocks.get(0).isSparse()) {
        throw new IllegalArgumentException("block at offset " + b.offset() + " is stored "
            + (b.isSparse() ? "sparse" : "dense") + ", the first one not: blocks must be alike");
      }
      n += b.numRows();
    }
    return new RowBlockMatrix(new LocalPartitioned<>(blocks), n, d, blocks.get(0).isSparse());
  }

  /** A driver-only matrix of one block: the papers' X (d × n). */
  public static RowBlockMatrix local(DenseMatrix x) {
    return local(List.of(new RowBlock(0, x)));
  }

  public Partitioned<RowBlock> blocks() {
    return blocks;
  }

  public Execution execution() {
    return blocks.execution();
  }

  /** Releases the cached blocks. */
  @Override
  public void release() {
    blocks.release();
  }

  /** n, the number of samples. */
  public int numRows() {
    return numRows;
  }

  /** d, the number of features. */
  public int numCols() {
    return numCols;
  }

  /**
   * Whether the blocks hold only the samples' non-zeros: then {@link #gram()},
   * {@link #multiply} and {@link #columnStatistics()} read the non-zeros
   * only, and the steps that read {@link RowBlock#columns()} fail.
   */
  public boolean isSparse() {
    return sparse;
  }

  /**
   * The d × d Gram matrix {@code X Xᵀ}, announced to {@link DriverMemory} before any work. With
   * fewer samples than features each block's d × d part would outweigh the samples themselves,
   * so the samples (d × n) are gathered and the Gram is formed once on the driver; sparse
   * samples, a fraction of that, always are.
   */
  public DenseMatrix gram() {
    requireGramMemory();
    if (sparse) {
      return RowBlock.stack(0, numCols, blocks.collect(b -> b), true).rows().columnGram();
    }
    if (numRows < numCols) {
      DriverMemory.require("the samples gathered for their Gram (n = " + numRows + ", d = "
          + numCols + ")", numCols, numRows);
      return concatColumns(numCols, blocks.collect(RowBlock::columns)).gram();
    }
    return blocks.aggregate(b -> b.columns().gram(), DenseMatrix::accumulate);
  }

  /**
   * Fails now, naming d and the bytes needed, unless the driver can hold {@link #gram()}: for
   * the methods that need the Gram only after other work, to call first.
   */
  public void requireGramMemory() {
    gramNeed(numCols).require();
  }

  /** The d × d Gram matrix {@link #gram()} of d features. */
  public static DriverMemory.Need gramNeed(int d) {
    return new DriverMemory.Need("the d x d Gram matrix X Xᵀ (d = " + d + ")", d, d);
  }

  /** The n × n kernel {@link #sampleGram} of n samples. */
  public static DriverMemory.Need sampleGramNeed(int n) {
    return new DriverMemory.Need("the n x n kernel of the samples (n = " + n + ")", n, n);
  }

  /** {@code X F} (d × k) for a per-sample matrix given as k × n ({@code Fᵀ}). */
  public DenseMatrix multiply(Shared<DenseMatrix> perSample) {
    return blocks.aggregate(b -> b.isSparse()
        ? b.rows().transposeMultiply(b.slice(perSample.get()))
        : b.columns().multiplyTranspose(b.slice(perSample.get())), DenseMatrix::accumulate);
  }

  /** {@code Wᵀ X} (k × n) for a d × k matrix {@code W}, assembled on the driver. */
  public DenseMatrix project(DenseMatrix w) {
    try (Shared<DenseMatrix> sw = execution().share(w)) {
      return concatColumns(w.cols(), blocks.collect(b -> sw.get().transposeMultiply(b.columns())));
    }
  }

  /**
   * {@code Wᵀ X} for a d × k matrix {@code W}, as k × n blocks aligned with X's, computed now and
   * cached until released.
   */
  public RowBlockMatrix projected(DenseMatrix w) {
    try (Shared<DenseMatrix> sw = execution().share(w)) {
      return new RowBlockMatrix(
          blocks.map(b -> new RowBlock(b.offset(), sw.get().transposeMultiply(b.columns()))),
          numRows, w.cols());
    }
  }

  /** The samples with the given ascending global indices, as a d × m driver matrix. */
  public DenseMatrix gatherColumns(int[] sortedIndices) {
    List<DenseMatrix> parts = blocks.collect(b -> {
      int lo = lowerBound(sortedIndices, b.offset());
      int hi = lowerBound(sortedIndices, b.offset() + b.numRows());
      DenseMatrix out = new DenseMatrix(b.numCols(), hi - lo);
      for (int p = lo; p < hi; p++) {
        System.arraycopy(b.columns().data(), (sortedIndices[p] - b.offset()) * b.numCols(),
            out.data(), (p - lo) * b.numCols(), b.numCols());
      }
      return out;
    });
    return concatColumns(numCols, parts);
  }

  private static int lowerBound(int[] ascending, int key) {
    int lo = 0;
    int hi = ascending.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ascending[mid] < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * Per-feature mean, variance, minimum and maximum: one pass over the blocks, the first time
   * it is asked for (the solver's scaling and the glue's constant-feature check share it).
   */
  public synchronized ColumnStatistics columnStatistics() {
    if (columnStatistics == null) {
      columnStatistics = blocks.aggregate(ColumnStatistics::of, ColumnStatistics::merge);
    }
    return columnStatistics;
  }

  /** A copy with the per-feature mean removed from every sample (cached). */
  public RowBlockMatrix centered() {
    return centered(null);
  }

  /**
   * A copy with the per-feature mean removed from every sample and feature j then multiplied by
   * {@code factors[j]} (cached); null factors leave the units as they are
   * ({@link FeatureScaling#factors}). The means are those of {@link #columnStatistics()}, and
   * the copy's statistics are derived from them ({@link ColumnStatistics#centered}): no pass of
   * its own.
   */
  public RowBlockMatrix centered(double[] factors) {
    ColumnStatistics stats = columnStatistics();
    double[] mean = stats.means();
    RowBlockMatrix copy = new RowBlockMatrix(blocks.map(b -> {
      DenseMatrix c = b.columns().copy();
      double[] v = c.data();
      for (int i = 0; i < b.numRows(); i++) {
        for (int j = 0; j < mean.length; j++) {
          double centred = v[i * mean.length + j] - mean[j];
          v[i * mean.length + j] = factors == null ? centred : centred * factors[j];
        }
      }
      return new RowBlock(b.offset(), c);
    }), numRows, numCols);
    copy.columnStatistics = stats.centered(factors);
    return copy;
  }

  /**
   * The n × n kernel {@code Xᵀ diag(s) X} of the samples under feature weights {@code s}, by one
   * pass over all pairs of blocks; announced to {@link DriverMemory} before any work.
   */
  public DenseMatrix sampleGram(double[] s) {
    if (s.length != numCols) {
      throw new IllegalArgumentException(s.length + " feature weights for " + numCols
          + " features");
    }
    int n = numRows;
    sampleGramNeed(n).require();
    Partitioned<DenseMatrix> stripes = blocks.crossMerge((a, b) -> {
      DenseMatrix scaled = a.columns().copy();
      double[] v = scaled.data();
      int dd = s.length;
      for (int i = 0; i < a.numRows(); i++) {
        for (int j = 0; j < dd; j++) {
          v[i * dd + j] *= s[j];
        }
      }
      DenseMatrix piece = scaled.transposeMultiply(b.columns());
      DenseMatrix stripe = new DenseMatrix(a.numRows(), n);
      System.arraycopy(piece.data(), 0, stripe.data(), b.offset() * a.numRows(),
          piece.data().length);
      return stripe;
    }, DenseMatrix::accumulate);
    List<DenseMatrix> parts;
    try (stripes) {
      parts = stripes.collect(m -> m);
    }
    DenseMatrix k = new DenseMatrix(n, n);
    int row = 0;
    for (DenseMatrix p : parts) {
      for (int j = 0; j < n; j++) {
        System.arraycopy(p.data(), j * p.rows(), k.data(), j * n + row, p.rows());
      }
      row += p.rows();
    }
    return k;
  }

  /** Places k × n_b parts side by side, in sample order. */
  public static DenseMatrix concatColumns(int k, List<DenseMatrix> parts) {
    int n = 0;
    for (DenseMatrix p : parts) {
      n += p.cols();
    }
    DenseMatrix out = new DenseMatrix(k, n);
    int at = 0;
    for (DenseMatrix p : parts) {
      System.arraycopy(p.data(), 0, out.data(), at, p.data().length);
      at += p.data().length;
    }
    return out;
  }
}
