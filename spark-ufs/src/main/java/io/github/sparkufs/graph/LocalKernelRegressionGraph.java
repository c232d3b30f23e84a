package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.SparseRowMatrix;
import java.util.ArrayList;
import java.util.List;

/**
 * The local kernel regression graph of RSFS (Shi, Du and Shen, ICDM 2014, Eq. 2–3): sample i
 * predicts its label as the kernel-weighted mean of its k nearest neighbours N_i, so
 * {@code S_ij = K(x_i, x_j) / Σ_{j' ∈ N_i} K(x_i, x_j')} for j ∈ N_i and 0 otherwise. S is
 * row-stochastic and not symmetric.
 *
 * <p>The kernel is Gaussian, {@code K(x_i, x_j) = exp(−||x_i − x_j||² / σ²)}, parametrised like
 * {@link HeatKernelGraph} so that one width means the same thing across methods; σ ≤ 0 selects
 * the default width, the mean distance from each sample to its k-th nearest neighbour. Since
 * each row is normalised, the kernel is evaluated relative to the row's nearest neighbour
 * ({@code exp(−(d²_ij − min_j' d²_ij') / σ²)}, the same S), which keeps a row from underflowing
 * to zero for a small σ.
 *
 * <p>The embedding term of Eq. 5 uses {@code M = B − S − Sᵀ} with B the degree matrix of
 * {@code S + Sᵀ}; this class keeps {@code S + Sᵀ} ({@link #symmetric()}) and B's diagonal
 * ({@link #degrees()}), never a dense n × n matrix. S has no self-loops, so {@code S + Sᵀ} is
 * zero on the diagonal and the split of Eq. 18 is {@code M⁺ = B}, {@code M⁻ = S + Sᵀ}.
 */
public final class LocalKernelRegressionGraph {

  private final SparseRowMatrix regression;
  private final SparseRowMatrix symmetric;
  private final double[] degrees;
  private final double width;

  private LocalKernelRegressionGraph(SparseRowMatrix regression, double width) {
    this.regression = regression;
    this.symmetric = regression.plusTranspose();
    this.degrees = symmetric.rowSums();
    this.width = width;
  }

  /**
   * Builds the graph over the samples of {@code x} on the exact neighbour lists; σ ≤ 0 selects
   * the default width.
   */
  public static LocalKernelRegressionGraph build(RowBlockMatrix x, int k, double width) {
    return build(x, k, width, KnnSearch.exact());
  }

  /** Builds the graph on the neighbour lists {@code knn} finds; σ ≤ 0 selects the default width. */
  public static LocalKernelRegressionGraph build(RowBlockMatrix x, int k, double width,
      KnnSearch knn) {
    return fromNeighbors(knn.searchAll(x, k), x.numRows(), width);
  }

  /** The graph from precomputed neighbour lists; σ ≤ 0 selects the default width. */
  public static LocalKernelRegressionGraph fromNeighbors(List<NeighborLists> lists, int n,
      double width) {
    double s = width > 0 ? width : KnnGraphs.meanKthNeighborDistance(lists);
    double s2 = s > 0 ? s * s : 1.0;
    List<NeighborLists> relative = new ArrayList<>(lists.size());
    for (NeighborLists l : lists) {
      relative.add(relativeToNearest(l));
    }
    SparseRowMatrix kernel = KnnGraphs.fromNeighbors(relative, n, d2 -> Math.exp(-d2 / s2));
    return new LocalKernelRegressionGraph(kernel.rowNormalized(), s);
  }

  /** The lists with each row's squared distances reduced by the row's smallest one. */
  private static NeighborLists relativeToNearest(NeighborLists l) {
    int k = l.k();
    int rows = l.numRows();
    int[] idx = new int[rows * k];
    double[] dist = new double[rows * k];
    for (int i = 0; i < rows; i++) {
      double nearest = l.distance(i, 0);
      for (int r = 0; r < k; r++) {
        idx[i * k + r] = l.index(i, r);
        dist[i * k + r] = l.distance(i, r) - nearest;
      }
    }
    return new NeighborLists(l.offset(), k, idx, dist);
  }

  /** S, the row-stochastic regression weights of Eq. 3 (whole graph). */
  public SparseRowMatrix regression() {
    return regression;
  }

  /** {@code S + Sᵀ}, the off-diagonal part {@code M⁻} of M (whole graph). */
  public SparseRowMatrix symmetric() {
    return symmetric;
  }

  /** The diagonal of B, the degree matrix of {@code S + Sᵀ} ({@code M⁺}); not a copy. */
  public double[] degrees() {
    return degrees;
  }

  /** The kernel width σ used. */
  public double width() {
    return width;
  }
}
