package io.github.sparkufs.solver;

import io.github.sparkufs.cluster.ClusterSums;
import io.github.sparkufs.cluster.KMeans;
import io.github.sparkufs.linalg.BlockOperator;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.DriverMemory;
import io.github.sparkufs.linalg.Execution;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.RowSparsityWeights;
import io.github.sparkufs.linalg.SymmetricEigen;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * UFCM, unsupervised feature analysis with class margin optimisation (Wang, Nie, Chang, Yao,
 * Li and Sheng, ECML PKDD 2015; docs/methods/ufcm.md). X is centred first (the paper assumes zero
 * mean) and each feature put in the unit of {@code featureScaling} (by default divided by its
 * range, a step the paper lacks), so the total scatter is {@code S_t = X Xᵀ} (Eq. 2). The
 * objective (Eq. 6) is maximised:
 *
 * <pre>  Tr(Wᵀ S_t W) − α ||Wᵀ X − G Uᵀ||² − β ||W||₂,ₚᵖ,   Wᵀ W = I,</pre>
 *
 * W d × d', G d' × c centroids, U an n × c hard cluster indicator. Algorithm 1:
 * <ol>
 *   <li>W = top d' eigenvectors of S_t (PCA); U = k-means on {@code Wᵀ X}; G by Eq. 10.
 *   <li>Repeat: D by Eq. 7 ({@code D_ii = p / (2 ||wⁱ||^{2−p})}); U by Eq. 14, the candidate
 *       set being the current U refined by one nearest-centroid assignment to G (Eq. 9) and
 *       {@code r} k-means runs from random starts on {@code Wᵀ X}, keeping the candidate with
 *       the smallest {@code ||Wᵀ X − G Uᵀ||²} where each candidate gets its own optimal
 *       {@code G = Wᵀ X U (UᵀU)⁻¹} (Eq. 10); W = top d' eigenvectors of Eq. 13,
 *       {@code S_t + α X U (UᵀU)⁻¹ Uᵀ Xᵀ − α X Xᵀ − β D}; G by Eq. 10.
 * </ol>
 *
 * <p>Choices the paper leaves open, and why the objective cannot decrease:
 * <ul>
 *   <li>The regulariser is {@code ||W||₂,ₚᵖ = Σ_i ||wⁱ||ᵖ}: Eq. 7's D is the reweighting of the
 *       p-th power (for p = 1 the two coincide). With the ε of {@code RowSparsityWeights} the
 *       penalty that is majorised, and recorded, is {@code Σ_i (||wⁱ||² + ε)^{p/2}}; it differs
 *       from the exact one by at most {@code d·ε^{p/2}} (the exact one is in the summary).
 *       Concavity of {@code t ↦ (t + ε)^{p/2}} makes the eigen step (Eq. 12, a global maximiser
 *       over {@code WᵀW = I}) increase the recorded objective; the U step cannot lower it because
 *       candidate 0 is no worse than the current U (Eq. 15).
 *   <li>Eq. 14 names the current U itself as candidate 0 and scores every candidate with "G";
 *       here candidate 0 is the current U after the Eq. 9 assignment to the current G (no
 *       worse, Eq. 15), and each candidate is scored with its own optimal G (Eq. 10): a k-means
 *       run from a random start numbers its clusters arbitrarily, so scoring it against the
 *       current G would compare label permutations, not clusterings.
 *   <li>d' is not given in the paper; the default is c, the number of clusters.
 *   <li>An empty cluster enters every formula through the pseudo-inverse of UᵀU: it adds
 *       nothing to the scatter and its centroid is zero.
 *   <li>Ties between candidates keep the lower index, i.e. the current U.
 *   <li>The recorded objective includes the initial state, so the history has one more value
 *       than the number of iterations.
 * </ul>
 *
 * <p>Cost: per iteration one pass projects X ({@code Wᵀ X}, n × d', cached per block), one
 * pass assigns it to G, each k-means restart makes its own passes over the projected blocks,
 * and one pass sums the samples of every candidate clustering ({@link ClusterSums}, d × c per
 * candidate); the eigenproblem of Eq. 13 is solved on the driver by a partial solver
 * warm-started from the previous W, with products of {@code O(d c)} per vector at α = 1
 * ({@link #marginEigenvectors}); S_t (d × d) is formed once.
 * Scores, larger is better, by {@link FeatureScoring}: by default the final clusters in
 * {@code WᵀX} regressed on the features, or the paper's row norms {@code ||wⁱ||₂} of W.
 *
 * <p>Sparse input is densified for this method: it needs the dense d × d scatter
 * {@code S_t = X Xᵀ} (Eq. 2) and the projection {@code Wᵀ X}.
 */
public final class UfcmSolver implements FeatureSelectionSolver {

  /**
   * α of Eq. 6, the weight of the within-cluster scatter. At α = 1 Eq. 13 is the
   * between-cluster scatter of the pseudo labels minus βD; smaller α tends to PCA (at 0 the
   * clusters no longer act), larger α favours directions of small within-cluster scatter.
   * Measured over the paper's grid on COIL20, ORL and USPS (mean ACC over m = 50..300), α = 1
   * was the best single value across the three.
   */
  public static final ParamSpec<Double> ALPHA = ParamSpec.real("alpha", 1.0,
      Range.greaterThan(0), "Eq. 6", "α: weight of the embedded k-means loss ||WᵀX − GUᵀ||²");
  /**
   * β of Eq. 6, the weight of the ℓ2,p regulariser, 0.1 as in the paper's sensitivity study.
   * S_t grows with the square of the feature scale while the penalty does not, so with
   * {@code featureScaling = none} data in [0, 1] (COIL20, USPS) need larger β than raw pixel
   * values for the same effect; by range or standard deviation β means the same in any unit.
   */
  public static final ParamSpec<Double> BETA = ParamSpec.real("beta", 0.1, Range.atLeast(0),
      "Eq. 6", "β: weight of the ℓ2,p row sparsity of W");
  /** Exponent p of the ℓ2,p norm (Eq. 1). */
  public static final ParamSpec<Double> P = ParamSpec.real("p", 1.0, Range.openClosed(0, 2),
      "Eq. 1", "p of the ℓ2,p norm; smaller is sparser");
  /** d'; 0 means d' = c, the number of clusters. */
  public static final ParamSpec<Integer> PROJECTION_DIM = ParamSpec.integer("projectionDim", 0,
      Range.atLeast(0), "Eq. 6", "d', the dimension of the projection W (0 = numClusters)");
  /** r, the random k-means restarts in the candidate set of Eq. 14 (10 in the paper). */
  public static final ParamSpec<Integer> RESTARTS = ParamSpec.integer("restarts", 10,
      Range.atLeast(0), "Eq. 14",
      "r, random k-means restarts in the candidate set of Eq. 14 per iteration");
  /** UFCM's params (it builds no graph, so has no numNeighbors). */
  public static final List<ParamSpec<?>> PARAMS = List.of(CommonOptions.NUM_CLUSTERS,
      CommonOptions.MAX_ITER, CommonOptions.TOL, CommonOptions.SEED,
      CommonOptions.FEATURE_SCALING, ALPHA, BETA, P, PROJECTION_DIM, RESTARTS,
      FeatureScoring.PARAM);
  /** Lloyd iterations per k-means run at most. */
  public static final int KMEANS_MAX_ITER = 100;
  /** Relative cost decrease below which a k-means run stops. */
  public static final double KMEANS_TOL = 1e-6;

  private final CommonOptions common;
  private final double alpha;
  private final double beta;
  private final double p;
  private final int projectionDim;
  private final int restarts;
  private final FeatureScoring scoring;

  /** @param options values of {@link #PARAMS} */
  public UfcmSolver(MethodOptions options) {
    this.common = options.common();
    this.alpha = options.get(ALPHA);
    this.beta = options.get(BETA);
    this.p = options.get(P);
    this.projectionDim = options.get(PROJECTION_DIM);
    this.restarts = options.get(RESTARTS);
    this.scoring = options.get(FeatureScoring.PARAM);
  }

  @Override
  public SelectionResult fit(RowBlockMatrix x) {
    int n = x.numRows();
    int d = x.numCols();
    int c = common.numClusters();
    int dp = projectionDim > 0 ? projectionDim : c;
    if (dp > d) {
      throw new IllegalArgumentException("projectionDim " + dp + " exceeds the " + d
          + " features");
    }
    if (c > n) {
      throw new IllegalArgumentException("cannot form " + c + " clusters from " + n
          + " samples");
    }
    Execution ex = x.execution();
    SplittableRandom rnd = new SplittableRandom(common.seed());
    ex.describe("UFCM: centring and total scatter");
    DenseMatrix st;
    DenseMatrix w;
    ClusterSums sums;
    IterativeFit loop = new IterativeFit("UFCM", common);
    int restartWins = 0;
    FeatureScoring.Scored scored;
    try (RowBlockMatrix xc = x.centered(common.featureScaling(x.columnStatistics()))) {
      st = xc.gram();
      // Algorithm 1, lines 3–4: W by PCA, U by k-means on Wᵀ X, then G by Eq. 10.
      w = SymmetricEigen.largest(st, dp).vectors();
      ex.describe("UFCM: initial k-means");
      int[] labels;
      try (RowBlockMatrix y = xc.projected(w)) {
        labels = new KMeans(c, KMEANS_MAX_ITER, KMEANS_TOL).fit(y, rnd.nextLong()).labels();
      }
      sums = ClusterSums.of(xc, labels, c);
      DenseMatrix g = sums.projectedCentroids(w);
      loop.start(objective(st, w, sums));
      double stBound = alpha == 1 ? 0 : st.maxAbsColumnSum();
      while (loop.next()) {
        double[] dw = RowSparsityWeights.l2p(w, p, RowSparsityWeights.DEFAULT_EPSILON); // Eq. 7
        ex.describe("UFCM: cluster indicator update (Eq. 14)");
        IndicatorUpdate update = updateIndicator(xc, st, w, g, c, restarts, rnd.nextLong());
        if (update.chosen() != 0) {
          restartWins++;
        }
        sums = update.sums();
        w = marginEigenvectors(st, stBound, sums, dw, w); // Eq. 13
        g = sums.projectedCentroids(w); // Eq. 10
        loop.record(objective(st, w, sums));
      }
      scored = scoring.scores(xc, st, w, c, rnd.nextLong());
    }
    IterativeFit.Result history = loop.result();
    double exactPenalty = 0;
    for (double norm : w.rowNormsSquared()) {
      exactPenalty += Math.pow(norm, p / 2);
    }
    double totalScatter = projectedTotalScatter(st, w);
    Map<String, Double> summary = new LinkedHashMap<>();
    summary.put("projectionDim", (double) dp);
    summary.put("objective", history.lastObjective());
    summary.put("totalScatter", totalScatter);
    summary.put("withinClusterScatter", withinClusterScatter(st, w, sums));
    summary.put("l2pPenalty", exactPenalty);
    summary.put("nonEmptyClusters", (double) sums.nonEmpty());
    summary.put("restartWins", (double) restartWins);
    summary.putAll(scored.summary());
    // The objectives start with that of the initial W and U, which is no iteration.
    return new SelectionResult(scored.scores(), true, history.iterations(),
        history.converged(), history.objectives(), summary);
  }

  /** The outcome of Eq. 14: the candidate kept, its index, its cluster sums and all costs. */
  record IndicatorUpdate(int chosen, ClusterSums sums, double[] costs) {}

  /**
   * Eq. 14: the candidate set is the current clustering refined by assigning every projected
   * sample to its nearest centroid in {@code g} (Eq. 9) followed by {@code restarts} k-means
   * runs from random starts on {@code Wᵀ X}; the kept candidate minimises
   * {@code ||Wᵀ X − G Uᵀ||²} with its own centroids {@code G = Wᵀ X U (UᵀU)⁻¹}.
   *
   * @param xc centred data, d × n
   * @param st {@code X Xᵀ} of the centred data
   * @param w the current W, d × d'
   * @param g the current centroids, d' × c
   */
  static IndicatorUpdate updateIndicator(RowBlockMatrix xc, DenseMatrix st, DenseMatrix w,
      DenseMatrix g, int c, int restarts, long seed) {
    int[][] candidates = new int[restarts + 1][];
    try (RowBlockMatrix y = xc.projected(w)) {
      candidates[0] = KMeans.assign(y, g);
      KMeans kmeans = new KMeans(c, KMEANS_MAX_ITER, KMEANS_TOL);
      SplittableRandom rnd = new SplittableRandom(seed);
      for (int j = 1; j <= restarts; j++) {
        candidates[j] = kmeans.fit(y, rnd.nextLong()).labels();
      }
    }
    List<ClusterSums> sums = ClusterSums.of(xc, candidates, c);
    double total = projectedTotalScatter(st, w);
    double[] costs = new double[candidates.length];
    int best = 0;
    for (int j = 0; j < costs.length; j++) {
      costs[j] = total - sums.get(j).projectedBetweenScatter(w); // as withinClusterScatter
      if (costs[j] < costs[best]) {
        best = j;
      }
    }
    return new IndicatorUpdate(best, sums.get(best), costs);
  }

  /**
   * {@code ||Wᵀ X − G Uᵀ||²} at the optimal {@code G = Wᵀ X U (UᵀU)⁻¹} (Eq. 10), i.e.
   * {@code Tr(Wᵀ X Xᵀ W) − Tr(Wᵀ X U (UᵀU)⁻¹ Uᵀ Xᵀ W)} (Eq. 11), from d × c sums.
   */
  static double withinClusterScatter(DenseMatrix st, DenseMatrix w, ClusterSums sums) {
    return projectedTotalScatter(st, w) - sums.projectedBetweenScatter(w);
  }

  /** {@code Tr(Wᵀ S_t W)}. */
  private static double projectedTotalScatter(DenseMatrix st, DenseMatrix w) {
    return st.multiply(w).dot(w);
  }

  /** Eq. 6 with the ε-smoothed ℓ2,p penalty (see the class comment). */
  private double objective(DenseMatrix st, DenseMatrix w, ClusterSums sums) {
    double penalty = 0;
    for (double v : w.rowNormsSquared()) {
      penalty += Math.pow(v + RowSparsityWeights.DEFAULT_EPSILON, p / 2);
    }
    return projectedTotalScatter(st, w) - alpha * withinClusterScatter(st, w, sums)
        - beta * penalty;
  }

  /**
   * The d' leading eigenvectors of Eq. 13, {@code S_t + α X U (UᵀU)⁻¹ Uᵀ Xᵀ − α X Xᵀ − β D}; with
   * centred X, {@code X Xᵀ = S_t} and {@code X U (UᵀU)⁻¹ Uᵀ Xᵀ = B Bᵀ} for
   * {@code B = X U (UᵀU)^{-1/2}} (d × c), so the matrix is {@code (1 − α) S_t + α B Bᵀ − β D}.
   * It is never formed: the smallest eigenvectors of its negative as an operator, warm-started
   * from the current W, whose products cost O(d c) per vector at the default α = 1 (S_t enters
   * only when α ≠ 1).
   *
   * @param stBound {@code ||S_t||₁}, needed only when α ≠ 1
   */
  private DenseMatrix marginEigenvectors(DenseMatrix st, double stBound, ClusterSums sums,
      double[] dw, DenseMatrix w) {
    DenseMatrix b = sums.scaledSums();
    double[] shift = new double[dw.length];
    double largestShift = 0;
    for (int i = 0; i < dw.length; i++) {
      shift[i] = beta * dw[i];
      largestShift = Math.max(largestShift, shift[i]);
    }
    BlockOperator negated = v -> {
      DenseMatrix out = v.multiply(b).multiplyTranspose(b).scaleInPlace(-alpha);
      if (alpha != 1) {
        out.addInPlace(alpha - 1, v.multiply(st));
      }
      return out.addScaledColumnsInPlace(v, shift);
    };
    double bound = Math.abs(1 - alpha) * stBound + alpha * b.frobeniusNormSquared()
        + largestShift;
    return SymmetricEigen.smallest(negated, st.rows(), w.cols(), bound, w).vectors();
  }

  @Override
  public boolean isScaleFree() {
    return common.isScaleFree();
  }

  @Override
  public String denseInputReason() {
    return "needs the dense d x d scatter S_t = X Xᵀ (Eq. 2) and the projection Wᵀ X";
  }

  @Override
  public DriverMemory.Need driverNeed(int n, int d) {
    return RowBlockMatrix.gramNeed(d);
  }
}
