package io.github.sparkufs.solver;

import io.github.sparkufs.graph.FeatureGraphForms;
import io.github.sparkufs.graph.HeatKernelGraph;
import io.github.sparkufs.graph.KnnSearch;
import io.github.sparkufs.linalg.DoubleArrays;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.SparseRowMatrix;
import java.util.Map;

/**
 * The Laplacian Score of He, Cai and Niyogi (NIPS 2005; docs/methods/lapscore.md). With S the
 * heat-kernel kNN graph, D its degree matrix and L = D − S, feature r's score is
 * {@code L_r = f̃ᵀ L f̃ / f̃ᵀ D f̃} with {@code f̃ = f − (fᵀD1 / 1ᵀD1) 1} (their Eq. 5–6);
 * smaller is better. Since L1 = 0, {@code f̃ᵀLf̃ = fᵀLf = Σ_i D_ii f_i² − Σ_ij S_ij f_i f_j}.
 * A feature constant over the data has {@code f̃ = 0}; its score is +∞ (ranked last).
 *
 * <p>The paper connects "nearest neighbours"; whether a sample counts as its own neighbour is
 * left open. The library's heat-kernel graph excludes it (the default). With {@code selfConnected},
 * every sample also gets the self-loop {@code S_ii = e^0 = 1}, as in scikit-feature's
 * implementation; a self-loop leaves L unchanged and adds 1 to each degree.
 *
 * <p>The paper leaves the heat-kernel width t to the user. Without a given width, the default
 * is the self-tuning graph ({@link HeatKernelGraph#selfTuning}), whose per-sample widths adapt
 * to the local density and need no scale; {@code localScaling = false} selects the one
 * global σ of the other methods' graphs instead.
 */
public final class LaplacianScoreSolver implements FeatureSelectionSolver {

  private final int numNeighbors;
  private final double kernelWidth;
  private final boolean selfConnected;
  private final boolean localScaling;
  private final KnnSearch knn;

  /** The solver on the exact kNN graph. */
  public LaplacianScoreSolver(int numNeighbors, double kernelWidth, boolean selfConnected,
      boolean localScaling) {
    this(numNeighbors, kernelWidth, selfConnected, localScaling, KnnSearch.exact());
  }

  /**
   * @param numNeighbors k of the kNN graph, ≥ 1
   * @param kernelWidth σ of the heat kernel; ≤ 0 selects a width from the data
   * @param selfConnected whether each sample is also linked to itself (weight 1)
   * @param localScaling without a given width: per-sample widths (self-tuning) if true, else
   *     one σ = the mean k-th-neighbour distance
   * @param knn how the neighbour lists are found
   */
  public LaplacianScoreSolver(int numNeighbors, double kernelWidth, boolean selfConnected,
      boolean localScaling, KnnSearch knn) {
    if (numNeighbors < 1) {
      throw new IllegalArgumentException("numNeighbors must be >= 1, got " + numNeighbors);
    }
    if (Double.isNaN(kernelWidth)) {
      throw new IllegalArgumentException("kernelWidth must be a number, got NaN");
    }
    this.numNeighbors = numNeighbors;
    this.kernelWidth = kernelWidth;
    this.selfConnected = selfConnected;
    this.localScaling = localScaling;
    this.knn = knn;
  }

  @Override
  public SelectionResult fit(RowBlockMatrix x) {
    int d = x.numCols();
    long graphStart = System.nanoTime();
    HeatKernelGraph graph = kernelWidth <= 0 && localScaling
        ? HeatKernelGraph.selfTuning(x, numNeighbors, knn)
        : HeatKernelGraph.build(x, numNeighbors, kernelWidth, knn);
    double graphSeconds = (System.nanoTime() - graphStart) / 1e9;
    SparseRowMatrix s = graph.weights();
    double[] degree = s.rowSums();
    if (selfConnected) {
      for (int i = 0; i < degree.length; i++) {
        degree[i] += 1.0;
      }
    }
    FeatureGraphForms forms = FeatureGraphForms.compute(x, s, degree);
    double[] weightedSums = forms.weightedSums();
    double[] weightedSquares = forms.weightedSquares();
    double[] squares = forms.squares();
    double[] sfs = forms.graphForms();
    double volume = DoubleArrays.sum(degree);
    double[] scores = new double[d];
    for (int j = 0; j < d; j++) {
      double dfSquared = weightedSquares[j];
      double fLf = dfSquared - sfs[j] - (selfConnected ? squares[j] : 0.0);
      double fDf = dfSquared - weightedSums[j] * weightedSums[j] / volume;
      scores[j] = fDf > 1e-12 * Math.max(dfSquared, Double.MIN_NORMAL)
          ? Math.max(0.0, fLf) / fDf : Double.POSITIVE_INFINITY;
    }
    return SelectionResult.closedForm(scores, false,
        Map.of("kernelWidth", graph.sigma(), "graphSeconds", graphSeconds));
  }
}
