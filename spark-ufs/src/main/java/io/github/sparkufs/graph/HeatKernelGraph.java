package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.SparseRowMatrix;
import java.util.ArrayList;
import java.util.List;

/**
 * The symmetrised heat-kernel kNN graph of the NDFS paper (Li et al., AAAI 2012, the affinity
 * S defined before its Eq. 5) and the Laplacian Score (He, Cai and Niyogi, NIPS 2005):
 * {@code S_ij = exp(−||x_i − x_j||² / σ²)} when i is among j's k nearest neighbours or j among
 * i's, else 0. The default width σ (when the given one is not positive) is the mean distance
 * from each sample to its k-th nearest neighbour, which makes the weights scale-free.
 *
 * <p>The self-tuning variant (Zelnik-Manor and Perona, NIPS 2004) gives each sample its own
 * width instead: {@code S_ij = exp(−||x_i − x_j||² / (σ_i σ_j))} with σ_i the distance from
 * sample i to its k-th nearest neighbour, so dense and sparse regions of the data get edges of
 * comparable weight.
 */
public final class HeatKernelGraph {

  private final SparseRowMatrix graph;
  private final double sigma;
  private final int numNeighbors;

  private HeatKernelGraph(SparseRowMatrix graph, double sigma, int numNeighbors) {
    this.graph = graph;
    this.sigma = sigma;
    this.numNeighbors = numNeighbors;
  }

  /** Builds the graph on the exact neighbour lists; σ ≤ 0 selects the default width. */
  public static HeatKernelGraph build(RowBlockMatrix x, int k, double sigma) {
    return build(x, k, sigma, KnnSearch.exact());
  }

  /** Builds the graph on the lists {@code knn} finds; σ ≤ 0 selects the default width. */
  public static HeatKernelGraph build(RowBlockMatrix x, int k, double sigma, KnnSearch knn) {
    return fromNeighbors(knn.searchAll(x, k), x.numRows(), sigma);
  }

  /**
   * Builds the graph on each sample's first k' neighbours, k' the least in
   * {@code [k, maxK]} for which the graph has at most {@code maxPieces} connected components
   * ({@code maxK} when none has), from one search of maxK neighbours; σ ≤ 0 selects the default
   * width. A kNN graph stays connected only when k grows like log n (von Luxburg 2007, §8.1):
   * with more pieces than clusters, the smallest eigenvectors of its Laplacian are the
   * indicators of pieces that are not clusters.
   */
  public static HeatKernelGraph withAtMostPieces(RowBlockMatrix x, int k, int maxK,
      int maxPieces, double sigma, KnnSearch knn) {
    if (maxK < k) {
      throw new IllegalArgumentException("maxK must be >= k = " + k + ", got " + maxK);
    }
    int n = x.numRows();
    List<NeighborLists> lists = knn.searchAll(x, maxK);
    UnionFind pieces = new UnionFind(n);
    int used = 0;
    while (used < k || (pieces.count() > maxPieces && used < maxK)) {
      for (NeighborLists l : lists) {
        for (int i = 0; i < l.numRows(); i++) {
          pieces.union(l.offset() + i, l.index(i, used));
        }
      }
      used++;
    }
    List<NeighborLists> first = new ArrayList<>();
    for (NeighborLists l : lists) {
      first.add(l.first(used));
    }
    return fromNeighbors(first, n, sigma);
  }

  /** The graph from precomputed neighbour lists; σ ≤ 0 selects the default width. */
  public static HeatKernelGraph fromNeighbors(List<NeighborLists> lists, int n, double sigma) {
    double s = sigma > 0 ? sigma : KnnGraphs.meanKthNeighborDistance(lists);
    double s2 = s > 0 ? s * s : 1.0;
    SparseRowMatrix directed = KnnGraphs.fromNeighbors(lists, n, d2 -> Math.exp(-d2 / s2));
    return new HeatKernelGraph(directed.symmetrizeMax(), s, lists.get(0).k());
  }

  /**
   * Builds the self-tuning graph on the exact neighbour lists, σ_i = the distance from sample i
   * to its k-th neighbour.
   */
  public static HeatKernelGraph selfTuning(RowBlockMatrix x, int k) {
    return selfTuning(x, k, KnnSearch.exact());
  }

  /** Builds the self-tuning graph on the lists {@code knn} finds. */
  public static HeatKernelGraph selfTuning(RowBlockMatrix x, int k, KnnSearch knn) {
    return selfTuning(knn.searchAll(x, k), x.numRows());
  }

  /** The self-tuning graph from precomputed neighbour lists. */
  public static HeatKernelGraph selfTuning(List<NeighborLists> lists, int n) {
    double[] local = new double[n];
    double mean = 0;
    for (NeighborLists l : lists) {
      for (int i = 0; i < l.numRows(); i++) {
        local[l.offset() + i] = Math.sqrt(l.distance(i, l.k() - 1));
        mean += local[l.offset() + i] / n;
      }
    }
    double floor = mean > 0 ? 1e-12 * mean : 1.0;
    for (int i = 0; i < n; i++) {
      local[i] = Math.max(local[i], floor);
    }
    SparseRowMatrix directed = KnnGraphs.fromNeighbors(lists, n,
        (i, j, d2) -> Math.exp(-d2 / (local[i] * local[j])));
    return new HeatKernelGraph(directed.symmetrizeMax(), mean, lists.get(0).k());
  }

  /** The symmetric weight matrix S (whole graph). */
  public SparseRowMatrix weights() {
    return graph;
  }

  /** The neighbours of each sample the graph was built on. */
  public int numNeighbors() {
    return numNeighbors;
  }

  /** The width σ used; for a self-tuning graph, the mean of the local widths σ_i. */
  public double sigma() {
    return sigma;
  }

  /**
   * The normalised adjacency {@code A^{-1/2} S A^{-1/2}} with A the degree matrix, so that the
   * normalised Laplacian of NDFS is {@code L = I − A^{-1/2} S A^{-1/2}}. A node of zero degree
   * gets a zero row.
   */
  public SparseRowMatrix normalizedAdjacency() {
    double[] deg = graph.rowSums();
    double[] s = new double[deg.length];
    for (int i = 0; i < deg.length; i++) {
      s[i] = deg[i] > 0 ? 1.0 / Math.sqrt(deg[i]) : 0.0;
    }
    return graph.scale(s, s);
  }
}
