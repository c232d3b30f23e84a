package io.github.sparkufs.solver;

import io.github.sparkufs.cluster.KMeans;
import io.github.sparkufs.graph.HeatKernelGraph;
import io.github.sparkufs.graph.SpectralEmbedding;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.DriverMemory;
import io.github.sparkufs.linalg.Execution;
import io.github.sparkufs.linalg.FeatureUnits;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.RegularizedRegression;
import io.github.sparkufs.linalg.ResourceScope;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.RowSparsityWeights;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.linalg.SparseRowMatrix;
import io.github.sparkufs.linalg.SymmetricEigen;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * NDFS, nonnegative discriminative feature selection (Li, Yang, Liu, Zhou and Lu, AAAI 2012;
 * docs/methods/ndfs.md). It minimises Eq. 10 over a nonnegative scaled cluster indicator F and a
 * feature-selection matrix W:
 *
 * <pre>
 *   Tr(Fᵀ L F) + α (||Xᵀ W − F||² + β' ||W||₂,₁) + γ/2 ||Fᵀ F − I||²,   F ≥ 0,
 * </pre>
 *
 * with L = I − A^{-1/2} S A^{-1/2} the normalised Laplacian (Eq. 5) of the heat-kernel kNN
 * graph S, and ranks feature i by {@code ||w_i||₂}, larger first.
 *
 * <p>Orientation: X is d × n (one column per sample) and the papers' F (n × c) is stored as
 * its transpose, a c × n matrix with one column per sample. F lives on the driver between
 * iterations and is shared with the blocks.
 *
 * <p><b>Standard units (a step the paper does not have).</b> With {@code standardization}
 * (default) the regression and its ℓ2,1 penalty weigh each feature in units of its standard
 * deviation σ_i ({@link FeatureUnits}: the reweighting becomes {@code σ_i² D_ii}), and feature
 * i scores {@code σ_i ||w_i||₂}, the size of its contribution to {@code XᵀW}, unchanged when
 * the feature is rescaled. On the raw features a quiet feature needs a large weight row for
 * the same contribution: scored by the paper's {@code ||w_i||₂} it is put first, and only
 * rescaling the score leaves the penalty favouring loud ones. Measured (seed 1, 20 k-means
 * runs; docs/methods/ndfs.md): ACC at m = 50 on JAFFE .734 raw, .787 standardised (random
 * columns .743); on ORL .499 / .581 (all features .576); on scikit-learn's digits at m = 16
 * .673 / .738 (MaxVar .703).
 *
 * <p><b>Feature scaling (a step the paper does not have).</b> The kNN graph S and the k-means
 * start are computed on the samples centred and in the unit of {@code featureScaling} (by
 * default each feature divided by its range, {@link CommonOptions#scaledSamples}), so that
 * features on unrelated scales weigh alike in the distances; with {@code standardization} the
 * regression is in standard units too, and the fit depends on no feature's unit. Planted
 * recall over 5 draws per family (docs/recall.md) moved from .73 as given to .95 by range;
 * docs/methods/ndfs.md has the benchmark datasets.
 *
 * <p><b>Scale of β.</b> The ℓ2,1 weight scales with the data: multiplying X by t multiplies
 * the β that gives the same selection by t. This solver therefore takes β in units of the
 * root-mean-square feature norm {@code s = sqrt(tr(X Xᵀ) / d)} and uses {@code β' = β s} in
 * Eq. 10 (reported as {@code betaEffective}). Together with the default kernel width (mean
 * k-th neighbour distance), the selection does not depend on the units of X.
 *
 * <p><b>Start (a choice the paper leaves open; {@code initMode}).</b> F starts as a cluster
 * indicator + {@value #INIT_OFFSET}, columns scaled to unit norm, D = I. The clusters come from
 * {@link ClusterStart}: {@code KMEANS}, a seeded k-means of the samples (best of
 * {@value #INIT_KMEANS_RUNS} runs on their top principal scores, {@link #initialClusters});
 * {@code SPECTRAL}, k-means on the graph's spectral embedding ({@link #spectralClusters}), the
 * relaxed indicator that minimises Eq. 10's graph term alone; or {@code BOTH}, the default,
 * which runs Algorithm 1 from each and keeps the fit whose final Eq. 10 is lower, as RSFS does
 * ({@link RsfsSolver}). Algorithm 1 reaches only a local minimum and Eq. 10 is the paper's own
 * criterion, so the choice needs no labels; it costs a second run of the iterations. Where a
 * few shared factors (a batch or size effect) hold the largest principal directions, k-means on
 * the principal scores splits the samples along them and NDFS from that start keeps noise
 * features (planted recall .60 over 5 draws of the correlated-noise family, docs/recall.md);
 * the kNN graph still follows the clusters, and by default NDFS finds 1.00. Unequal cluster
 * sizes: .83 → .97. On the benchmark images the lower objective is the spectral start's on
 * JAFFE, warpPIE10P, COIL20, ORL, Yale and Isolet1 (mean ACC over each set's grid of m,
 * docs/selection-check.md: warpPIE10P +.10, JAFFE +.08, COIL20 +.02; Isolet1 −.03) and the
 * k-means start's on USPS and scikit-learn's digits. Where d is many times n and the noise
 * features have no shared structure (the few-samples family, d = 1000, n = 150) the regression
 * fits any F, the graph follows the noise, and the lower objective is the wrong start's:
 * recall .70 from the k-means start, .28 by default (docs/methods/ndfs.md, "When not to use").
 *
 * <p><b>Algorithm (Algorithm 1, alternating).</b> Each iteration:
 * <ol>
 *   <li>W-step (Eq. 12): {@code W = (X Xᵀ + β' D)^{-1} X F}. When d ≤ n this is a d × d
 *       Cholesky solve on the driver with X F carried over from the previous pass; when
 *       d > n the n × n Woodbury form of {@link RegularizedRegression} is used.</li>
 *   <li>One pass over the blocks that evaluates Eq. 10 at (F, W) and applies the F-step
 *       (below) to every sample; each block returns its slice of the new F together with its
 *       partial sums of X F and Fᵀ F for the next iteration.</li>
 *   <li>D from the row norms of W: {@code D_ii = 1 / (2 sqrt(||w_i||² + ε))} (the paper's
 *       footnote 1).</li>
 * </ol>
 * The {@code M F} of Eq. 13 is never formed with an n × n M: at the current F,
 * {@code M F = L F + α (F − Xᵀ W)} with the W of step 1, which is also the gradient of Eq. 10
 * in F at fixed W.
 *
 * <p><b>F-step and monotonicity.</b> Eq. 15 as printed, {@code F ← F ⊙ γF / (M F + γ F Fᵀ F)},
 * has a denominator of mixed sign whenever γ is not huge (M F has negative entries), and then
 * diverges; with γ large enough to keep it positive (the paper's 10⁸) F hardly leaves its
 * initialisation. This solver instead takes the exact minimiser of the Lee–Seung auxiliary
 * function that Theorem 1 refers to, built for Eq. 10 at fixed W with B = Xᵀ W, the graph term
 * split as {@code Tr(FᵀLF) = ||F||² − Tr(Fᵀ N F)} (N = A^{-1/2} S A^{-1/2} ≥ 0) and the
 * quartic term bounded by {@code Σ (F Fᵀ F)_ij F'^4_ij / F^3_ij}:
 *
 * <pre>
 *   F'_ij = F_ij · sqrt( 2 c_ij / (b_ij + sqrt(b_ij² + 4 a_ij c_ij)) ),
 *   a = γ F Fᵀ F,   b = (1 + α) F + α B⁻,   c = N F + α B⁺ + γ F,
 * </pre>
 *
 * (B⁺, B⁻ the positive and negative parts of B). Every term is nonnegative, so F stays
 * nonnegative without clamping, and its fixed points satisfy the same KKT condition
 * {@code F ⊙ (M F + γ F Fᵀ F − γ F) = 0} as Eq. 15. This step cannot increase Eq. 10 at fixed
 * W, and the W-step cannot increase it at fixed F (Nie et al. 2010), so the recorded objective
 * {@code f_t = Eq. 10 at (F_t, W_{t+1})} is non-increasing: this is the paper's Theorem 1 made
 * to hold. The ℓ2,1 norm in {@code f_t} is the smoothed {@code Σ sqrt(||w_i||² + ε)}, the
 * quantity the reweighting provably decreases (it differs from Eq. 10 by at most
 * {@code α β' d sqrt(ε)}).
 *
 * <p><b>No column normalisation inside the loop.</b> The paper's text normalises F after each
 * update so that {@code (FᵀF)_ii = 1}, but that step is absent from Algorithm 1 and from the
 * proof of Theorem 1, and it does break monotonicity: measured on JAFFE (4000 iterations,
 * α = 10, β = 100 absolute, γ = 1) the normalised variant increased Eq. 10 in 115 iterations,
 * by up to 9·10⁻⁹ relative, whereas the variant without it never did. The orthogonality
 * penalty keeps the columns near unit norm instead: at a fixed point
 * {@code 1 − ||f_j||² ≈ (f_jᵀ M f_j)/γ ≤ (2 + α)/γ}; the summary reports the remaining
 * {@code orthogonality} {@code ||Λ^{-1/2} Fᵀ F Λ^{-1/2} − I||_F} (Λ = diag(FᵀF)) and the
 * column norms.
 *
 * <p><b>γ.</b> The update moves F by a relative amount of order {@code λ/γ} per iteration
 * where λ ≤ 2 + α is the scale of M, and leaves {@code 1 − ||f_j||²} of the same order: γ
 * trades orthogonality against progress. The paper's 10⁸ freezes F at its initialisation; the
 * default γ = 10 (for the default α) keeps the column norms within a few
 * per cent of 1 while F still moves. Keep γ well above 2 + α when raising α.
 *
 * <p>Cost per iteration: one pass over the blocks when d ≤ n (three when d > n: the Woodbury
 * solve needs its n × n kernel and one product), an O(min(d, n)³) solve on the driver, and
 * O(n c (k + c + d)) work in the blocks. Never an n × n matrix when d ≤ n.
 *
 * <p>Sparse input is densified for this method: it needs the dense X for X Xᵀ and X F of its
 * W-step (Eq. 12) and Xᵀ W of its F-step.
 */
public final class NdfsSolver implements FeatureSelectionSolver {

  /** α of Eq. 10; the default is the value the paper fixes in its Figure 3. */
  public static final ParamSpec<Double> ALPHA = ParamSpec.real("alpha", 1.0,
      Range.greaterThan(0), "Eq. 10",
      "α: weight of the regression ||XᵀW − F||² + β||W||₂,₁ against the spectral term Tr(FᵀLF)");
  /** β of Eq. 10, in units of the RMS feature norm (see the class comment). */
  public static final ParamSpec<Double> BETA = ParamSpec.real("beta", 0.1, Range.greaterThan(0),
      "Eq. 10", "β: weight of the ℓ2,1 row sparsity of W, in units of the RMS feature norm "
          + "sqrt(tr(XXᵀ)/d)");
  /** γ of Eq. 10 (see the class comment). */
  public static final ParamSpec<Double> GAMMA = ParamSpec.real("gamma", 10.0,
      Range.greaterThan(0), "Eq. 10",
      "γ: weight of the orthogonality penalty γ/2 ||FᵀF − I||²");
  /** Whether W and its ℓ2,1 penalty weigh the features in standard units (class comment). */
  public static final ParamSpec<Boolean> STANDARDIZATION = ParamSpec.flag("standardization",
      true, "Eq. 10", "whether the regression XᵀW ≈ F and its ℓ2,1 penalty weigh the features "
          + "in units of their standard deviation, so that a feature is charged and scored by "
          + "its contribution to XᵀW (a step the paper lacks); false is Eq. 10 on the raw "
          + "features, whose row norms favour low-variance features");
  /** Where F starts; by default both starts, the lower objective kept (class comment). */
  public static final ParamSpec<ClusterStart> INIT_MODE = ParamSpec.choice("initMode",
      ClusterStart.BOTH, "Eq. 10", "start of F (a choice the paper leaves open): kmeans "
          + "(k-means clusters of the samples), spectral (spectral clusters of the graph) or "
          + "both (a fit from each, the lower objective of Eq. 10 kept)");
  /** NDFS's params. */
  public static final List<ParamSpec<?>> PARAMS = List.of(CommonOptions.NUM_CLUSTERS,
      CommonOptions.NUM_NEIGHBORS, CommonOptions.KERNEL_WIDTH, CommonOptions.KNN_ALGORITHM,
      CommonOptions.MAX_ITER, CommonOptions.TOL, CommonOptions.SEED,
      CommonOptions.FEATURE_SCALING, ALPHA, BETA, GAMMA, INIT_MODE, STANDARDIZATION);
  /** Added to every entry of the k-means indicator before the columns are normalised. */
  public static final double INIT_OFFSET = 0.2;
  /** k-means runs from different seeds for the initial clustering; the lowest cost wins. */
  public static final int INIT_KMEANS_RUNS = 10;
  /** Principal components per cluster on which the initial k-means runs (when d ≤ n). */
  public static final int INIT_COMPONENTS_PER_CLUSTER = 2;
  /** Lloyd iterations of the initial k-means at most. */
  public static final int INIT_KMEANS_MAX_ITER = 30;
  /** Relative cost change at which the initial k-means stops. */
  public static final double INIT_KMEANS_TOL = 1e-4;
  /**
   * Residual tolerance of the spectral start's eigensolver (the Laplacian's spectrum lies in
   * [0, 2]): its eigenvectors only seed a k-means, as RSFS's do.
   */
  static final double SPECTRAL_TOL = 1e-3;
  /** ε of the ℓ2,1 reweighting and of the smoothed norm in the recorded objective. */
  public static final double EPSILON = RowSparsityWeights.DEFAULT_EPSILON;

  private final CommonOptions common;
  private final double alpha;
  private final double beta;
  private final double gamma;
  private final double kernelWidth;
  private final ClusterStart initMode;
  private final boolean standardization;
  private final Boolean sampleSide;

  /** @param options values of {@link #PARAMS} */
  public NdfsSolver(MethodOptions options) {
    this(options, null);
  }

  /** As above; {@code sampleSide} forces the n × n (true) or d × d (false) W-step, null = cheaper. */
  NdfsSolver(MethodOptions options, Boolean sampleSide) {
    this.common = options.common();
    this.alpha = options.get(ALPHA);
    this.beta = options.get(BETA);
    this.gamma = options.get(GAMMA);
    this.kernelWidth = options.get(CommonOptions.KERNEL_WIDTH);
    this.initMode = options.get(INIT_MODE);
    this.standardization = options.get(STANDARDIZATION);
    this.sampleSide = sampleSide;
  }

  @Override
  public SelectionResult fit(RowBlockMatrix x) {
    return fit(x, null);
  }

  @Override
  public boolean isScaleFree() {
    return common.isScaleFree() && standardization;
  }

  /**
   * Unless it starts from k-means alone (see the interface and the class comment: with d far
   * above n, Eq. 10 prefers the spectral start's noise partition; from k-means, few-samples .70).
   */
  @Override
  public boolean losesPlantedFeaturesWhenWide() {
    return initMode != ClusterStart.KMEANS;
  }

  /**
   * As {@link #fit(RowBlockMatrix)}, from the given initial F (c × n, nonnegative) instead of
   * the k-means initialisation when {@code initialF} is not null: the hook through which a
   * reference implementation's own starting point is fed to this solver.
   */
  SelectionResult fit(RowBlockMatrix x, DenseMatrix initialF) {
    int n = x.numRows();
    int d = x.numCols();
    int c = common.numClusters();
    if (c > n) {
      throw new IllegalArgumentException("numClusters = " + c + " exceeds the " + n + " samples");
    }

    RegularizedRegression regression = sampleSide == null ? new RegularizedRegression(x)
        : new RegularizedRegression(x, sampleSide);
    boolean woodbury = regression.usesSampleSide();
    x.execution().describe("NDFS: Gram matrix");
    DenseMatrix gram = woodbury && d > n ? null : regression.gram();
    FeatureUnits units = FeatureUnits.of(x.columnStatistics(), standardization);
    double trace = standardization ? units.squaredNorm(x.columnStatistics())
        : gram == null ? x.blocks().aggregate(b -> b.columns().frobeniusNormSquared(), Double::sum)
        : gram.trace();
    double betaEff = beta * Math.sqrt(trace / d);
    if (!(betaEff > 0)) {
      throw new IllegalArgumentException("every feature is zero: nothing to select");
    }

    if (initialF != null && (initialF.rows() != c || initialF.cols() != n)) {
      throw new IllegalArgumentException("initial F must be " + c + " x " + n + ", got "
          + initialF.shape());
    }
    Map<String, DenseMatrix> starts = new LinkedHashMap<>();
    // The spectral start needs c − 1 non-trivial eigenvectors of an n × n Laplacian.
    boolean spectralPossible = c - 1 <= n - 2;
    boolean spectralStart = initialF == null && initMode != ClusterStart.KMEANS
        && spectralPossible;
    SampleGraph graph;
    SparseRowMatrix weights;
    double initSeconds;
    try (ResourceScope scope = new ResourceScope()) {
      RowBlockMatrix geometry = common.scaledSamples(x, scope);
      x.execution().describe("NDFS: heat-kernel kNN graph");
      long graphStart = System.nanoTime();
      HeatKernelGraph heat = HeatKernelGraph.build(geometry, common.numNeighbors(), kernelWidth,
          common.knnSearch());
      long initStart = System.nanoTime();
      if (initialF != null) {
        starts.put("given", initialF.copy());
      } else if (initMode != ClusterStart.SPECTRAL || !spectralPossible) {
        x.execution().describe("NDFS: k-means initialisation");
        starts.put("kmeans", ClusterIndicator.relaxed(initialClusters(geometry,
            d > n ? null : geometry == x ? gram : geometry.gram(), c, common.seed()), c,
            INIT_OFFSET));
      }
      initSeconds = (System.nanoTime() - initStart) / 1e9;
      graph = sampleGraph(x, heat, (initStart - graphStart) / 1e9);
      weights = spectralStart ? heat.weights() : null;
    }

    Map<String, Double> summary = new LinkedHashMap<>();
    ClusterStart.LowestObjective<Run> lowest = new ClusterStart.LowestObjective<>(summary);
    try (Partitioned<SparseRowMatrix> adjacencyRows = graph.adjacencyRows()) {
      if (spectralStart) {
        x.execution().describe("NDFS: spectral initialisation");
        long initStart = System.nanoTime();
        starts.put("spectral", ClusterIndicator.relaxed(
            spectralClusters(x.execution(), weights, adjacencyRows, c, common.seed()), c,
            INIT_OFFSET));
        initSeconds += (System.nanoTime() - initStart) / 1e9;
      }
      for (Map.Entry<String, DenseMatrix> start : starts.entrySet()) {
        Run run = iterate(x, adjacencyRows, regression, units, betaEff, start.getValue());
        lowest.offer(start.getKey(), run, run.history.lastObjective());
      }
    }
    Run kept = lowest.kept();

    summary.put("initStarts", (double) starts.size());
    summary.put("objective", kept.history.lastObjective());
    summary.put("sigma", graph.sigma());
    summary.put("graphSeconds", graph.seconds());
    summary.put("initSeconds", initSeconds);
    summary.put("betaEffective", betaEff);
    summary.put("sampleSide", woodbury ? 1.0 : 0.0);
    summary.put("l21Norm", RowSparsityWeights.l21Norm(units.standardized(kept.w)));
    summary.put("orthogonality", orthogonality(kept.ftf));
    double[] norms = new double[c];
    for (int j = 0; j < c; j++) {
      norms[j] = Math.sqrt(kept.ftf.get(j, j));
    }
    summary.put("minColumnNorm", Arrays.stream(norms).min().orElse(0));
    summary.put("maxColumnNorm", Arrays.stream(norms).max().orElse(0));
    summary.put("reassigned", reassignedFraction(kept.f, largestEntries(kept.start)));
    return new SelectionResult(units.scores(kept.w), true, kept.history.iterations(),
        kept.history.converged(), kept.history.objectives(), summary);
  }

  /** One run of Algorithm 1: its start F, last W, F and Fᵀ F, and its objectives. */
  private record Run(DenseMatrix start, DenseMatrix w, DenseMatrix f, DenseMatrix ftf,
      IterativeFit.Result history) {}

  /** Algorithm 1 from the initial F {@code start} (c × n) and D = I. */
  private Run iterate(RowBlockMatrix x, Partitioned<SparseRowMatrix> adjacencyRows,
      RegularizedRegression regression, FeatureUnits units, double betaEff, DenseMatrix start) {
    int c = start.rows();
    int n = start.cols();
    boolean woodbury = regression.usesSampleSide();
    DenseMatrix f = start;
    DenseMatrix ftf = f.gram();
    double[] dw = units.initialWeights();
    IterativeFit loop = new IterativeFit("NDFS", common);
    DenseMatrix w = null;
    DenseMatrix xf = null;
    if (!woodbury) {
      try (Shared<DenseMatrix> sf = x.execution().share(f)) {
        xf = x.multiply(sf);
      }
    }
    while (loop.next()) {
      x.execution().describe("NDFS: iteration " + loop.iteration());
      Step step;
      try (Shared<DenseMatrix> sf = x.execution().share(f)) {
        w = woodbury ? regression.solve(dw, betaEff, sf)
            : regression.solveFeatureSide(dw, betaEff, xf);
        try (Shared<DenseMatrix> sw = x.execution().share(w);
            Shared<DenseMatrix> sftf = x.execution().share(ftf)) {
          double a = alpha;
          double g = gamma;
          boolean wantXf = !woodbury;
          step = x.blocks().zipAggregate(adjacencyRows, (b, adjacency) -> Step.of(b, adjacency,
              sf.get(), sw.get(), sftf.get(), a, g, wantXf), Step::merge);
        }
      }

      double objective = objective(ftf, step, units.standardized(w), betaEff);
      f = step.assemble(c, n);
      ftf = step.ftf;
      xf = step.xf;
      dw = units.l21Weights(w, EPSILON);
      loop.record(objective);
    }
    return new Run(start, w, f, ftf, loop.result());
  }

  /**
   * The spectral start: k-means (lowest cost of {@value #INIT_KMEANS_RUNS} seeded runs) on the
   * samples' coordinates in the c − 1 smallest non-trivial generalised eigenvectors of the
   * graph's Laplacian, {@code L y = λ A y} ({@link SpectralEmbedding}), the relaxed cluster
   * indicator that minimises the graph term {@code Tr(FᵀLF)} of Eq. 10 alone. The eigensolver's
   * products read the graph's normalised adjacency rows that the iterations read.
   */
  static int[] spectralClusters(Execution ex, SparseRowMatrix weights,
      Partitioned<SparseRowMatrix> adjacencyRows, int c, long seed) {
    DenseMatrix embedding = SpectralEmbedding.compute(ex, weights, adjacencyRows, c - 1,
        SPECTRAL_TOL, seed).generalizedVectors();
    return new KMeans(c, INIT_KMEANS_MAX_ITER, INIT_KMEANS_TOL)
        .fitBest(RowBlockMatrix.local(embedding), INIT_KMEANS_RUNS, seed).labels();
  }

  /**
   * Each data block's rows of the graph's normalised adjacency N = A^{-1/2} S A^{-1/2}, cached
   * until closed (the iterations read the data blocks beside them: keeping the two together
   * would cache the data twice), the graph's σ and the seconds it took to build.
   */
  private record SampleGraph(Partitioned<SparseRowMatrix> adjacencyRows, double sigma,
      double seconds) {}

  /**
   * Cuts the heat-kernel graph's normalised adjacency into the rows of each block of {@code x};
   * the whole graph, about 12 bytes per edge on the driver, is not kept past the fit's start,
   * since the iterations read only the blocks' rows.
   */
  private static SampleGraph sampleGraph(RowBlockMatrix x, HeatKernelGraph heat,
      double seconds) {
    try (Shared<SparseRowMatrix> adjacency = x.execution().share(heat.normalizedAdjacency())) {
      return new SampleGraph(
          x.blocks().map(b -> adjacency.get().rows(b.offset(), b.numRows())),
          heat.sigma(), seconds);
    }
  }

  /** Eq. 10 at (F, W) with the smoothed norm {@code Σ sqrt(||w_i||² + ε)}. */
  private double objective(DenseMatrix ftf, Step step, DenseMatrix w, double betaEff) {
    double l21 = RowSparsityWeights.smoothedL21Norm(w, EPSILON);
    int c = ftf.rows();
    double penalty = 0;
    for (int j = 0; j < c; j++) {
      for (int i = 0; i < c; i++) {
        double v = ftf.get(i, j) - (i == j ? 1 : 0);
        penalty += v * v;
      }
    }
    double laplacian = ftf.trace() - step.graphDot;
    return laplacian + alpha * (step.residual + betaEff * l21) + gamma / 2 * penalty;
  }

  /**
   * The clustering F starts from: the lowest-cost of {@value #INIT_KMEANS_RUNS} seeded k-means
   * runs (as scikit-feature's reference NDFS does with {@code n_init = 10}). When
   * d > {@value #INIT_COMPONENTS_PER_CLUSTER}·c, the runs cluster the samples' scores on the top
   * r = {@value #INIT_COMPONENTS_PER_CLUSTER}·c principal components instead of the d raw
   * features, which keeps the k-means geometry at a fraction of the cost. The components come
   * from the centred covariance when the Gram matrix is given (the solver passes it when d ≤ n,
   * whichever side it solves W on: the Gram and the feature means, one pass); otherwise the
   * scores come from the n × n centred kernel {@code H Xᵀ X H} ({@code H = I − 11ᵀ/n}), whose
   * eigenvectors scaled by the square roots of their eigenvalues are the same scores (up to
   * sign), with no d × d matrix and no k-means pass over the d features.
   */
  static int[] initialClusters(RowBlockMatrix x, DenseMatrix gram, int c, long seed) {
    int d = x.numCols();
    int r = INIT_COMPONENTS_PER_CLUSTER * c;
    KMeans kmeans = new KMeans(c, INIT_KMEANS_MAX_ITER, INIT_KMEANS_TOL);
    int n = x.numRows();
    if (d <= r || gram == null && n <= r) {
      return kmeans.fitBest(x, INIT_KMEANS_RUNS, seed).labels();
    }
    if (gram == null) {
      return kmeans.fitBest(RowBlockMatrix.local(principalScores(x, r)), INIT_KMEANS_RUNS, seed)
          .labels();
    }
    double[] mean = x.columnStatistics().means();
    DenseMatrix cov = gram.copy();
    for (int j = 0; j < d; j++) {
      for (int i = 0; i < d; i++) {
        cov.data()[j * d + i] -= n * mean[i] * mean[j];
      }
    }
    try (RowBlockMatrix projected = x.projected(SymmetricEigen.largest(cov, r).vectors())) {
      return kmeans.fitBest(projected, INIT_KMEANS_RUNS, seed).labels();
    }
  }

  /**
   * The samples' scores on their top r principal components (r × n), from the n × n centred
   * kernel {@code H Xᵀ X H}: eigenvector u_t scaled by the square root of its eigenvalue.
   */
  private static DenseMatrix principalScores(RowBlockMatrix x, int r) {
    int n = x.numRows();
    double[] ones = new double[x.numCols()];
    Arrays.fill(ones, 1);
    DenseMatrix kernel = x.sampleGram(ones);
    double[] k = kernel.data();
    double[] rowMean = new double[n];
    double total = 0;
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < n; i++) {
        rowMean[i] += k[j * n + i] / n;
      }
    }
    for (double m : rowMean) {
      total += m / n;
    }
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < n; i++) {
        k[j * n + i] += total - rowMean[i] - rowMean[j];
      }
    }
    SymmetricEigen eigen = SymmetricEigen.largest(kernel, r);
    DenseMatrix scores = new DenseMatrix(r, n);
    for (int t = 0; t < r; t++) {
      double root = Math.sqrt(Math.max(eigen.values()[t], 0));
      for (int i = 0; i < n; i++) {
        scores.set(t, i, root * eigen.vectors().get(i, t));
      }
    }
    return scores;
  }

  /** {@code ||Λ^{-1/2} Fᵀ F Λ^{-1/2} − I||_F} with Λ = diag(Fᵀ F): the departure from orthogonality. */
  static double orthogonality(DenseMatrix ftf) {
    int c = ftf.rows();
    double s = 0;
    for (int j = 0; j < c; j++) {
      for (int i = 0; i < c; i++) {
        if (i != j) {
          double v = ftf.get(i, j) / Math.sqrt(ftf.get(i, i) * ftf.get(j, j));
          s += v * v;
        }
      }
    }
    return Math.sqrt(s);
  }

  /** Fraction of samples whose largest entry of F is no longer their initial cluster. */
  private static double reassignedFraction(DenseMatrix f, int[] init) {
    int[] now = largestEntries(f);
    int moved = 0;
    for (int i = 0; i < init.length; i++) {
      if (now[i] != init[i]) {
        moved++;
      }
    }
    return (double) moved / init.length;
  }

  /** For each sample (column of the c × n F), the cluster of its largest entry. */
  private static int[] largestEntries(DenseMatrix f) {
    int c = f.rows();
    double[] v = f.data();
    int[] best = new int[f.cols()];
    for (int i = 0; i < best.length; i++) {
      for (int k = 1; k < c; k++) {
        if (v[i * c + k] > v[i * c + best[i]]) {
          best[i] = k;
        }
      }
    }
    return best;
  }

  /**
   * The F-step for one entry (class comment): the minimiser of the auxiliary function of
   * Eq. 10 at fixed W. Zero stays zero; the result is never negative.
   *
   * @param f F_ij ≥ 0
   * @param nf (N F)_ij ≥ 0
   * @param b (Xᵀ W)_ij, any sign
   * @param fff (F Fᵀ F)_ij ≥ 0
   */
  static double updatedEntry(double f, double nf, double b, double fff, double alpha,
      double gamma) {
    if (!(f > 0)) {
      return 0.0;
    }
    double qa = gamma * fff;
    double qb = (1 + alpha) * f + alpha * Math.max(-b, 0);
    double qc = nf + alpha * Math.max(b, 0) + gamma * f;
    double den = Math.max(qb + Math.sqrt(qb * qb + 4 * qa * qc), Double.MIN_NORMAL);
    return f * Math.sqrt(2 * qc / den);
  }

  /** One pass's results: new F slices, Tr(Fᵀ N F), ||XᵀW − F||², and next Fᵀ F and X F. */
  private static final class Step implements Serializable {
    private static final long serialVersionUID = 1L;
    private final List<Integer> offsets = new ArrayList<>();
    private final List<DenseMatrix> pieces = new ArrayList<>();
    private double graphDot;
    private double residual;
    private DenseMatrix ftf;
    private DenseMatrix xf;

    /**
     * A data block's share of one iteration: the objective terms at (F, W) and the F-step of
     * the class comment for its samples, with the partial sums the next iteration needs.
     *
     * @param adjacency the block's rows of the normalised adjacency N = A^{-1/2} S A^{-1/2}
     * @param f the current F, c × n
     * @param w the current W, d × c
     * @param ftf Fᵀ F of the current F, c × c
     */
    static Step of(RowBlock data, SparseRowMatrix adjacency, DenseMatrix f, DenseMatrix w,
        DenseMatrix ftf, double alpha, double gamma, boolean wantXf) {
      DenseMatrix fb = data.slice(f);
      double[] fv = fb.data();
      double[] nf = adjacency.multiply(f).data();
      double[] b = w.transposeMultiply(data.columns()).data();
      double[] fff = ftf.multiply(fb).data();
      DenseMatrix next = new DenseMatrix(fb.rows(), fb.cols());
      double[] out = next.data();
      double graphDot = 0;
      double residual = 0;
      for (int p = 0; p < fv.length; p++) {
        double fp = fv[p];
        graphDot += fp * nf[p];
        double r = b[p] - fp;
        residual += r * r;
        out[p] = updatedEntry(fp, nf[p], b[p], fff[p], alpha, gamma);
      }
      Step s = new Step();
      s.offsets.add(data.offset());
      s.pieces.add(next);
      s.graphDot = graphDot;
      s.residual = residual;
      s.ftf = next.gram();
      s.xf = wantXf ? data.columns().multiplyTranspose(next) : null;
      return s;
    }

    static Step merge(Step a, Step b) {
      a.offsets.addAll(b.offsets);
      a.pieces.addAll(b.pieces);
      a.graphDot += b.graphDot;
      a.residual += b.residual;
      DenseMatrix.accumulate(a.ftf, b.ftf);
      if (a.xf != null) {
        DenseMatrix.accumulate(a.xf, b.xf);
      }
      return a;
    }

    /** The new F (c × n) from the slices, whatever order they were merged in. */
    DenseMatrix assemble(int c, int n) {
      DenseMatrix f = new DenseMatrix(c, n);
      for (int i = 0; i < pieces.size(); i++) {
        double[] p = pieces.get(i).data();
        System.arraycopy(p, 0, f.data(), offsets.get(i) * c, p.length);
      }
      return f;
    }
  }

  @Override
  public String denseInputReason() {
    return "needs the dense X for X Xᵀ and X F of its W-step (Eq. 12) and Xᵀ W of its F-step";
  }

  @Override
  public DriverMemory.Need driverNeed(int n, int d) {
    return sampleSide == null ? RegularizedRegression.driverNeed(n, d)
        : RegularizedRegression.driverNeed(n, d, sampleSide);
  }
}
