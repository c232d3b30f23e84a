package io.github.sparkufs.solver;

import io.github.sparkufs.graph.FeatureGraphForms;
import io.github.sparkufs.graph.HeatKernelGraph;
import io.github.sparkufs.graph.KnnSearch;
import io.github.sparkufs.graph.SpectralEmbedding;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.DoubleArrays;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.linalg.SparseRowMatrix;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SPEC, spectral feature selection (Zhao and Liu, ICML 2007; docs/methods/spec.md), on the
 * heat-kernel kNN graph S ({@link HeatKernelGraph}; the paper's full RBF graph would be dense),
 * with A its degree matrix, {@code ℒ = A^{-1/2}(A − S)A^{-1/2}} with eigenpairs
 * {@code (λ_j, ξ_j)}, {@code ξ_0 = A^{1/2}1 / ||A^{1/2}1||}. Each feature f is normalised to
 * {@code f̂ = A^{1/2} f / ||A^{1/2} f||}, and {@code α_j = f̂ᵀ ξ_j}. The three scores:
 * <ul>
 *   <li>φ1 (Eq. 5): {@code f̂ᵀ ℒ f̂ = Σ_j α_j² λ_j = fᵀ(A − S)f / fᵀAf}; smaller is better
 *       (a feature aligned with the smooth eigenvectors). A constant feature scores 0, the
 *       paper's motivation for φ2.
 *   <li>φ2 (Eq. 6): {@code f̂ᵀ ℒ f̂ / (1 − (f̂ᵀ ξ_0)²)}, the same with the trivial component
 *       removed; smaller is better. It equals the Laplacian Score on the same graph. A constant
 *       feature has no non-trivial component and scores +∞ (ranked last).
 *   <li>φ3 (Eq. 7): {@code Σ_{j=1}^{c} (2 − λ_j) α_j²} over the c smallest non-trivial
 *       eigenpairs (c = numClusters, the paper's k); larger is better (weight on the leading,
 *       cluster-revealing part of the spectrum). The eigenpairs come from
 *       {@link SpectralEmbedding} (sparse, distributed products); {@code α_j} from the aggregate
 *       {@code X A^{1/2} Ξ}. On a graph of K components λ = 0 repeats K − 1 times beyond the
 *       trivial pair; the sum over all of them does not depend on their basis, but with
 *       {@code c < K − 1} it takes c of them, and those are SpectralEmbedding's fixed ones, so
 *       φ3 does not depend on the seed.
 * </ul>
 * The paper's optional spectrum-reshaping function γ(·) is the identity here. The feature
 * sums come from {@link FeatureGraphForms}. Sparse input stays sparse (with the exact kNN
 * search): the graph, the sums and {@code X A^{1/2} Ξ} are read from the non-zeros.
 */
public final class SpecSolver implements FeatureSelectionSolver {

  /**
   * Which of the paper's scores; the default φ1 is the best of the three on COIL20 (k-means ACC
   * with the top 50 features .609, against .482 for φ2 and .337 for φ3; docs/benchmarks.md).
   */
  public static final ParamSpec<Integer> SCORE_TYPE = ParamSpec.integer("scoreType", 1,
      Range.closed(1, 3), "Eq. 5-7", "which score of Zhao and Liu: 1 = phi1 (Eq. 5), 2 = phi2 "
          + "(Eq. 6), 3 = phi3 over the numClusters leading eigenpairs (Eq. 7)");
  /** SPEC's params (closed form: no maxIter or tol; numClusters acts for φ3 only). */
  public static final List<ParamSpec<?>> PARAMS = List.of(CommonOptions.NUM_CLUSTERS,
      CommonOptions.NUM_NEIGHBORS, CommonOptions.KERNEL_WIDTH, CommonOptions.KNN_ALGORITHM,
      CommonOptions.SEED, SCORE_TYPE);

  private final CommonOptions common;
  private final int scoreType;
  private final double kernelWidth;

  /** @param options values of {@link #PARAMS}; c is read by φ3 only */
  public SpecSolver(MethodOptions options) {
    this.common = options.common();
    this.scoreType = options.get(SCORE_TYPE);
    this.kernelWidth = options.get(CommonOptions.KERNEL_WIDTH);
  }

  @Override
  public SelectionResult fit(RowBlockMatrix x) {
    int d = x.numCols();
    x.execution().describe("SPEC: heat-kernel kNN graph");
    HeatKernelGraph graph = HeatKernelGraph.build(x, common.numNeighbors(), kernelWidth,
        common.knnSearch());
    SparseRowMatrix s = graph.weights();
    double[] degree = s.rowSums();
    FeatureGraphForms forms = FeatureGraphForms.compute(x, s, degree);
    double[] weightedSquares = forms.weightedSquares();
    double[] scores = new double[d];
    Map<String, Double> summary = new LinkedHashMap<>();
    summary.put("kernelWidth", graph.sigma());
    if (scoreType == 3) {
      SpectralEmbedding embedding = SpectralEmbedding.compute(x, s, common.numClusters(),
          common.seed());
      double[] lambda = embedding.values();
      DenseMatrix v = embedding.normalizedVectors();
      int c = v.rows();
      for (int i = 0; i < v.cols(); i++) {
        double root = Math.sqrt(degree[i]);
        for (int k = 0; k < c; k++) {
          v.data()[i * c + k] *= root;
        }
      }
      DenseMatrix projections;
      try (Shared<DenseMatrix> shared = x.execution().share(v)) {
        projections = x.multiply(shared);
      }
      for (int j = 0; j < d; j++) {
        double sum = 0;
        for (int k = 0; k < c; k++) {
          double p = projections.get(j, k);
          sum += (2 - lambda[k]) * p * p;
        }
        scores[j] = weightedSquares[j] > 0 ? sum / weightedSquares[j] : 0.0;
      }
      summary.put("eigenvaluesConverged", embedding.converged() ? 1.0 : 0.0);
      return SelectionResult.closedForm(scores, true, summary);
    }
    double[] weightedSums = forms.weightedSums();
    double[] graphForms = forms.graphForms();
    double volume = DoubleArrays.sum(degree);
    for (int j = 0; j < d; j++) {
      double fAf = weightedSquares[j];
      double fLf = Math.max(0.0, fAf - graphForms[j]);
      double denominator = scoreType == 1 ? fAf : fAf - weightedSums[j] * weightedSums[j] / volume;
      scores[j] = denominator > 1e-12 * Math.max(fAf, Double.MIN_NORMAL)
          ? fLf / denominator : Double.POSITIVE_INFINITY;
    }
    return SelectionResult.closedForm(scores, false, summary);
  }

  /** Runs on sparse row blocks unless its kNN search is the approximate one. */
  @Override
  public String denseInputReason() {
    return KnnSearch.denseInputReason(common.knnAlgorithm());
  }
}
