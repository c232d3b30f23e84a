package io.github.sparkufs.solver;

import io.github.sparkufs.cluster.KMeans;
import io.github.sparkufs.graph.TripletGraph;
import io.github.sparkufs.linalg.BlockOperator;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.DriverMemory;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.RowSparsityWeights;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.linalg.SparseRowMatrix;
import io.github.sparkufs.linalg.SymmetricEigen;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Ordinal-consensus self-paced feature selection (Guo, Chang and Zhu, "Preserving Ordinal
 * Consensus: Towards Feature Selection for Unlabeled Data", AAAI 2020).
 *
 * <p>Data follow the paper's orientation: X is d × n, one column per sample. The method
 * minimises (Eq. 7, least squares)
 *
 * <pre>  J = Σ_i r_i ||Wᵀx_i − U v_i||² + f(λ, r, z) + β ||W||_{2,1} + α Tr(WᵀLW),  WᵀW = I,</pre>
 *
 * with W d × d₂, U d₂ × c cluster centres, v_i one-hot, r_i ∈ [0, 1] self-paced sample weights
 * and L the Laplacian of the triplet-induced feature graph ({@link TripletGraph}, Eq. 5; built
 * from the d × d Gram, never from n-length feature vectors). Features are scored, larger is
 * better, by {@link FeatureScoring}: by default the final clusters in {@code WᵀX} regressed on
 * the features, or the paper's row norms {@code ||w_i||₂} of W.
 *
 * <p>Initialisation (Algorithm 1, line 2): W = d₂ distinct columns of {@code I_d} chosen at
 * random from the seed; U and V from k-means (k-means++ start, same seed) on {@code Wᵀ X};
 * r = 1; λ = λ₀. Each iteration (lines 4-9):
 * <ol>
 *   <li>λ ← λ μ;</li>
 *   <li>U-step (Eq. 8): {@code U = Wᵀ X R Vᵀ (V R Vᵀ)^{-1}}, R = diag(r), i.e. the r-weighted
 *       mean of each cluster's projected samples;</li>
 *   <li>V-step (Eq. 9): each sample joins the nearest column of U (ties: lower index);</li>
 *   <li>P-step (Eq. 11): {@code P_ii = 1 / sqrt(||w_i||² + ε)}, ε = 1e-8;</li>
 *   <li>W-step (Eq. 12): the eigenvectors of the d₂ smallest eigenvalues of
 *       {@code Q = αL + X R Xᵀ − X R Vᵀ (V R Vᵀ)^{-1} V R Xᵀ + (β/2) P} (the printed Q drops
 *       the minus that substituting Eq. 8 gives), its data term replaced by the between
 *       scatter under the default criterion (below);</li>
 *   <li>r-step: {@code r_i = (1 + e^{−λ}) / (1 + e^{(ℓ_i − λ)/z_i})}, with
 *       {@code ℓ_i = ||Wᵀx_i − U v_i||²} for the new W and the centres the W-step implies
 *       ({@code U = Wᵀ X R Vᵀ (V R Vᵀ)^{-1}}) and {@code z_i ~ Bernoulli(s)}. A sample with
 *       {@code z_i = 0} is dropped: {@code r_i = 0}. r is clamped to [0, 1].</li>
 * </ol>
 *
 * <p>The recorded objective is the augmented objective of the paper's convergence argument
 * (§3.2) after each iteration: the data term with the centres implied by the W step, the
 * self-paced regulariser {@code f = Σ_i z_i[(a − r_i) ln(a − r_i) + r_i ln r_i] − λ r_i}
 * ({@code a = 1 + e^{−λ}}; a dropped sample's weight is pinned to 0 and adds nothing), the
 * smoothed {@code β Σ_i sqrt(||w_i||² + ε)} (the value of Eq. 10 at the optimal P) and
 * {@code α Tr(WᵀLW)}. Every step minimises it exactly over its block of variables, so it does
 * not increase while λ and z stay fixed; across iterations it moves because λ grows and z is
 * redrawn.
 *
 * <p><b>Emptied clusters.</b> A cluster whose total weight {@code Σ_{v_i = j} r_i} is zero
 * makes {@code V R Vᵀ} singular. In the W step such a cluster contributes nothing
 * (the pseudo-inverse of the diagonal {@code V R Vᵀ}: its samples all weigh 0), and its
 * implied centre, used only for its samples' losses, is the unweighted mean of its samples
 * (the origin when it has none). In the U step (Eq. 8) it is re-seeded: its centre moves to
 * the projection of the worst-fitted sample, the one with the largest weighted loss
 * {@code r_i ℓ_i} (then the largest ℓ_i, then the lower index), the next emptied cluster to
 * the second worst, and so on. Neither choice changes the objective, and the V step then
 * moves that sample into the re-seeded cluster.
 *
 * <p><b>Distributed layout.</b> Per-sample state (v_i, ℓ_i, r_i, z_i) is never stored: it is a
 * deterministic function of the sample and of a few small matrices (two bases d × d₂ and two
 * centre matrices d₂ × c), which every pass shares and every block re-evaluates. z_i depends
 * only on (seed, iteration, global sample index), so results do not depend on how samples
 * are split into blocks. Each iteration is two passes over the blocks, both tree aggregates:
 * <ul>
 *   <li>pass 1 (V step and W-step statistics): per sample, the current weight r_i and the new
 *       assignment v_i; per block, {@code X R Xᵀ} (d × d), {@code X R Vᵀ} (d × c), the class
 *       weights (the diagonal of {@code V R Vᵀ}), class counts and unweighted class sums;</li>
 *   <li>pass 2 (r step and U-step statistics): per sample, ℓ_i and the new r_i; per block,
 *       {@code Wᵀ X R Vᵀ} (d₂ × c), the class weights, the objective's sample terms, weight
 *       counts and the c worst-fitted samples (for re-seeding).</li>
 * </ul>
 * The feature graph is built on the driver from the d × d Gram (O(d²) memory, once). Q is never
 * formed: under {@code BETWEEN} it is a rank-c term plus the sparse αL plus a diagonal
 * ({@link WStepMatrix}), so a product costs O(d (c + k)) per vector, and its d₂ smallest
 * eigenvectors come from the partial solver warm-started from the previous W
 * ({@link SymmetricEigen#smallest(BlockOperator, int, int, double, DenseMatrix)}); once W
 * settles a solve takes a few products. No n × n (kernel) form of the W step exists when
 * d > n: αL makes Q full rank d.
 *
 * <p><b>Scale ({@code unitScale}, default on; not in the paper).</b> The self-paced weights
 * compare squared residuals with λ, which starts at λ₀ = 1e-6 and grows by μ per iteration, so
 * {@code r_i ≈ 2 / (1 + e^{ℓ_i})}: residuals of order one give graded weights, residuals of
 * tens put all the weight on a few best-fitted samples, and beyond about 745 a weight underflows
 * to 0; α and β likewise weigh their terms against the data's squared unit. With
 * {@code unitScale} the method runs on {@code X / √u}, u the mean squared deviation per sample
 * that a random d₂-dimensional orthogonal projection keeps (d₂ times the mean feature
 * variance), so the fit is the same for the data in any unit; neither score depends on the unit
 * itself. Measured on 8 planted features among
 * d = 500 (n = 400, c = 4, feature variance 10): in the raw unit the fits found .1625 of the 8
 * over draws 1–10 (none on 7); on earlier, dependent planted samples all but 6–28 of the 400
 * weights had underflowed to 0 after 30 iterations, the projection fitted to those few, and
 * even started from the planted clusters 2 of draws 1–3 collapsed the same way, the collapsed
 * fits reaching a lower raw-unit objective (−67,073 against −47,902 on draw 1). In the unit u
 * (about 40 there) only the z-dropped samples weigh 0 and the fits find .8625 of the planted
 * features over draws 1–10. The softer weights cost planted data with d = 40, n = 300: .9375
 * against .9625 in the raw unit.
 * {@code unitScale = false} is Eq. 7 on the data as given. When every weight still vanishes,
 * the fit fails with an error saying so rather than return scores fitted to no sample.
 *
 * <p><b>Feature units ({@code featureScaling}, default range; not in the paper).</b> Before
 * anything else each feature is centred and divided by its range (max − min), so that features
 * on unrelated scales enter Eq. 7 on one; {@code unitScale} then sets the unit of the whole.
 * {@code none} is the data as given.
 *
 * <p><b>Initialisation ({@code initMode}).</b> {@code IDENTITY} (default) is Algorithm 1, line 2:
 * W⁽⁰⁾ is d₂ random columns of {@code I_d}, so the initial k-means sees d₂ random features.
 * {@code PRINCIPAL} (not in the paper) starts from the d₂ leading principal directions of the
 * centred data instead: on the d = 500 draws above (then dependent samples) it found .85 of the
 * planted features against .6625.
 *
 * <p><b>Scatter criterion (not in the paper; {@code criterion}, default {@code BETWEEN}).</b>
 * With Eq. 8 substituted, the paper's W step minimises the r-weighted within-cluster scatter
 * {@code Tr(Wᵀ S_w W)} under {@code WᵀW = I}, which is smallest along the directions in which
 * the data vary least, whatever the clusters: constant and near-constant features win (on
 * scikit-learn's digits its 8 best were the 3 constant and 5 near-constant pixels, ACC .11 at
 * m = 8 against .57 for the 8 of largest variance). Given COIL20's true classes the criterion
 * ranks below random features. Since {@code S_w = S_t − S_b} for the total scatter about the
 * global mean x̄, {@code BETWEEN} drops the {@code Tr(Wᵀ S_t W)} part, which does not depend on
 * U or V: each sample's loss becomes {@code ℓ_i = ||Wᵀx_i − U v_i||² − ||Wᵀ(x_i − x̄)||²} (how
 * much closer it is to its centre than to the mean) and the W step's data term is
 * {@code −Σ_k w_k (m_k − x̄)(m_k − x̄)ᵀ}, the weighted between-cluster scatter. Every block
 * update is still an exact minimiser (V and U do not see the subtracted term; the r step is
 * convex in r_i and clamps to 1 for ℓ_i below λ), so the monotone descent argument holds as
 * before. It also keeps the self-paced weights meaningful when d > n: under {@code WITHIN}
 * the projection fits every weighted sample exactly (ℓ_i ≈ 1e-27), a sample dropped by z is
 * left far off, underflows to r = 0 and never comes back, and the weights vanish one draw at a
 * time (the objective rises by {@code (1 + e^{−λ}) ln(1 + e^{−λ})} per lost sample; on raw ORL
 * it rose from 49 to 400 in 30 iterations); under {@code BETWEEN} the projection follows the
 * class means, which no single sample determines.
 *
 * <p><b>Objective history.</b> λ grows and z is redrawn every iteration, so the recorded
 * objective is not monotone across iterations (the paper's argument of §3.2 holds for fixed λ
 * and z only; {@code OrdinalConsensusSolverTest} checks that case).
 *
 * <p><b>Summary.</b> {@code iterations}; {@code projectionDim} (d₂); {@code betweenScatter}
 * (1 for {@code BETWEEN}); {@code finalLambda}; {@code dataUnit} (u, 1 without
 * {@code unitScale});
 * from the final r-step: {@code downWeightedSamples} (samples with {@code r_i < 0.5}, zeros
 * included), {@code zeroWeightSamples} ({@code r_i = 0}: dropped by z or underflowed),
 * {@code droppedSamples} ({@code z_i = 0}), {@code meanSampleWeight}; {@code reseededClusters}
 * (re-seeds over all U steps); {@code objective} (the last recorded value).
 *
 * <p>Sparse input is densified for this method: it needs the dense d × d Gram of its triplet
 * graph (Eq. 5) and the projection Wᵀ X (Eq. 8).
 */
public final class OrdinalConsensusSolver implements FeatureSelectionSolver {

  /** The data term of the W step: the paper's within-cluster scatter, or the between. */
  public enum Criterion {
    /** {@code Tr(Wᵀ S_w W)}, Eq. 12 as printed (with the minus of Eq. 8 substituted). */
    WITHIN,
    /** {@code Tr(Wᵀ (S_w − S_t) W) = −Tr(Wᵀ S_b W)}: the total scatter about the mean removed. */
    BETWEEN
  }

  /** Where W⁽⁰⁾, the basis of the initial k-means, comes from. */
  public enum InitMode {
    /** d₂ random columns of {@code I_d}: d₂ random features (Algorithm 1, line 2). */
    IDENTITY,
    /** The d₂ leading principal directions of the centred data. */
    PRINCIPAL
  }

  /**
   * α of Eq. 7, weight of the ordinal-consensus term {@code Tr(WᵀLW)}. At β = 0.1 the α values
   * 1e-6 to 1e-2 score within 1.5 NMI of each other on COIL20 and α = 1 about 5 lower; see
   * {@code OrdinalConsensusPaperTest}.
   */
  public static final ParamSpec<Double> ALPHA = ParamSpec.real("alpha", 1e-3, Range.atLeast(0),
      "Eq. 7", "α: weight of the triplet graph term Tr(WᵀLW)");
  /** β of Eq. 7, weight of {@code ||W||_{2,1}} (chosen under the within criterion, not re-tuned). */
  public static final ParamSpec<Double> BETA = ParamSpec.real("beta", 0.1, Range.atLeast(0),
      "Eq. 7", "β: weight of the ℓ2,1 row sparsity of W");
  /** d₂; 0 selects d₂ = c, the paper's setting. */
  public static final ParamSpec<Integer> PROJECTION_DIM = ParamSpec.integer("projectionDim", 0,
      Range.atLeast(0), "Eq. 7", "d₂, the dimension of the projection W (0 = numClusters)");
  /** s, the probability that a sample is kept (z_i = 1); the paper uses 0.8. */
  public static final ParamSpec<Double> KEEP_PROBABILITY = ParamSpec.real("keepProbability", 0.8,
      Range.openClosed(0, 1), "Eq. 7", "s, the Bernoulli probability that a sample's z_i = 1 "
          + "in the robust self-paced regulariser");
  /** λ₀, the initial self-paced age (Algorithm 1); at 0 λ would stay 0 and keep no sample. */
  public static final ParamSpec<Double> LAMBDA0 = ParamSpec.real("lambda0", 1e-6,
      Range.greaterThan(0), "Algorithm 1", "λ₀, the initial self-paced age");
  /** μ, the growth factor of λ per iteration (Algorithm 1). */
  public static final ParamSpec<Double> MU = ParamSpec.real("mu", 1.1, Range.atLeast(1),
      "Algorithm 1", "μ, the factor λ grows by each iteration");
  /** The triplet weights of the feature graph; by default the authors' row-scaled ones. */
  public static final ParamSpec<TripletGraph.Weighting> TRIPLET_WEIGHTING = ParamSpec.choice(
      "tripletWeighting", TripletGraph.Weighting.SCALED, "Eq. 5", "triplet weights of the "
          + "feature graph: scaled (the authors' row min-max scaling) or raw (the paper's Eq. 5)");
  /** The W step's data term; see "Scatter criterion". */
  public static final ParamSpec<Criterion> SCATTER_CRITERION = ParamSpec.choice(
      "scatterCriterion", Criterion.BETWEEN, "Eq. 12", "data term of the W step: between (the "
          + "total scatter about the mean removed, so the projection keeps the between-cluster "
          + "scatter and measures each sample against the mean) or within (the paper's Eq. 12, "
          + "which prefers low-variance features)");
  /** Whether the data are measured in their own unit; see "Scale". */
  public static final ParamSpec<Boolean> UNIT_SCALE = ParamSpec.flag("unitScale", true, "Eq. 7",
      "whether the data are divided by one number, the root of the mean squared deviation a "
          + "random d₂-dimensional projection keeps (d₂ times the mean feature variance), so that "
          + "the self-paced weights (which compare squared residuals with λ), α and β mean the "
          + "same in any unit of the data (a step the paper lacks); false is Eq. 7 on the data "
          + "as given");
  /** W⁽⁰⁾; see "Initialisation" (default: the paper's). */
  public static final ParamSpec<InitMode> INIT_MODE = ParamSpec.choice("initMode",
      InitMode.IDENTITY, "Algorithm 1", "W⁽⁰⁾, the projection the initial k-means clusters in: "
          + "identity (d₂ random features, the paper's) or principal (the d₂ leading principal "
          + "directions of the centred data, a step the paper lacks)");
  /** The ordinal-consensus method's params. */
  public static final List<ParamSpec<?>> PARAMS = List.of(CommonOptions.NUM_CLUSTERS,
      CommonOptions.NUM_NEIGHBORS, CommonOptions.MAX_ITER, CommonOptions.TOL, CommonOptions.SEED,
      ALPHA, BETA, PROJECTION_DIM, KEEP_PROBABILITY, LAMBDA0, MU, TRIPLET_WEIGHTING,
      SCATTER_CRITERION, UNIT_SCALE, INIT_MODE, CommonOptions.FEATURE_SCALING,
      FeatureScoring.PARAM);

  /** ε of the ℓ2,1 reweighting (the P step, Eq. 11). */
  static final double EPSILON = RowSparsityWeights.DEFAULT_EPSILON;
  /** Lloyd iterations of the initial k-means at most. */
  static final int INIT_KMEANS_MAX_ITER = 100;
  /** Relative cost decrease below which the initial k-means stops. */
  static final double INIT_KMEANS_TOL = 1e-9;

  private final CommonOptions common;
  private final double alpha;
  private final double beta;
  private final int projectionDim;
  private final double keepProbability;
  private final double lambda0;
  private final double mu;
  private final TripletGraph.Weighting tripletWeighting;
  private final Criterion criterion;
  private final boolean unitScale;
  private final InitMode initMode;
  private final FeatureScoring scoring;
  private final boolean fixedSchedule;

  /** @param options values of {@link #PARAMS} */
  public OrdinalConsensusSolver(MethodOptions options) {
    this(options, false);
  }

  /**
   * As the public constructor; {@code fixedSchedule} holds λ at λ₀ and draws z once for the
   * whole fit, the setting of the paper's monotonicity argument (used by tests).
   */
  OrdinalConsensusSolver(MethodOptions options, boolean fixedSchedule) {
    this.common = options.common();
    this.alpha = options.get(ALPHA);
    this.beta = options.get(BETA);
    this.projectionDim = options.get(PROJECTION_DIM);
    this.keepProbability = options.get(KEEP_PROBABILITY);
    this.lambda0 = options.get(LAMBDA0);
    this.mu = options.get(MU);
    this.tripletWeighting = options.get(TRIPLET_WEIGHTING);
    this.criterion = options.get(SCATTER_CRITERION);
    this.unitScale = options.get(UNIT_SCALE);
    this.initMode = options.get(INIT_MODE);
    this.scoring = options.get(FeatureScoring.PARAM);
    this.fixedSchedule = fixedSchedule;
  }

  @Override
  public SelectionResult fit(RowBlockMatrix x) {
    double[] factors = common.featureScaling(x.columnStatistics());
    if (factors == null) {
      return fit(x, null);
    }
    try (RowBlockMatrix scaled = x.centered(factors)) {
      return fit(scaled, null);
    }
  }

  /**
   * As {@link #fit(RowBlockMatrix)}, the initial k-means clustering {@code initialBasisᵀ X}
   * instead of the {@link #INIT_MODE} basis when {@code initialBasis} (d × d₂, orthonormal
   * columns) is not null: the hook through which a given start (the planted one, in tests) is
   * fed in.
   */
  SelectionResult fit(RowBlockMatrix x, DenseMatrix initialBasis) {
    int d = x.numCols();
    int n = x.numRows();
    int c = common.numClusters();
    int d2 = projectionDim > 0 ? projectionDim : c;
    if (d2 > d) {
      throw new IllegalArgumentException("projectionDim must be at most d = " + d + ", got "
          + d2);
    }
    if (c > n) {
      throw new IllegalArgumentException("numClusters must be at most n = " + n + ", got " + c);
    }
    if (d < 2) {
      throw new IllegalArgumentException("ordinal consensus needs at least 2 features for its "
          + "feature graph, got " + d);
    }
    // N_i of Eq. 5: the k nearest features of feature i, or all d − 1 others when there are
    // fewer, so that the default k fits data of a handful of features.
    int featureNeighbors = Math.min(common.numNeighbors(), d - 1);
    long seed = common.seed();
    double[] columnMeans = x.columnStatistics().means();
    double[] mean = criterion == Criterion.BETWEEN ? columnMeans : null;

    x.execution().describe("ordinal consensus: Gram and feature graph");
    DenseMatrix gram = x.gram();
    double unit = unitScale ? projectedVariance(gram, columnMeans, n, d2) : 1.0;
    if (!(unit > 0)) {
      throw new IllegalArgumentException("every feature is constant: nothing to select");
    }
    DenseMatrix w = initialBasis != null ? initialBasis
        : initMode == InitMode.PRINCIPAL ? leadingDirections(gram, columnMeans, n, d2, seed)
        : randomFeatures(d, d2, seed);
    // The feature graph of X / √unit: the raw triplet weights scale with the Gram.
    gram.scaleInPlace(1 / unit);
    SparseRowMatrix lap = TripletGraph.fromGram(gram, featureNeighbors, tripletWeighting)
        .laplacian();

    x.execution().describe("ordinal consensus: initial k-means");
    Snapshot snap = Snapshot.initial(w, initialCenters(x, w, c, seed), unit, seed,
        keepProbability);
    UStats ustats = uPass(x, snap);

    IterativeFit loop = new IterativeFit("OrdinalConsensus", common);
    double lambda = lambda0;
    int reseeded = 0;
    while (loop.next()) {
      int t = loop.iteration();
      if (!fixedSchedule) {
        lambda *= mu;
      }
      // U-step (Eq. 8) from the previous r-pass, with emptied clusters re-seeded.
      DenseMatrix means = ustats.means();
      reseeded += ustats.emptied();

      // V-step (Eq. 9) and the W-step statistics, one pass.
      x.execution().describe("ordinal consensus iteration " + t + ": V step, X R Xᵀ, X R Vᵀ");
      WStats wstats = wPass(x, snap, means, criterion == Criterion.WITHIN);

      // P-step (Eq. 11) and W-step (Eq. 12) on the driver; l21 gives P_ii / 2.
      double[] penalty = RowSparsityWeights.l21(snap.basis, EPSILON);
      for (int i = 0; i < d; i++) {
        penalty[i] *= beta;
      }
      WStepMatrix q = new WStepMatrix(
          criterion == Criterion.WITHIN ? wstats.xrx.scaleInPlace(1 / unit) : null,
          wstats.betweenFactor(mean).scaleInPlace(1 / Math.sqrt(unit)), alpha, lap, penalty);
      DenseMatrix wNew = SymmetricEigen.smallest(q, d, d2, q.bound(), snap.basis).vectors();

      // r-step and the next U-step's statistics, one pass.
      snap = Snapshot.fromMeans(snap.basis, means, wNew, wstats.impliedMeans(), mean, unit,
          lambda, fixedSchedule ? 0 : t, seed, keepProbability);
      x.execution().describe("ordinal consensus iteration " + t + ": r step, X R Vᵀ");
      ustats = uPass(x, snap);
      if (ustats.totalWeight == 0) {
        throw new IllegalStateException("every sample weight r_i vanished at iteration " + t
            + " (smallest residual " + ustats.smallestLoss + " against lambda " + lambda
            + "): with unitScale off, scale the data so that squared residuals are of order "
            + "one");
      }
      double objective = ustats.sampleTerms
          + beta * RowSparsityWeights.smoothedL21Norm(wNew, EPSILON)
          + alpha * graphTerm(lap, wNew);
      loop.record(objective);
    }
    IterativeFit.Result history = loop.result();
    FeatureScoring.Scored scored = scoring.scores(x, null, snap.basis, c, seed);
    Map<String, Double> summary = new LinkedHashMap<>();
    summary.put("projectionDim", (double) d2);
    summary.put("featureNeighbors", (double) featureNeighbors);
    summary.put("betweenScatter", criterion == Criterion.BETWEEN ? 1.0 : 0.0);
    summary.put("finalLambda", lambda);
    summary.put("dataUnit", unit);
    summary.put("downWeightedSamples", (double) ustats.downWeighted);
    summary.put("zeroWeightSamples", (double) ustats.zeroWeight);
    summary.put("droppedSamples", (double) ustats.dropped);
    summary.put("meanSampleWeight", ustats.totalWeight / n);
    summary.put("reseededClusters", (double) reseeded);
    summary.put("objective", history.lastObjective());
    summary.putAll(scored.summary());
    return new SelectionResult(scored.scores(), true, history.iterations(),
        history.converged(), history.objectives(), summary);
  }

  /** {@code Tr(Wᵀ L W)} for the sparse Laplacian L (d × d) and W (d × d₂). */
  private static double graphTerm(SparseRowMatrix lap, DenseMatrix w) {
    DenseMatrix rows = w.transpose();
    return lap.multiply(rows).dot(rows);
  }

  /**
   * Q of the W step (Eq. 12) as an operator, never formed: {@code [X R Xᵀ] − F Fᵀ + αL + (β/2)P}
   * with F the d × c {@link WStats#betweenFactor}, L the sparse Laplacian of the feature graph
   * and the diagonal P; {@code X R Xᵀ} (dense d × d) only under {@code WITHIN}. A product costs
   * {@code O(d (c + k))} per vector without it, against d² for the dense Q.
   */
  record WStepMatrix(DenseMatrix within, DenseMatrix factor, double alpha, SparseRowMatrix lap,
      double[] penalty) implements BlockOperator {

    @Override
    public DenseMatrix apply(DenseMatrix v) {
      DenseMatrix out = within == null ? new DenseMatrix(v.rows(), v.cols())
          : v.multiply(within);
      out.addInPlace(-1.0, v.multiply(factor).multiplyTranspose(factor));
      out.addInPlace(alpha, lap.multiply(v));
      return out.addScaledColumnsInPlace(v, penalty);
    }

    /** A bound on |eigenvalues|: the norms of the parts (Gershgorin's for L, P and X R Xᵀ). */
    double bound() {
      double b = factor.frobeniusNormSquared();
      double lapRows = 0;
      double diagonal = 0;
      for (int i = 0; i < penalty.length; i++) {
        double sum = 0;
        for (double value : lap.values(i)) {
          sum += Math.abs(value);
        }
        lapRows = Math.max(lapRows, sum);
        diagonal = Math.max(diagonal, Math.abs(penalty[i]));
      }
      return b + alpha * lapRows + diagonal + (within == null ? 0 : within.maxAbsColumnSum());
    }
  }

  /** d₂ distinct columns of {@code I_d}, chosen by a partial Fisher-Yates shuffle. */
  static DenseMatrix randomFeatures(int d, int d2, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] perm = new int[d];
    for (int i = 0; i < d; i++) {
      perm[i] = i;
    }
    DenseMatrix w = new DenseMatrix(d, d2);
    for (int j = 0; j < d2; j++) {
      int pick = j + rnd.nextInt(d - j);
      int tmp = perm[j];
      perm[j] = perm[pick];
      perm[pick] = tmp;
      w.set(perm[j], j, 1.0);
    }
    return w;
  }

  /**
   * The mean squared deviation per sample that a random d₂-dimensional orthogonal projection
   * keeps: d₂ times the mean feature variance, {@code d₂ (tr G − n ||x̄||²) / (n d)} for the
   * d × d Gram G and the feature means x̄.
   */
  static double projectedVariance(DenseMatrix gram, double[] mean, int n, int d2) {
    int d = mean.length;
    double total = 0;
    for (int j = 0; j < d; j++) {
      total += gram.get(j, j) - n * mean[j] * mean[j];
    }
    return d2 * total / ((double) n * d);
  }

  /**
   * The d₂ leading eigenvectors (d × d₂) of the centred scatter {@code G − n x̄ x̄ᵀ} (G the
   * d × d Gram, x̄ the feature means), by the partial solver on the operator: no second d × d
   * matrix.
   */
  static DenseMatrix leadingDirections(DenseMatrix gram, double[] mean, int n, int d2,
      long seed) {
    int d = mean.length;
    DenseMatrix m = new DenseMatrix(d, 1, mean);
    BlockOperator negatedScatter = v -> v.multiply(m).multiplyTranspose(m).scaleInPlace(n)
        .addInPlace(-1.0, v.multiply(gram));
    // The scatter lies below the Gram, whose eigenvalues Gershgorin's bound covers.
    return SymmetricEigen.smallest(negatedScatter, d, d2, gram.maxAbsColumnSum(),
        randomFeatures(d, d2, seed)).vectors();
  }

  /** k-means centres (d₂ × c) of the projected samples {@code Wᵀ X}. */
  private static DenseMatrix initialCenters(RowBlockMatrix x, DenseMatrix w, int c, long seed) {
    try (RowBlockMatrix projected = x.projected(w)) {
      return new KMeans(c, INIT_KMEANS_MAX_ITER, INIT_KMEANS_TOL).fit(projected, seed).centers();
    }
  }

  /** Pass 1: current weights, V-step against {@code means}, and the W-step statistics. */
  private static WStats wPass(RowBlockMatrix x, Snapshot snap, DenseMatrix means,
      boolean withGram) {
    try (Shared<Snapshot> ss = x.execution().share(snap);
        Shared<DenseMatrix> sm = x.execution().share(means)) {
      return x.blocks().aggregate(b -> WStats.of(b, ss.get(), sm.get(), withGram),
          WStats::merge);
    }
  }

  /** Pass 2: losses, new weights (r-step) and the next U-step's statistics. */
  private static UStats uPass(RowBlockMatrix x, Snapshot snap) {
    try (Shared<Snapshot> ss = x.execution().share(snap)) {
      return x.blocks().aggregate(b -> UStats.of(b, ss.get()), UStats::merge);
    }
  }

  /** Stafford's 64-bit mix (variant 13), a bijective avalanche of the bits of z. */
  private static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** z_i ~ Bernoulli(s), a function of (seed, iteration, global sample index) only. */
  static boolean keep(long seed, int iteration, long sample, double s) {
    if (s >= 1) {
      return true;
    }
    long h = mix64(mix64(seed + 0x9E3779B97F4A7C15L * (iteration + 1L)) + sample);
    return new SplittableRandom(h).nextDouble() < s;
  }

  /** The self-paced weight {@code (1 + e^{−λ}) / (1 + e^{ℓ − λ})} of a kept sample, in [0, 1]. */
  static double weight(double loss, double lambda) {
    double r = (1 + Math.exp(-lambda)) / (1 + Math.exp(loss - lambda));
    return Math.min(1.0, Math.max(0.0, r));
  }

  /** A kept sample's {@code r ℓ + (a − r) ln(a − r) + r ln r − λ r}, {@code a = 1 + e^{−λ}}. */
  static double sampleTerm(double r, double loss, double lambda) {
    double a = 1 + Math.exp(-lambda);
    return r * loss + xlogx(a - r) + xlogx(r) - lambda * r;
  }

  private static double xlogx(double v) {
    return v > 0 ? v * Math.log(v) : 0.0;
  }

  /**
   * Sample i's loss against centre k, {@code ||y_i − u_k||²}, less {@code ||y_i − c||²} for a
   * projected global mean c (the {@code BETWEEN} criterion), with {@code y = WᵀX_b}.
   */
  static double loss(double[] y, int i, DenseMatrix centers, int k, double[] projectedMean) {
    double l = KMeans.squaredDistance(y, i, centers, k);
    if (projectedMean != null) {
      int dim = projectedMean.length;
      for (int a = 0; a < dim; a++) {
        double diff = y[i * dim + a] - projectedMean[a];
        l -= diff * diff;
      }
    }
    return l;
  }

  /**
   * Everything that determines the per-sample state after an iteration: sample i's cluster is
   * the nearest column of {@code assignBasisᵀ assignMeans} to {@code assignBasisᵀ x_i} (the V
   * step), its {@link #loss} is measured against {@code basisᵀ means} in the projection
   * {@code basisᵀ x_i}, in units of {@code unit} (the data are taken as X / √unit), and its
   * weight follows from the loss, λ and z_i. The initial state
   * (iteration −1) assigns by the initial k-means centres and weighs every sample 1.
   */
  static final class Snapshot implements Serializable {
    private static final long serialVersionUID = 1L;

    final DenseMatrix assignBasis;
    final DenseMatrix assignCenters;
    final DenseMatrix basis;
    final DenseMatrix centers;
    final double[] projectedMean;
    final double unit;
    final double lambda;
    final int iteration;
    final long seed;
    final double keepProbability;

    Snapshot(DenseMatrix assignBasis, DenseMatrix assignCenters, DenseMatrix basis,
        DenseMatrix centers, double[] projectedMean, double unit, double lambda, int iteration,
        long seed, double keepProbability) {
      this.assignBasis = assignBasis;
      this.assignCenters = assignCenters;
      this.basis = basis;
      this.centers = centers;
      this.projectedMean = projectedMean;
      this.unit = unit;
      this.lambda = lambda;
      this.iteration = iteration;
      this.seed = seed;
      this.keepProbability = keepProbability;
    }

    /**
     * Assignment under (assignBasis, assignMeans), losses under (basis, means) and, when
     * {@code mean} is not null, relative to that global mean (d-vectors and d × c means).
     */
    static Snapshot fromMeans(DenseMatrix assignBasis, DenseMatrix assignMeans,
        DenseMatrix basis, DenseMatrix means, double[] mean, double unit, double lambda,
        int iteration, long seed, double keepProbability) {
      return new Snapshot(assignBasis, assignBasis.transposeMultiply(assignMeans), basis,
          basis.transposeMultiply(means),
          mean == null ? null : basis.transposeMultiply(new DenseMatrix(mean.length, 1, mean))
              .data(),
          unit, lambda, iteration, seed, keepProbability);
    }

    static Snapshot initial(DenseMatrix basis, DenseMatrix centers, double unit, long seed,
        double s) {
      return new Snapshot(basis, centers, basis, centers, null, unit, 0.0, -1, seed, s);
    }

    boolean isInitial() {
      return iteration < 0;
    }

    /** The per-sample state of block b. */
    BlockState evaluate(RowBlock b) {
      int nb = b.numRows();
      DenseMatrix y = basis.transposeMultiply(b.columns());
      DenseMatrix ya = isInitial() ? y : assignBasis.transposeMultiply(b.columns());
      BlockState st = new BlockState(nb, y);
      for (int i = 0; i < nb; i++) {
        st.labels[i] = KMeans.nearest(ya.data(), i, assignCenters);
        st.losses[i] = loss(y.data(), i, centers, st.labels[i], projectedMean) / unit;
        if (isInitial()) {
          st.weights[i] = 1.0;
          st.kept[i] = true;
        } else {
          st.kept[i] = keep(seed, iteration, b.offset() + (long) i, keepProbability);
          st.weights[i] = st.kept[i] ? weight(st.losses[i], lambda) : 0.0;
        }
      }
      return st;
    }
  }

  /** Per-sample state of one block: labels, losses, weights, z, and {@code basisᵀ X_b}. */
  static final class BlockState {
    final int[] labels;
    final double[] losses;
    final double[] weights;
    final boolean[] kept;
    final DenseMatrix projection;

    BlockState(int nb, DenseMatrix projection) {
      labels = new int[nb];
      losses = new double[nb];
      weights = new double[nb];
      kept = new boolean[nb];
      this.projection = projection;
    }
  }

  /**
   * Sums of pass 1 for the W step: {@code X R Xᵀ}, {@code X R Vᵀ}, class weights
   * {@code diag(V R Vᵀ)}, class counts and unweighted class sums, under the new assignment.
   */
  static final class WStats implements Serializable {
    private static final long serialVersionUID = 1L;

    final DenseMatrix xrx;
    final DenseMatrix xrv;
    final DenseMatrix xv;
    final double[] classWeights;
    final long[] classCounts;

    WStats(DenseMatrix xrx, DenseMatrix xrv, DenseMatrix xv, double[] classWeights,
        long[] classCounts) {
      this.xrx = xrx;
      this.xrv = xrv;
      this.xv = xv;
      this.classWeights = classWeights;
      this.classCounts = classCounts;
    }

    /**
     * The statistics of block b, each sample assigned to the nearest of {@code means} in the
     * projection of snap; {@code X R Xᵀ} only if {@code withGram} (else an empty matrix).
     */
    static WStats of(RowBlock b, Snapshot snap, DenseMatrix means, boolean withGram) {
      BlockState st = snap.evaluate(b);
      int d = b.numCols();
      int nb = b.numRows();
      int c = means.cols();
      DenseMatrix u = snap.basis.transposeMultiply(means);
      int positive = 0;
      for (double r : st.weights) {
        positive += withGram && r > 0 ? 1 : 0;
      }
      double[] xv = b.columns().data();
      // sqrt(r_i) x_i for the samples of positive weight only: X R Xᵀ by one dsyrk.
      DenseMatrix scaled = new DenseMatrix(d, positive);
      double[] sv = scaled.data();
      DenseMatrix xrv = new DenseMatrix(d, c);
      DenseMatrix sums = new DenseMatrix(d, c);
      double[] weights = new double[c];
      long[] counts = new long[c];
      int col = 0;
      for (int i = 0; i < nb; i++) {
        int v = KMeans.nearest(st.projection.data(), i, u);
        double r = st.weights[i];
        int base = i * d;
        int cb = v * d;
        if (withGram && r > 0) {
          double root = Math.sqrt(r);
          int sb = col++ * d;
          for (int j = 0; j < d; j++) {
            sv[sb + j] = root * xv[base + j];
          }
        }
        for (int j = 0; j < d; j++) {
          double value = xv[base + j];
          xrv.data()[cb + j] += r * value;
          sums.data()[cb + j] += value;
        }
        weights[v] += r;
        counts[v]++;
      }
      return new WStats(withGram ? scaled.gram() : new DenseMatrix(0, 0), xrv, sums, weights,
          counts);
    }

    static WStats merge(WStats a, WStats b) {
      if (a.xrx.rows() > 0) {
        DenseMatrix.accumulate(a.xrx, b.xrx);
      }
      DenseMatrix.accumulate(a.xrv, b.xrv);
      DenseMatrix.accumulate(a.xv, b.xv);
      for (int j = 0; j < a.classWeights.length; j++) {
        a.classWeights[j] += b.classWeights[j];
        a.classCounts[j] += b.classCounts[j];
      }
      return a;
    }

    /**
     * The W step's data term (a new d × d matrix). Without a mean: the weighted within-cluster
     * scatter {@code X R Xᵀ − X R Vᵀ (V R Vᵀ)⁺ V R Xᵀ} (Eq. 12); with the global mean x̄: that
     * less the weighted total scatter about x̄, {@code −Σ_k w_k (m_k − x̄)(m_k − x̄)ᵀ} with m_k
     * the weighted class means and w_k the class weights. The pseudo-inverse drops clusters of
     * zero weight.
     */
    DenseMatrix scatter(double[] mean) {
      DenseMatrix scaled = betweenFactor(mean);
      DenseMatrix between = scaled.multiplyTranspose(scaled);
      return mean == null ? xrx.copy().addInPlace(-1.0, between) : between.scaleInPlace(-1.0);
    }

    /**
     * The d × c factor F of the between part of {@link #scatter}, which is {@code X R Xᵀ − F Fᵀ}
     * without a mean and {@code −F Fᵀ} with one: column k is {@code √w_k (m_k − x̄)} (x̄ = 0
     * without a mean), zero for a cluster of zero weight.
     */
    DenseMatrix betweenFactor(double[] mean) {
      int d = xrv.rows();
      int c = xrv.cols();
      DenseMatrix scaled = new DenseMatrix(d, c);
      for (int j = 0; j < c; j++) {
        if (classWeights[j] > 0) {
          double s = 1 / Math.sqrt(classWeights[j]);
          for (int i = 0; i < d; i++) {
            double v = s * xrv.get(i, j);
            scaled.set(i, j, mean == null ? v : v - classWeights[j] * s * mean[i]);
          }
        }
      }
      return scaled;
    }

    /**
     * The class means the W step implies, {@code X R Vᵀ (V R Vᵀ)^{-1}} (d × c; Eq. 8 is
     * {@code U = Wᵀ} times them); a cluster of zero weight gets its unweighted mean (the origin
     * when empty).
     */
    DenseMatrix impliedMeans() {
      int d = xrv.rows();
      DenseMatrix m = new DenseMatrix(d, classWeights.length);
      for (int j = 0; j < classWeights.length; j++) {
        for (int a = 0; a < d; a++) {
          if (classWeights[j] > 0) {
            m.set(a, j, xrv.get(a, j) / classWeights[j]);
          } else if (classCounts[j] > 0) {
            m.set(a, j, xv.get(a, j) / classCounts[j]);
          }
        }
      }
      return m;
    }
  }

  /**
   * Sums of pass 2: {@code X R Vᵀ} and class weights for the next U step, the c worst-fitted
   * samples for re-seeding, the objective's sample terms and weight counts.
   */
  static final class UStats implements Serializable {
    private static final long serialVersionUID = 1L;

    final DenseMatrix weightedSums;
    final double[] classWeights;
    final Worst worst;
    double sampleTerms;
    double totalWeight;
    double smallestLoss = Double.POSITIVE_INFINITY;
    long downWeighted;
    long zeroWeight;
    long dropped;

    UStats(int d, int c) {
      weightedSums = new DenseMatrix(d, c);
      classWeights = new double[c];
      worst = new Worst(d, c);
    }

    static UStats of(RowBlock b, Snapshot snap) {
      BlockState st = snap.evaluate(b);
      int d = b.numCols();
      int c = snap.centers.cols();
      UStats s = new UStats(d, c);
      double[] x = b.columns().data();
      double[] ws = s.weightedSums.data();
      for (int i = 0; i < st.labels.length; i++) {
        double r = st.weights[i];
        int v = st.labels[i];
        for (int a = 0; a < d; a++) {
          ws[v * d + a] += r * x[i * d + a];
        }
        s.classWeights[v] += r;
        s.totalWeight += r;
        s.smallestLoss = Math.min(s.smallestLoss, st.losses[i]);
        if (st.kept[i]) {
          s.sampleTerms += snap.isInitial() ? r * st.losses[i]
              : sampleTerm(r, st.losses[i], snap.lambda);
        } else {
          s.dropped++;
        }
        if (r < 0.5) {
          s.downWeighted++;
        }
        if (r == 0) {
          s.zeroWeight++;
        }
        s.worst.offer(r * st.losses[i], st.losses[i], b.offset() + i, x, i * d);
      }
      return s;
    }

    static UStats merge(UStats a, UStats b) {
      DenseMatrix.accumulate(a.weightedSums, b.weightedSums);
      for (int j = 0; j < a.classWeights.length; j++) {
        a.classWeights[j] += b.classWeights[j];
      }
      a.worst.mergeFrom(b.worst);
      a.sampleTerms += b.sampleTerms;
      a.totalWeight += b.totalWeight;
      a.smallestLoss = Math.min(a.smallestLoss, b.smallestLoss);
      a.downWeighted += b.downWeighted;
      a.zeroWeight += b.zeroWeight;
      a.dropped += b.dropped;
      return a;
    }

    /**
     * The U step (Eq. 8, as the class means M with {@code U = WᵀM}), emptied clusters
     * re-seeded at the worst-fitted samples.
     */
    DenseMatrix means() {
      int d = weightedSums.rows();
      DenseMatrix m = new DenseMatrix(d, classWeights.length);
      int next = 0;
      for (int j = 0; j < classWeights.length; j++) {
        if (classWeights[j] > 0) {
          for (int a = 0; a < d; a++) {
            m.set(a, j, weightedSums.get(a, j) / classWeights[j]);
          }
        } else {
          System.arraycopy(worst.points, next * d, m.data(), j * d, d);
          next++;
        }
      }
      return m;
    }

    /** The number of clusters {@link #means()} re-seeds. */
    int emptied() {
      int e = 0;
      for (double wgt : classWeights) {
        if (!(wgt > 0)) {
          e++;
        }
      }
      return e;
    }
  }

  /**
   * The {@code capacity} worst-fitted samples, by weighted loss, then loss, then lower index,
   * with their projections: a bounded sorted list whose merge does not depend on block order.
   */
  static final class Worst implements Serializable {
    private static final long serialVersionUID = 1L;

    final int k;
    final int capacity;
    int size;
    final double[] weighted;
    final double[] losses;
    final long[] index;
    final double[] points;

    Worst(int k, int capacity) {
      this.k = k;
      this.capacity = capacity;
      weighted = new double[capacity];
      losses = new double[capacity];
      index = new long[capacity];
      points = new double[capacity * k];
    }

    private static boolean before(double w1, double l1, long i1, double w2, double l2, long i2) {
      if (w1 != w2) {
        return w1 > w2;
      }
      if (l1 != l2) {
        return l1 > l2;
      }
      return i1 < i2;
    }

    void offer(double w, double loss, long idx, double[] src, int from) {
      if (size == capacity
          && !before(w, loss, idx, weighted[size - 1], losses[size - 1], index[size - 1])) {
        return;
      }
      int at = size < capacity ? size++ : capacity - 1;
      while (at > 0 && before(w, loss, idx, weighted[at - 1], losses[at - 1], index[at - 1])) {
        weighted[at] = weighted[at - 1];
        losses[at] = losses[at - 1];
        index[at] = index[at - 1];
        System.arraycopy(points, (at - 1) * k, points, at * k, k);
        at--;
      }
      weighted[at] = w;
      losses[at] = loss;
      index[at] = idx;
      System.arraycopy(src, from, points, at * k, k);
    }

    void mergeFrom(Worst other) {
      for (int p = 0; p < other.size; p++) {
        offer(other.weighted[p], other.losses[p], other.index[p], other.points, p * k);
      }
    }
  }

  @Override
  public boolean isScaleFree() {
    return common.isScaleFree();
  }

  /**
   * Scored by its row norms (see the interface): few-samples .17; by the regression, whose
   * target can be the clusters of the samples weighted by those norms, .88 (docs/recall.md).
   */
  @Override
  public boolean losesPlantedFeaturesWhenWide() {
    return scoring == FeatureScoring.PROJECTION;
  }

  @Override
  public String denseInputReason() {
    return "needs the dense d x d Gram of its triplet graph (Eq. 5) and the projection Wᵀ X "
        + "(Eq. 8)";
  }

  @Override
  public DriverMemory.Need driverNeed(int n, int d) {
    return RowBlockMatrix.gramNeed(d);
  }
}
