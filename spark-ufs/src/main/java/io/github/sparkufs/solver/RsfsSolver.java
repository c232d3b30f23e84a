package io.github.sparkufs.solver;

import io.github.sparkufs.cluster.KMeans;
import io.github.sparkufs.graph.LaplacianNullSpace;
import io.github.sparkufs.graph.LocalKernelRegressionGraph;
import io.github.sparkufs.linalg.BlockOperator;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.DriverMemory;
import io.github.sparkufs.linalg.Execution;
import io.github.sparkufs.linalg.FeatureUnits;
import io.github.sparkufs.linalg.Lobpcg;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.RegularizedRegression;
import io.github.sparkufs.linalg.ResourceScope;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.RowSparsityWeights;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.linalg.SparseRowMatrix;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RSFS, robust spectral learning for unsupervised feature selection (Shi, Du and Shen, ICDM
 * 2014). It minimises (Eq. 9)
 * <pre>
 *   Tr(Fᵀ M F) + α ||(F − Z) − Xᵀ W||² + β ||W||₂,₁ + γ ||Z||₁,   F ≥ 0, FᵀF = I,
 * </pre>
 * with {@code M = B − S − Sᵀ} built from the local kernel regression graph S of Eq. 3
 * ({@link LocalKernelRegressionGraph}), a sparse noise matrix Z on the relaxed cluster
 * indicator F, and the orthogonality constraint relaxed to the penalty
 * {@code ν/2 ||FᵀF − I||²} of Eq. 15. Features are scored by {@code ||w_i||₂}, larger is better;
 * with {@code standardization} (default; a step the paper lacks) the regression and its ℓ2,1
 * penalty weigh the features in units of their standard deviation ({@link FeatureUnits}) and
 * the score is {@code σ_i ||w_i||₂}, the feature's contribution to XᵀW.
 *
 * <p><b>Layout.</b> X is d × n (one column per sample). The per-sample matrices F and Z (n × c in
 * the paper) are stored transposed, c × n, one column per sample; they stay on the driver
 * between iterations and are shared with the blocks.
 *
 * <p><b>Algorithm 1</b>, from D = I and Z = 0, repeats
 * <ol>
 *   <li>{@code W = (XXᵀ + (β/α) D)^{-1} X (F − Z)} (Eq. 11; the paper's Algorithm 1 prints
 *       "X(FᵗZᵗ)" for F − Z), on the d × d side or, when d > n, by the Woodbury form of
 *       {@link RegularizedRegression};</li>
 *   <li>{@code E = F − XᵀW}, {@code Z = softThreshold(E, γ/(2α))} (Eq. 13);</li>
 *   <li>{@code A = XᵀW + Z} and the multiplicative update of Eq. 18,
 *       {@code F ← F ⊙ sqrt((M⁻F + νF + αA⁺) / (M⁺F + αF + νFFᵀF + αA⁻))}, with
 *       {@code M⁺ = B} (diagonal) and {@code M⁻ = S + Sᵀ}, which keeps F ≥ 0;</li>
 *   <li>{@code D_ii = 1 / (2 sqrt(||w_i||² + ε))} (the paper's σ, ε-smoothed).</li>
 * </ol>
 * Steps 2–3 for the current W and the factor for the next step 1, {@code X (F_new − Z)}, are
 * fused into one pass over the blocks: each iteration is one driver solve and one collect
 * (two passes on the Woodbury path, whose solve reads the blocks itself).
 * On the d × d path the Gram {@code XXᵀ} is computed once and each solve refactorises it plus
 * the new diagonal in one reused work matrix; this Cholesky is most of an iteration's cost. The
 * iterations are not cut short: on COIL20 the relative change is still 1.5e-3 at iteration 30,
 * and stopping at 15 (relative change 1e-2) measured ACC .631 at m = 50 against .639 (seed 1,
 * 20 k-means runs), so {@code maxIter} and {@code tol} keep the shared defaults.
 *
 * <p><b>Objective history.</b> After iteration t the recorded value is Eq. 9 plus the penalty
 * {@code ν/2 ||FᵀF − I||²} at {@code (W_t, Z_t, F_{t−1})}: the W and Z just computed and the F
 * they were fitted to (the point where all three are known after one pass). Each block of
 * Algorithm 1 lowers this penalised objective, so the history never increases. Its ℓ2,1 term is
 * {@code Σ_i sqrt(||w_i||² + ε)}, the ε-smoothed norm the reweighting in step 4 minimises (it
 * differs from {@code ||W||₂,₁} by at most {@code d·sqrt(ε)}). {@link #huberObjectiveHistory()}
 * gives the same quantity computed from the Huber form of Eq. 14, with Z eliminated:
 * {@code Tr(FᵀMF) + α Σ_ij H(E_ij) + β ||W||₂,₁ + ν/2 ||FᵀF − I||²} where
 * {@code H(e) = e²} for {@code |e| ≤ γ/(2α)} and {@code (γ/α)|e| − (γ/(2α))²} otherwise; since
 * Z is the minimiser of Eq. 12 for that E, the two histories agree (the duality of Eq. 12–14).
 *
 * <p><b>Feature scaling (a step the paper does not have).</b> The local kernel regression graph
 * and the k-means start are computed on the samples centred and in the unit of
 * {@code featureScaling} (by default each feature divided by its range,
 * {@link CommonOptions#scaledSamples}); with {@code standardization} the regression is in
 * standard units too, and the fit depends on no feature's unit. Planted recall over 5 draws
 * per family (docs/recall.md) moved from .72 as given to .95 by range; docs/methods/rsfs.md has
 * the benchmark datasets.
 *
 * <p><b>Initialisation.</b> F starts as a cluster indicator plus {@value #INIT_OFFSET}, each
 * cluster column scaled to unit norm so that {@code diag(FᵀF) = 1}: a strictly positive start
 * matters because a multiplicative update never moves a zero entry (the authors start from the
 * one-hot indicator, which therefore never changes its support). The clusters come from
 * {@link ClusterStart}: {@code SPECTRAL}, the authors' start, k-means (best of
 * {@value #INIT_KMEANS_RUNS} seeded runs) on the eigenvectors of the c − 1 smallest non-trivial
 * eigenvalues of M, a fixed basis of its null space first ({@link #spectralClusters});
 * {@code KMEANS}, the k-means clusters of the samples that NDFS starts from
 * ({@link NdfsSolver#initialClusters}); or {@code BOTH}, the
 * default, which runs Algorithm 1 from each and keeps the fit whose final objective (Eq. 9 plus
 * the ν penalty) is lower. Algorithm 1 only reaches a local minimum, and the objective is the
 * paper's own criterion, so comparing the two needs no labels; it costs a second run of the
 * iterations. The spectral start can lead into a poor local minimum when the kNN graph holds
 * small, loosely attached groups of samples: the smallest eigenvectors of M sit on those groups
 * and the start is one large cluster plus groups of a handful of samples. That was seen on
 * planted samples that were not independent (the {@code scale} command's data before each
 * sample's random stream was hashed apart), where RSFS from it selected 0 or 1 of the 10
 * planted features and the k-means start all 10 at the lower objective; on independent planted
 * samples (n = 2,000, seeds 1..10) both starts find all 10. Where the spectral start is sound
 * (the ground-truth families at n = 400) the two starts end at objectives within 1 % of each
 * other and select the same features. On the
 * benchmarks (seed 1, 20 k-means runs; ACC at m = 50 and mean ACC over m = 50..300) the
 * objective keeps the spectral start on ORL, JAFFE, Yale, warpPIE10P and Isolet1 (tables
 * unchanged; on Isolet1 the k-means start would have scored .610 / .645 against .560 / .622)
 * and the k-means start on COIL20 (.640 / .655 becomes .619 / .649; over seeds 1..5 ACC at
 * m = 50 .632–.644 becomes .608–.632) and USPS (.584 / .628 becomes .617 / .628).
 *
 * <p><b>Noise threshold.</b> An entry of E counts as noise beyond γ/(2α) (Eq. 13), a threshold
 * that does not scale with n although, with {@code FᵀF ≈ I}, a column of F spread over s
 * samples has entries near {@code 1/sqrt(s)}. Hence Z absorbs whole clusters of fewer than
 * {@code (2α/γ)²} samples (400 at the defaults), the Huber term of such an unfitted column
 * costing about {@code γ sqrt(s)} instead of α: this is what makes the spectral start's
 * small-group solution the lower objective on the planted draw above up to n ≈ 5,000 (with
 * γ = 10, where Z stays zero, the k-means start is the lower one at n = 2,000 already), and at
 * n = 10,000 and beyond, where a balanced cluster's entries fall below the threshold, no entry
 * is noise. Scaling the threshold with a balanced column's entries, {@code sqrt(c/n)}, would
 * not help: the cost of absorbing a group, {@code γ sqrt(s c / n)}, would fall further. The
 * threshold therefore stays that of Eq. 13.
 *
 * <p>Instances hold the state of their last fit ({@link #weights()}, {@link #noise()},
 * {@link #indicator()}, {@link #huberObjectiveHistory()}); a fit is not thread-safe.
 *
 * <p>Sparse input is densified for this method: it needs the dense X for X Xᵀ and X (F − Z) of
 * its W-step (Eq. 11) and Xᵀ W of its E-step (Eq. 13).
 */
public final class RsfsSolver implements FeatureSelectionSolver {

  /** α of Eq. 9, the weight of the robust regression term (the authors' setting). */
  public static final ParamSpec<Double> ALPHA = ParamSpec.real("alpha", 1.0,
      Range.greaterThan(0), "Eq. 9", "α: weight of the robust regression term "
          + "||(F − Z) − XᵀW||²");
  /** β of Eq. 9, the weight of the ℓ2,1 row sparsity of W (the authors' setting). */
  public static final ParamSpec<Double> BETA = ParamSpec.real("beta", 1.0, Range.greaterThan(0),
      "Eq. 9", "β: weight of the ℓ2,1 row sparsity of W");
  /**
   * γ of Eq. 9, the weight of the ℓ1 sparsity of the noise Z: entries of {@code F − XᵀW} beyond
   * γ/(2α) = 0.05 count as noise. The authors' code calls this parameter {@code nu} (its
   * threshold is {@code nu/(2α)}) and runs its grid over {10^-3, …, 10^3}. Measured on COIL20
   * over γ ∈ {0.01, 0.1, 1, 10} (0.1 best); with the spectral start γ = 0.1 and 1 give the same
   * ACC at m = 50 (.639) and γ = 0.1 the higher best ACC over m (.669 against .654). On ORL and
   * JAFFE γ ∈ {0.1, 1} gave identical tables: with d > n, XᵀW fits F almost exactly.
   */
  public static final ParamSpec<Double> GAMMA = ParamSpec.real("gamma", 0.1, Range.atLeast(0),
      "Eq. 9", "γ: weight of the ℓ1 norm of the noise Z; soft threshold γ/(2α) (Eq. 13)");
  /**
   * ν of Eq. 15, the weight of the orthogonality penalty on F. The paper sets ν "large"; the
   * authors' code hard-codes it as {@code gamma = 10^8}, which (from their one-hot start) keeps F
   * at its initial clusters. Here F starts strictly positive and ν = 1 lets the graph and
   * regression terms move it; with the spectral start and the other defaults, ν = 10^8 (F pinned
   * to the orthogonalised start) measured ACC at m = 50 of .640 / .539 / .766 on COIL20 / ORL /
   * JAFFE against .639 / .549 / .751 for ν = 1, and best ACC over m .651 / .577 / .822 against
   * .669 / .568 / .828 (seed 1, 20 k-means runs): no consistent difference. At 0 nothing keeps
   * F ≈ orthogonal.
   */
  public static final ParamSpec<Double> NU = ParamSpec.real("nu", 1.0, Range.greaterThan(0),
      "Eq. 15", "ν: weight of the orthogonality penalty ν/2 ||FᵀF − I||²");
  /** Where F starts; by default both starts, the lower objective kept (see "Initialisation"). */
  public static final ParamSpec<ClusterStart> INIT_MODE = ParamSpec.choice("initMode",
      ClusterStart.BOTH, "Eq. 9", "start of F: spectral (the authors' spectral clusters of the "
          + "graph), kmeans (k-means clusters of the samples) or both (a fit from each, the "
          + "lower objective of Eq. 9 kept)");
  /** Whether W and its ℓ2,1 penalty weigh the features in standard units (class comment). */
  public static final ParamSpec<Boolean> STANDARDIZATION = ParamSpec.flag("standardization",
      true, "Eq. 9", "whether the regression (F − Z) ≈ XᵀW and its ℓ2,1 penalty weigh the "
          + "features in units of their standard deviation, so that a feature is charged and "
          + "scored by its contribution to XᵀW (a step the paper lacks); false is Eq. 9 on the "
          + "raw features, whose row norms favour low-variance features");
  /** RSFS's params. */
  public static final List<ParamSpec<?>> PARAMS = List.of(CommonOptions.NUM_CLUSTERS,
      CommonOptions.NUM_NEIGHBORS, CommonOptions.KERNEL_WIDTH, CommonOptions.KNN_ALGORITHM,
      CommonOptions.MAX_ITER, CommonOptions.TOL, CommonOptions.SEED,
      CommonOptions.FEATURE_SCALING, ALPHA, BETA, GAMMA, NU, INIT_MODE, STANDARDIZATION);

  /** Added to the k-means indicator so that every entry of the initial F is positive. */
  static final double INIT_OFFSET = 0.2;
  /**
   * Seeded k-means runs on the spectral embedding that initialises F; the lowest cost wins.
   * With 5 runs instead of 10 (and {@link #EIGEN_TOL} 1e-3 instead of 1e-4) the bench on COIL20
   * (seed 1, 20 k-means runs) gave the same ACC at m = 50 (.639) and ACC .653 / .654 / .655 /
   * .662 / .654 against .644 / .652 / .640 / .640 / .668 at m = 100..300; on JAFFE the same
   * table to the last digit.
   */
  static final int INIT_KMEANS_RUNS = 5;
  /** Eigenvectors iterated beyond the c − 1 wanted by the initialising eigensolver. */
  static final int EIGEN_EXTRA = 5;
  /**
   * Residual tolerance of the initialising eigensolver in the Jacobi-scaled {@code
   * B^{-1/2} M B^{-1/2}}, whose spectrum lies in [0, 2]: the eigenvectors only seed a k-means.
   */
  static final double EIGEN_TOL = 1e-3;
  /** Iteration budget (one product each) of the initialising eigensolver. */
  static final int EIGEN_MAX_ITERATIONS = 1000;
  /** Lloyd iterations of the k-means that initialises F. */
  static final int INIT_KMEANS_MAX_ITER = 30;
  /** Relative cost decrease below which the initialising k-means stops. */
  static final double INIT_KMEANS_TOL = 1e-4;
  /** Floor of the denominator of the multiplicative update. */
  static final double DENOMINATOR_FLOOR = 1e-300;

  private final CommonOptions common;
  private final double alpha;
  private final double beta;
  private final double gamma;
  private final double nu;
  private final double kernelWidth;
  private final ClusterStart initMode;
  private final boolean standardization;

  private double[] huberHistory = new double[0];
  private DenseMatrix weights;
  private DenseMatrix noise;
  private DenseMatrix indicator;

  /** @param options values of {@link #PARAMS} */
  public RsfsSolver(MethodOptions options) {
    this.common = options.common();
    this.alpha = options.get(ALPHA);
    this.beta = options.get(BETA);
    this.gamma = options.get(GAMMA);
    this.nu = options.get(NU);
    this.kernelWidth = options.get(CommonOptions.KERNEL_WIDTH);
    this.initMode = options.get(INIT_MODE);
    this.standardization = options.get(STANDARDIZATION);
  }

  /**
   * The closed-form minimiser of {@code (e − z)² + 2·threshold·|z|} (Eq. 12–13 with
   * {@code threshold = γ/(2α)}): 0 when {@code |e| ≤ threshold}, else
   * {@code (1 − threshold/|e|) e}.
   */
  public static double softThreshold(double e, double threshold) {
    double a = Math.abs(e);
    return a <= threshold ? 0.0 : Math.copySign(a - threshold, e);
  }

  /** {@link #softThreshold(double, double)} of every entry, as a new matrix. */
  public static DenseMatrix softThreshold(DenseMatrix e, double threshold) {
    DenseMatrix z = new DenseMatrix(e.rows(), e.cols());
    double[] ev = e.data();
    double[] zv = z.data();
    for (int i = 0; i < ev.length; i++) {
      zv[i] = softThreshold(ev[i], threshold);
    }
    return z;
  }

  /**
   * The Huber function of Eq. 14, {@code min_z (e − z)² + 2·threshold·|z|}: {@code e²} for
   * {@code |e| ≤ threshold}, else {@code 2·threshold·|e| − threshold²}.
   */
  public static double huber(double e, double threshold) {
    double a = Math.abs(e);
    return a <= threshold ? a * a : 2 * threshold * a - threshold * threshold;
  }

  @Override
  public SelectionResult fit(RowBlockMatrix x) {
    int n = x.numRows();
    int c = common.numClusters();
    if (c > n) {
      throw new IllegalArgumentException("numClusters (" + c + ") exceeds the " + n + " samples");
    }
    Execution ex = x.execution();
    RegularizedRegression regression = new RegularizedRegression(x);
    LocalKernelRegressionGraph graph;
    double graphSeconds;
    int[] kmeansStart = null;
    double initSeconds = 0;
    try (ResourceScope scope = new ResourceScope()) {
      RowBlockMatrix geometry = common.scaledSamples(x, scope);
      long graphStart = System.nanoTime();
      graph = LocalKernelRegressionGraph.build(geometry, common.numNeighbors(), kernelWidth,
          common.knnSearch());
      graphSeconds = (System.nanoTime() - graphStart) / 1e9;
      if (initMode != ClusterStart.SPECTRAL) {
        ex.describe("RSFS: kmeans initialisation of F");
        long initStart = System.nanoTime();
        kmeansStart = NdfsSolver.initialClusters(geometry, regression.usesSampleSide() ? null
            : geometry == x ? regression.gram() : geometry.gram(), c, common.seed());
        initSeconds += (System.nanoTime() - initStart) / 1e9;
      }
    }

    Map<String, Double> summary = new LinkedHashMap<>();
    ClusterStart.LowestObjective<Run> lowest = new ClusterStart.LowestObjective<>(summary);
    int ridgeSolves = 0;
    double iterationSeconds = 0;
    FeatureUnits units = FeatureUnits.of(x.columnStatistics(), standardization);
    try (Partitioned<GraphRows> graphRows = graphRows(x, graph)) {
      for (boolean spectral : new boolean[] {true, false}) {
        if (spectral ? initMode == ClusterStart.KMEANS : initMode == ClusterStart.SPECTRAL) {
          continue;
        }
        String start = spectral ? "spectral" : "kmeans";
        int[] init = kmeansStart;
        if (spectral) {
          ex.describe("RSFS: spectral initialisation of F");
          long initStart = System.nanoTime();
          init = spectralClusters(ex, graphRows, graph, n, c, common.seed());
          initSeconds += (System.nanoTime() - initStart) / 1e9;
        }
        long loopStart = System.nanoTime();
        Run run = iterate(x, graphRows, regression, units,
            ClusterIndicator.relaxed(init, c, INIT_OFFSET));
        iterationSeconds += (System.nanoTime() - loopStart) / 1e9;
        ridgeSolves += run.objectives.length;
        lowest.offer(start, run, run.finalObjective());
      }
    }
    Run kept = lowest.kept();
    weights = kept.weights;
    noise = kept.noise;
    indicator = kept.indicator;
    huberHistory = kept.huber;

    int iterations = kept.objectives.length;
    summary.put("initStarts", initMode == ClusterStart.BOTH ? 2.0 : 1.0);
    summary.put("objective", kept.finalObjective());
    summary.put("huberObjective", huberHistory[iterations - 1]);
    summary.put("kernelWidth", graph.width());
    summary.put("graphEdges", (double) graph.symmetric().numEntries());
    summary.put("graphSeconds", graphSeconds);
    summary.put("initSeconds", initSeconds);
    summary.put("iterationSeconds", iterationSeconds);
    summary.put("ridgeSolves", (double) ridgeSolves);
    summary.put("noiseFraction", kept.noiseFraction);
    summary.put("orthogonalityError", kept.orthogonalityError);
    summary.put("sampleSide", regression.usesSampleSide() ? 1.0 : 0.0);
    return new SelectionResult(units.scores(weights), true, iterations, kept.converged,
        kept.objectives, summary);
  }

  /** Algorithm 1 from the initial indicator {@code f} (c × n), D = I and Z = 0. */
  private Run iterate(RowBlockMatrix x, Partitioned<GraphRows> graphRows,
      RegularizedRegression regression, FeatureUnits units, DenseMatrix f) {
    Execution ex = x.execution();
    int c = f.rows();
    int n = f.cols();
    DenseMatrix z = new DenseMatrix(c, n);
    boolean sampleSide = regression.usesSampleSide();
    double[] dWeights = units.initialWeights();
    DenseMatrix product = sampleSide ? null : multiply(x, f);
    double threshold = gamma / (2 * alpha);

    IterativeFit loop = new IterativeFit("RSFS", common);
    double[] huberValues = new double[common.maxIter()];
    Run run = new Run();
    while (loop.next()) {
      ex.describe("RSFS iteration " + loop.iteration());
      DenseMatrix w = sampleSide
          ? solveSampleSide(ex, regression, dWeights, f, z)
          : solveFeatureSide(regression, dWeights, product);
      DenseMatrix ftf = f.multiplyTranspose(f);
      List<BlockStep> parts;
      try (Shared<StepInput> in = ex.share(
          new StepInput(w, f, ftf, alpha, threshold, nu, !sampleSide))) {
        parts = x.blocks().zipCollect(graphRows, (b, g) -> step(b, g, in.get()));
      }
      BlockStep total = BlockStep.combine(parts, c, n);

      double penalty = 0.5 * nu * orthogonalityGapSquared(ftf);
      double l21 = RowSparsityWeights.smoothedL21Norm(units.standardized(w),
          RowSparsityWeights.DEFAULT_EPSILON);
      double objective = total.graphTerm + alpha * total.fitTerm + beta * l21
          + gamma * total.l1Term + penalty;
      huberValues[loop.iteration() - 1] = total.graphTerm + alpha * total.huberTerm
          + beta * l21 + penalty;
      run.weights = w;
      run.noise = total.z;
      run.indicator = f;
      run.orthogonalityError = Math.sqrt(orthogonalityGapSquared(ftf));
      run.noiseFraction = total.nonZeros / ((double) c * n);
      loop.record(objective);

      z = total.z;
      f = total.f;
      product = total.product;
      dWeights = units.l21Weights(w, RowSparsityWeights.DEFAULT_EPSILON);
    }
    IterativeFit.Result result = loop.result();
    run.objectives = result.objectives();
    run.converged = result.converged();
    run.huber = Arrays.copyOf(huberValues, result.iterations());
    return run;
  }

  /**
   * The Huber form (Eq. 14) of the objective after each iteration of the last fit, aligned with
   * {@link SelectionResult#objectiveHistory()} (same length, equal up to rounding).
   */
  public double[] huberObjectiveHistory() {
    return huberHistory.clone();
  }

  /** W (d × c) of the last iteration of the last fit; null before a fit. */
  public DenseMatrix weights() {
    return weights == null ? null : weights.copy();
  }

  /**
   * Z (c × n, the paper's n × c transposed) of the last iteration of the last fit: the soft
   * threshold of {@code E = F − XᵀW} for {@link #indicator()} and {@link #weights()}.
   */
  public DenseMatrix noise() {
    return noise == null ? null : noise.copy();
  }

  /**
   * F (c × n, the paper's n × c transposed) that the last W and Z were fitted to, i.e. the
   * indicator at which the last objective value was recorded.
   */
  public DenseMatrix indicator() {
    return indicator == null ? null : indicator.copy();
  }

  /**
   * Each data block's rows of {@code S + Sᵀ} and of B's diagonal, cached until closed. They are
   * kept apart from the data: the eigensolver's products read only them, and the iterations
   * read the data blocks beside them (keeping the two together would cache the data twice).
   */
  static Partitioned<GraphRows> graphRows(RowBlockMatrix x, LocalKernelRegressionGraph g) {
    try (Shared<SparseRowMatrix> sym = x.execution().share(g.symmetric());
        Shared<double[]> deg = x.execution().share(g.degrees())) {
      return x.blocks().map(b -> new GraphRows(b.offset(),
          sym.get().rows(b.offset(), b.numRows()),
          Arrays.copyOfRange(deg.get(), b.offset(), b.offset() + b.numRows())));
    }
  }

  /**
   * The clustering that starts F, as in the authors' code (k-means on the c smallest
   * eigenvectors of M, the graph term {@code Tr(FᵀMF)} of Eq. 9): the eigenvectors of the c − 1
   * smallest non-trivial eigenvalues of M, then k-means on these per-sample embeddings, lowest
   * cost of {@value #INIT_KMEANS_RUNS} runs seeded from {@code seed}. M, the Laplacian of
   * {@code S + Sᵀ}, has the eigenvalue 0 once per connected piece of the graph (K times,
   * spanned by the pieces' indicators; the constant, trivial, would be a constant k-means
   * coordinate); with K − 1 > c − 1 an eigensolver's random start would choose which
   * directions of that space the embedding takes. Its first vectors are therefore the fixed
   * basis of {@link LaplacianNullSpace} (ω = 1: the indicators, largest piece first,
   * orthogonalised against the constant), the rest the smallest non-zero eigenvectors, computed
   * with the K indicators deflated by {@link Lobpcg} with one pass over the blocks per product
   * and the Jacobi preconditioner {@code 1 / B_ii} (so hub nodes, whose degrees grow with n, do
   * not slow it); no eigensolve when {@code K − 1 ≥ c − 1}. With c = 1, or c = n (each
   * sample its own cluster), there is nothing to compute and sample i gets cluster {@code i mod c}.
   */
  static int[] spectralClusters(Execution ex, Partitioned<GraphRows> graphRows,
      LocalKernelRegressionGraph graph, int n, int c, long seed) {
    int wanted = c - 1;
    if (wanted < 1 || n - 1 <= wanted) {
      int[] labels = new int[n];
      for (int i = 0; i < n; i++) {
        labels[i] = i % c;
      }
      return labels;
    }
    double[] inverseDegrees = new double[n];
    for (int i = 0; i < n; i++) {
      double degree = graph.degrees()[i];
      inverseDegrees[i] = degree > 0 ? 1 / degree : 1;
    }
    LaplacianNullSpace nullSpace =
        LaplacianNullSpace.of(graph.symmetric(), LaplacianNullSpace.unitWeights(n));
    BlockOperator operator = v -> {
      try (Shared<DenseMatrix> sv = ex.share(v)) {
        return RowBlockMatrix.concatColumns(v.rows(),
            graphRows.collect(g -> g.applyM(sv.get())));
      }
    };
    DenseMatrix embedding = nullSpace.smallest(wanted, operator, inverseDegrees, 2.0,
        EIGEN_EXTRA, EIGEN_TOL, EIGEN_MAX_ITERATIONS, seed).vectors();
    long[] seeds = new long[INIT_KMEANS_RUNS];
    for (int run = 0; run < seeds.length; run++) {
      seeds[run] = seed + run;
    }
    return new KMeans(c, INIT_KMEANS_MAX_ITER, INIT_KMEANS_TOL)
        .fitBest(RowBlockMatrix.local(embedding), seeds).labels();
  }

  /** {@code X Fᵀ} for a c × n per-sample matrix, by one aggregate. */
  private static DenseMatrix multiply(RowBlockMatrix x, DenseMatrix perSample) {
    try (Shared<DenseMatrix> s = x.execution().share(perSample)) {
      return x.multiply(s);
    }
  }

  /** Eq. 11 on the d × d side from the product {@code X (F − Z)} of the previous pass. */
  private DenseMatrix solveFeatureSide(RegularizedRegression regression, double[] dWeights,
      DenseMatrix product) {
    return regression.solveFeatureSide(dWeights, beta / alpha, product);
  }

  /** Eq. 11 by the Woodbury (n × n) path, for d > n: the solve reads the blocks itself. */
  private DenseMatrix solveSampleSide(Execution ex, RegularizedRegression regression,
      double[] dWeights, DenseMatrix f, DenseMatrix z) {
    try (Shared<DenseMatrix> target = ex.share(f.copy().addInPlace(-1.0, z))) {
      return regression.solve(dWeights, beta / alpha, target);
    }
  }

  /** {@code ||G − I||²_F} for a square G. */
  private static double orthogonalityGapSquared(DenseMatrix g) {
    double s = 0;
    for (int j = 0; j < g.cols(); j++) {
      for (int i = 0; i < g.rows(); i++) {
        double v = g.get(i, j) - (i == j ? 1.0 : 0.0);
        s += v * v;
      }
    }
    return s;
  }

  /**
   * Steps 2–3 of Algorithm 1 on one block, and the pieces of the objective. For local sample i
   * and cluster l, with {@code p = (WᵀX)_li}, {@code e = F_li − p}, {@code z = soft(e)},
   * {@code a = p + z}: the new {@code F_li} by Eq. 18, the terms of Eq. 9 and Eq. 14 at the
   * shared F, and {@code X_b (F_new − Z)ᵀ}, this block's share of the next W's right-hand side.
   */
  static BlockStep step(RowBlock data, GraphRows graph, StepInput in) {
    DenseMatrix xb = data.columns();
    int nb = data.numRows();
    int offset = data.offset();
    int c = in.f.rows();
    double[] p = in.w.transposeMultiply(xb).data();
    double[] f = in.f.data();
    double[] mMinusF = graph.rows.multiply(in.f).data();
    double[] fftf = in.ftf.multiply(data.slice(in.f)).data();
    DenseMatrix fNew = new DenseMatrix(c, nb);
    DenseMatrix z = new DenseMatrix(c, nb);
    double[] fv = fNew.data();
    double[] zv = z.data();
    BlockStep out = new BlockStep(fNew, z);
    for (int i = 0; i < nb; i++) {
      double degree = graph.degrees[i];
      for (int l = 0; l < c; l++) {
        int at = i * c + l;
        double fi = f[(offset + i) * c + l];
        double e = fi - p[at];
        double zi = softThreshold(e, in.threshold);
        double a = p[at] + zi;
        double r = e - zi;
        out.fitTerm += r * r;
        out.l1Term += Math.abs(zi);
        out.huberTerm += huber(e, in.threshold);
        out.graphTerm += fi * (degree * fi - mMinusF[at]);
        if (zi != 0) {
          out.nonZeros++;
        }
        double num = mMinusF[at] + in.nu * fi + in.alpha * Math.max(a, 0.0);
        double den = degree * fi + in.alpha * fi + in.nu * fftf[at] + in.alpha * Math.max(-a, 0.0);
        fv[at] = fi * Math.sqrt(num / Math.max(den, DENOMINATOR_FLOOR));
        zv[at] = zi;
      }
    }
    if (in.wantProduct) {
      out.product = xb.multiplyTranspose(fNew.copy().addInPlace(-1.0, z));
    }
    return out;
  }

  /** The state of one fit of Algorithm 1: its last W, Z and F, histories and diagnostics. */
  private static final class Run {
    DenseMatrix weights;
    DenseMatrix noise;
    DenseMatrix indicator;
    double[] objectives;
    boolean converged;
    double[] huber;
    double noiseFraction;
    double orthogonalityError;

    double finalObjective() {
      return objectives[objectives.length - 1];
    }
  }

  /**
   * A block's rows of {@code S + Sᵀ} and of B's diagonal, the samples from {@code offset} on:
   * its rows of M = B − S − Sᵀ.
   */
  static final class GraphRows implements Serializable {
    private static final long serialVersionUID = 1L;
    final int offset;
    final SparseRowMatrix rows;
    final double[] degrees;

    GraphRows(int offset, SparseRowMatrix rows, double[] degrees) {
      this.offset = offset;
      this.rows = rows;
      this.degrees = degrees;
    }

    /** This block's columns of {@code V M} for vectors given as the rows of V (m × n). */
    DenseMatrix applyM(DenseMatrix v) {
      int m = v.rows();
      DenseMatrix out = rows.multiply(v);
      double[] o = out.data();
      double[] vv = v.data();
      for (int i = 0; i < degrees.length; i++) {
        for (int r = 0; r < m; r++) {
          o[i * m + r] = degrees[i] * vv[(offset + i) * m + r] - o[i * m + r];
        }
      }
      return out;
    }
  }

  /** What one iteration shares with the blocks: W, F (c × n), FFᵀ (c × c) and constants. */
  static final class StepInput implements Serializable {
    private static final long serialVersionUID = 1L;
    final DenseMatrix w;
    final DenseMatrix f;
    final DenseMatrix ftf;
    final double alpha;
    final double threshold;
    final double nu;
    final boolean wantProduct;

    StepInput(DenseMatrix w, DenseMatrix f, DenseMatrix ftf, double alpha, double threshold,
        double nu, boolean wantProduct) {
      this.w = w;
      this.f = f;
      this.ftf = ftf;
      this.alpha = alpha;
      this.threshold = threshold;
      this.nu = nu;
      this.wantProduct = wantProduct;
    }
  }

  /** One block's result of {@link #step}; {@link #combine} assembles the whole. */
  static final class BlockStep implements Serializable {
    private static final long serialVersionUID = 1L;
    DenseMatrix f;
    DenseMatrix z;
    DenseMatrix product;
    double graphTerm;
    double fitTerm;
    double l1Term;
    double huberTerm;
    long nonZeros;

    BlockStep(DenseMatrix f, DenseMatrix z) {
      this.f = f;
      this.z = z;
    }

    /** F and Z side by side in sample order, the products and the terms summed. */
    static BlockStep combine(List<BlockStep> parts, int c, int n) {
      List<DenseMatrix> fs = new ArrayList<>(parts.size());
      List<DenseMatrix> zs = new ArrayList<>(parts.size());
      BlockStep total = new BlockStep(null, null);
      for (BlockStep s : parts) {
        fs.add(s.f);
        zs.add(s.z);
        if (s.product != null) {
          total.product =
              total.product == null ? s.product : total.product.addInPlace(1.0, s.product);
        }
        total.graphTerm += s.graphTerm;
        total.fitTerm += s.fitTerm;
        total.l1Term += s.l1Term;
        total.huberTerm += s.huberTerm;
        total.nonZeros += s.nonZeros;
      }
      total.f = RowBlockMatrix.concatColumns(c, fs);
      total.z = RowBlockMatrix.concatColumns(c, zs);
      if (total.f.cols() != n) {
        throw new IllegalStateException("blocks cover " + total.f.cols() + " samples, expected "
            + n);
      }
      return total;
    }
  }

  @Override
  public String denseInputReason() {
    return "needs the dense X for X Xᵀ and X (F − Z) of its W-step (Eq. 11) and Xᵀ W of its "
        + "E-step (Eq. 13)";
  }

  /** Whatever its units: by range on few-samples (see the interface). */
  @Override
  public boolean losesPlantedFeaturesWhenWide() {
    return true;
  }

  @Override
  public boolean isScaleFree() {
    return common.isScaleFree() && standardization;
  }

  @Override
  public DriverMemory.Need driverNeed(int n, int d) {
    return RegularizedRegression.driverNeed(n, d);
  }
}
