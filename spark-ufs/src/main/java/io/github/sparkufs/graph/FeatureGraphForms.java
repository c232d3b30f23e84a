package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.DoubleArrays;
import io.github.sparkufs.linalg.Execution;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.ResourceScope;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.linalg.SparseRowMatrix;

/**
 * Per-feature sums over a sample graph S with node weights (degrees) D, each feature f being a
 * row of the papers' X: {@code fᵀD1}, {@code fᵀDf}, {@code fᵀf} and {@code fᵀSf}. These give
 * the Laplacian Score and the spectral scores φ1 and φ2 of Zhao and Liu (since
 * {@code fᵀLf = fᵀDf − fᵀSf} for {@code L = D − S}). Two passes: one aggregate for the
 * weighted moments and one {@link Partitioned#crossMerge} for the graph form, which reads each
 * sample's neighbours wherever their block lives; S is sparse, never dense. Sparse data blocks
 * are read by their non-zeros, with the same sums.
 */
public final class FeatureGraphForms {

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
    double[] moments;
    double[] sfs;
    try (ResourceScope scope = new ResourceScope()) {
      Shared<SparseRowMatrix> shared = scope.keep(ex.share(s));
      Shared<double[]> sharedDegree = scope.keep(ex.share(degree));
      ex.describe("degree-weighted moments");
      moments = x.blocks().aggregate(b -> {
        double[] m = new double[3 * d];
        double[] deg = sharedDegree.get();
        if (b.isSparse()) {
          return sparseMoments(b, deg, m);
        }
        double[] v = b.columns().data();
        for (int i = 0; i < b.numRows(); i++) {
          double w = deg[b.offset() + i];
          for (int j = 0; j < d; j++) {
            double f = v[i * d + j];
            m[j] += w * f;
            m[d + j] += w * f * f;
            m[2 * d + j] += f * f;
          }
        }
        return m;
      }, DoubleArrays::accumulate);
      ex.describe("graph quadratic forms");
      Partitioned<double[]> cross = scope.keep(x.blocks().crossMerge((a, b) -> {
        SparseRowMatrix g = shared.get();
        double[] out = new double[d];
        int lo = b.offset();
        int hi = lo + b.numRows();
        for (int i = 0; i < a.numRows(); i++) {
          int row = a.offset() + i;
          for (int p = g.rowStart(row); p < g.rowStart(row + 1); p++) {
            int col = g.column(p);
            if (col >= lo && col < hi) {
              addProducts(out, g.value(p), a, i, b, col - lo);
            }
          }
        }
        return out;
      }, DoubleArrays::accumulate));
      sfs = cross.aggregate(v -> v.clone(), DoubleArrays::accumulate);
    }
    double[] sums = new double[d];
    double[] weighted = new double[d];
    double[] plain = new double[d];
    System.arraycopy(moments, 0, sums, 0, d);
    System.arraycopy(moments, d, weighted, 0, d);
    System.arraycopy(moments, 2 * d, plain, 0, d);
    return new FeatureGraphForms(sums, weighted, plain, sfs);
  }

  /** The moments of {@link #compute}'s first pass over a sparse block's non-zeros. */
  private static double[] sparseMoments(RowBlock b, double[] degree, double[] m) {
    SparseRowMatrix rows = b.rows();
    int d = rows.numCols();
    for (int i = 0; i < rows.numRows(); i++) {
      double w = degree[b.offset() + i];
      for (int p = rows.rowStart(i); p < rows.rowStart(i + 1); p++) {
        int j = rows.column(p);
        double f = rows.value(p);
        m[j] += w * f;
        m[d + j] += w * f * f;
        m[2 * d + j] += f * f;
      }
    }
    return m;
  }

  /**
   * Adds {@code w a_i ∘ b_k}, the products of two samples' features, to {@code out}: of the
   * features both store, for sparse blocks (a merge of their sorted columns).
   */
  private static void addProducts(double[] out, double w, RowBlock a, int i, RowBlock b, int k) {
    if (!a.isSparse()) {
      int d = out.length;
      double[] va = a.columns().data();
      double[] vb = b.columns().data();
      for (int j = 0; j < d; j++) {
        out[j] += w * va[i * d + j] * vb[k * d + j];
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
        out[jp] += w * ra.value(p++) * rb.value(q++);
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
