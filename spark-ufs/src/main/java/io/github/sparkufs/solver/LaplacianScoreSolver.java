package io.github.sparkufs.solver;

import io.github.sparkufs.graph.FeatureGraphForms;
import io.github.sparkufs.graph.HeatKernelGraph;
import io.github.sparkufs.graph.KnnSearch;
import io.github.sparkufs.linalg.DoubleArrays;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.SparseRowMatrix;
import java.util.List;
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
 *
 * <p>Sparse input stays sparse (with the exact kNN search): the graph's distances and the
 * per-feature sums ({@link FeatureGraphForms}) are read from the non-zeros.
 */
public final class LaplacianScoreSolver implements FeatureSelectionSolver {

  /** Whether each sample is also its own neighbour (weight 1); the paper leaves it open. */
  public static final ParamSpec<Boolean> SELF_CONNECTED = ParamSpec.flag("selfConnected", false,
      "", "whether each sample is also its own neighbour (a self-loop of weight 1, as in "
          + "scikit-feature); the paper's graph has none");
  /** Without a given width, whether each sample has its own (self-tuning; by default). */
  public static final ParamSpec<Boolean> LOCAL_SCALING = ParamSpec.flag("localScaling", true,
      "Eq. 1", "with kernelWidth = 0: weight each edge by exp(-||xi - xj||^2 / (sigma_i "
          + "sigma_j)), sigma_i the distance from sample i to its k-th neighbour (self-tuning); "
          + "false = one sigma, the mean k-th-neighbour distance");
  /** The Laplacian Score's params (closed form, no clusters). */
  public static final List<ParamSpec<?>> PARAMS = List.of(CommonOptions.NUM_NEIGHBORS,
      CommonOptions.KERNEL_WIDTH, CommonOptions.KNN_ALGORITHM, CommonOptions.SEED,
      SELF_CONNECTED, LOCAL_SCALING);

  private final int numNeighbors;
  private final double kernelWidth;
  private final boolean selfConnected;
  private final boolean localScaling;
  private final KnnSearch knn;
  private final String knnAlgorithm;

  /** @param options values of {@link #PARAMS} */
  public LaplacianScoreSolver(MethodOptions options) {
    CommonOptions common = options.common();
    this.numNeighbors = common.numNeighbors();
    this.kernelWidth = options.get(CommonOptions.KERNEL_WIDTH);
    this.selfConnected = options.get(SELF_CONNECTED);
    this.localScaling = options.get(LOCAL_SCALING);
    this.knn = common.knnSearch();
    this.knnAlgorithm = common.knnAlgorithm();
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

  /** Runs on sparse row blocks unless its kNN search is the approximate one. */
  @Override
  public String denseInputReason() {
    return KnnSearch.denseInputReason(knnAlgorithm);
  }
}
