package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.DoubleArrays;
import io.github.sparkufs.linalg.Execution;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.Partitioned.Pieces;
import io.github.sparkufs.linalg.ResourceScope;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.linalg.SparseRowMatrix;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Per-feature sums over a sample graph S with node weights (degrees) D, each feature f being a
 * row of the papers' X: {@code fᵀD1}, {@code fᵀDf}, {@code fᵀf} and {@code fᵀSf}. These give
 * the Laplacian Score and the spectral scores φ1 and φ2 of Zhao and Liu (since
 * {@code fᵀLf = fᵀDf − fᵀSf} for {@code L = D − S}). One pass over each unordered pair of
 * blocks ({@link Partitioned#crossMergeOnce}), which reads each sample's neighbours wherever
 * their block lives: S is symmetric, so each edge {i, j} is read once, from the lower index,
 * and counted twice ({@code fᵀSf = Σ_i S_ii f_i² + 2 Σ_{i<j} S_ij f_i f_j}), and a block's pair
 * with itself adds the weighted moments of its samples. S is sparse, never dense. On the driver
 * the samples' chunks run on every core; partial sums are added in chunk order, so the result
 * does not depend on the thread count. Sparse data blocks are read by their non-zeros, with the
 * same sums.
 */
public final class FeatureGraphForms {

  /** Fewest samples per chunk, the unit of work of one thread and of the order of summation. */
  static final int MIN_CHUNK = 64;

  /** Most chunks per block: each holds 4d partial sums. */
  static final int MAX_CHUNKS = 64;

  private final double[] weightedSums;
  private final double[] weightedSquares;
  private final double[] squares;
  private final double[] graphForms;

  private FeatureGraphForms(double[] weightedSums, double[] weightedSquares, double[] squares,
      double[] graphForms) {
    this.weightedSums = weightedSums;
    this.weightedSquares = weightedSquares;
    this.squares = squares;
    this.graphForms = graphForms;
  }

  /**
   * @param x the data (d × n)
   * @param s the whole symmetric n × n graph
   * @param degree the node weights D_ii (length n)
   */
  public static FeatureGraphForms compute(RowBlockMatrix x, SparseRowMatrix s, double[] degree) {
    int d = x.numCols();
    if (degree.length != x.numRows() || s.numCols() != x.numRows()) {
      throw new IllegalArgumentException("graph on " + s.numCols() + " nodes with "
          + degree.length + " degrees for " + x.numRows() + " samples");
    }
    Execution ex = x.execution();
    // Spark runs a task per core already; on the driver the chunks take the cores.
    boolean parallel = !ex.isDistributed();
    double[] sums;
    try (ResourceScope scope = new ResourceScope()) {
      Shared<SparseRowMatrix> shared = scope.keep(ex.share(s));
      Shared<double[]> sharedDegree = scope.keep(ex.share(degree));
      ex.describe("degree-weighted moments and graph quadratic forms");
      Partitioned<double[]> pieces = scope.keep(x.blocks().crossMergeOnce((a, b) -> {
        int rows = a.numRows();
        int chunk = Math.max(MIN_CHUNK, (rows + MAX_CHUNKS - 1) / MAX_CHUNKS);
        IntStream chunks = IntStream.range(0, (rows + chunk - 1) / chunk);
        double[] out = new double[4 * d];
        (parallel ? chunks.parallel() : chunks)
            .mapToObj(c -> chunkSums(a, b, c * chunk, Math.min(rows, (c + 1) * chunk),
                shared.get(), sharedDegree.get()))
            .forEachOrdered(part -> DoubleArrays.accumulate(out, part));
        // Only the total is kept: a's piece carries the pair's sums, b's none.
        return new Pieces<>(out, new double[4 * d]);
      }, DoubleArrays::accumulate));
      sums = pieces.aggregate(v -> v.clone(), DoubleArrays::accumulate);
    }
    return new FeatureGraphForms(Arrays.copyOfRange(sums, 0, d),
        Arrays.copyOfRange(sums, d, 2 * d), Arrays.copyOfRange(sums, 2 * d, 3 * d),
        Arrays.copyOfRange(sums, 3 * d, 4 * d));
  }

  /**
   * The sums of a's samples [from, to) against b (a at or before b): {@code w f}, {@code w f²},
   * {@code f²} of each sample when a is b, then {@code fᵀSf}'s terms of the edges from those
   * samples to b's, each edge {i, j} taken from its lower index.
   */
  private static double[] chunkSums(RowBlock a, RowBlock b, int from, int to,
      SparseRowMatrix g, double[] degree) {
    int d = a.numCols();
    double[] out = new double[4 * d];
    boolean same = a.offset() == b.offset();
    if (same) {
      for (int i = from; i < to; i++) {
        addMoments(out, degree[a.offset() + i], a, i);
      }
    }
    int lo = b.offset();
    int hi = lo + b.numRows();
    for (int i = from; i < to; i++) {
      int row = a.offset() + i;
      for (int p = g.rowStart(row); p < g.rowStart(row + 1); p++) {
        int col = g.column(p);
        if (col >= lo && col < hi && col >= row) {
          addProducts(out, col == row ? g.value(p) : 2 * g.value(p), a, i, b, col - lo);
        }
      }
    }
    return out;
  }

  /** Adds sample i's {@code w f}, {@code w f²} and {@code f²} to the first 3d sums. */
  private static void addMoments(double[] out, double w, RowBlock a, int i) {
    int d = a.numCols();
    if (!a.isSparse()) {
      double[] v = a.columns().data();
      for (int j = 0; j < d; j++) {
        double f = v[i * d + j];
        out[j] += w * f;
        out[d + j] += w * f * f;
        out[2 * d + j] += f * f;
      }
      return;
    }
    SparseRowMatrix rows = a.rows();
    for (int p = rows.rowStart(i); p < rows.rowStart(i + 1); p++) {
      int j = rows.column(p);
      double f = rows.value(p);
      out[j] += w * f;
      out[d + j] += w * f * f;
      out[2 * d + j] += f * f;
    }
  }

  /**
   * Adds {@code w a_i ∘ b_k}, the products of two samples' features, to the last d sums: of
   * the features both store, for sparse blocks (a merge of their sorted columns).
   */
  private static void addProducts(double[] out, double w, RowBlock a, int i, RowBlock b, int k) {
    int d = a.numCols();
    int at = 3 * d;
    if (!a.isSparse()) {
      double[] va = a.columns().data();
      double[] vb = b.columns().data();
      for (int j = 0; j < d; j++) {
        out[at + j] += w * va[i * d + j] * vb[k * d + j];
      }
      return;
    }
    SparseRowMatrix ra = a.rows();
    SparseRowMatrix rb = b.rows();
    int p = ra.rowStart(i);
    int q = rb.rowStart(k);
    while (p < ra.rowStart(i + 1) && q < rb.rowStart(k + 1)) {
      int jp = ra.column(p);
      int jq = rb.column(q);
      if (jp == jq) {
        out[at + jp] += w * ra.value(p++) * rb.value(q++);
      } else if (jp < jq) {
        p++;
      } else {
        q++;
      }
    }
  }

  /** {@code fᵀD1} per feature. */
  public double[] weightedSums() {
    return weightedSums.clone();
  }

  /** {@code fᵀDf} per feature. */
  public double[] weightedSquares() {
    return weightedSquares.clone();
  }

  /** {@code fᵀf} per feature. */
  public double[] squares() {
    return squares.clone();
  }

  /** {@code fᵀSf} per feature. */
  public double[] graphForms() {
    return graphForms.clone();
  }
}
