package io.github.sparkufs.solver;

import io.github.sparkufs.graph.ExactKnn;
import io.github.sparkufs.graph.HeatKernelGraph;
import io.github.sparkufs.graph.KdTree;
import io.github.sparkufs.graph.LaplacianNullSpace;
import io.github.sparkufs.graph.NeighborLists;
import io.github.sparkufs.linalg.BlockOperator;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.DriverMemory;
import io.github.sparkufs.linalg.FeatureScaling;
import io.github.sparkufs.linalg.FeatureUnits;
import io.github.sparkufs.linalg.DoubleArrays;
import io.github.sparkufs.linalg.Execution;
import io.github.sparkufs.linalg.Lasso;
import io.github.sparkufs.linalg.Lobpcg;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.RegularizedRegression;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.Releasable;
import io.github.sparkufs.linalg.ResourceScope;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.RowSparsityWeights;
import io.github.sparkufs.linalg.SampleOrder;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.linalg.SimplexProjection;
import io.github.sparkufs.linalg.SmallestEigenpairs;
import io.github.sparkufs.linalg.SparseRowMatrix;
import io.github.sparkufs.linalg.SymmetricEigen;
import java.io.Serializable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * FSASL, unsupervised feature selection with adaptive structure learning (Du and Shen, KDD
 * 2015; docs/methods/fsasl.md). It minimises (Eq. 5)
 * {@code ||WᵀX − WᵀXS||² + α||S||₁ + β Σ_ij (||Wᵀx_i − Wᵀx_j||² P_ij + μ P_ij²) + γ||W||₂,₁}
 * over W (d × c), S ({@code S_ii = 0}) and P (rows on the simplex) by alternating (Algorithm 2):
 * with {@code X' = WᵀX} (c × n, on the driver, shared with the blocks),
 * <ol>
 *   <li>S, one LASSO per sample (Eq. 6) in the c-dimensional projection, solved to the
 *       optimality conditions ({@link Lasso}) inside the block functions;
 *   <li>P, one simplex row per sample over its k nearest samples in X' (Eq. 8 and 19:
 *       Algorithm 1, {@link SimplexProjection}): the blocks find the neighbours, the driver
 *       projects the k values of each row;
 *   <li>{@code L = L_S + β L_P}, {@code L_S = (I − S)(I − S)ᵀ}, {@code L_P = D_P − (P + Pᵀ)/2},
 *       kept sparse in row blocks ({@link FsaslLaplacianBlock});
 *   <li>W by the two-step route of Theorem 1: Y = the c smallest eigenvectors of L orthogonal to
 *       the constant vector ({@link Lobpcg} preconditioned by {@code 1 / L_ii}, warm-started
 *       from the previous iteration's vectors; for a first graph in several pieces, a fixed
 *       basis of its null space first), then {@code min ||Y − XᵀW||² + γ||W||₂,₁}
 *       (Eq. 14) by reweighting {@code W = (XXᵀ + γD)^{-1} X Y} ({@link RegularizedRegression}),
 *       D carried over from one iteration to the next.
 * </ol>
 *
 * <p>Choices where the paper is incomplete (the measurements behind them are in
 * docs/methods/fsasl.md):
 * <ul>
 *   <li>X is centred, so Y is taken orthogonal to the constant vector, and each feature is put
 *       in the unit of {@code featureScaling} (by default divided by its range; a step the
 *       paper lacks): the graphs, the projection, the regression and γ all see the features on
 *       one scale. Planted recall over 5 draws per family (docs/recall.md) moved from .56 as
 *       given to 1.00 by range, and on scikit-learn's digits ACC at m = 8 / 16 from .423 / .599
 *       to .675 / .732 (docs/methods/fsasl.md).
 *   <li>First iteration (as the authors' code): the local structure is the heat-kernel kNN graph
 *       of X ({@link HeatKernelGraph}, default width) and there is no global term. The graph
 *       takes more than k neighbours (up to ⌈ln n⌉) only when k leave it in more than c
 *       connected pieces ({@link HeatKernelGraph#withAtMostPieces}), whose indicators the first
 *       c eigenvectors would otherwise be (summary {@code firstGraphNeighbors}).
 *   <li>A first graph in K pieces: its Laplacian {@code D − A} has the eigenvalue 0 K times,
 *       spanned by the pieces' indicators, and with {@code K − 1 > c} Theorem 1 leaves open
 *       which c directions of that space Y takes (an eigensolver's random start chose them, so
 *       the selection followed the seed). Y starts instead with the fixed basis of
 *       {@link LaplacianNullSpace} (ω = 1: the indicators, largest piece first, orthogonalised
 *       against the constant), then the smallest non-zero eigenvectors with the K indicators
 *       deflated; no eigensolve when {@code K − 1 ≥ c}. The later {@code L = L_S + β L_P} has
 *       no such exact null space ({@code L_S 1_C = 0} only if the LASSO coefficients of C's
 *       samples sum to 1); its eigensolves start at random, to their tolerance.
 *   <li>The LASSO weight is relative: sample i solves {@code ½||x'_i − X's_i||² + λ_i||s_i||₁}
 *       with {@code λ_i = alpha · ||X'_{-i}ᵀ x'_i||_∞} (the authors' SLEP ratio), so Eq. 5's α
 *       is {@code 2λ_i} per sample. With {@code lassoNeighbors = K > 0} sample i's dictionary is
 *       its K nearest samples in X' instead of all other samples.
 *   <li>μ follows Eq. 21 (about k non-zeros per row) and row i of P is the exact minimiser of
 *       its part of Eq. 5 over distributions on its k nearest samples in X' (Eq. 19 is the
 *       closed form when all k stay positive). λ_i and μ are computed once, from the first
 *       projection, so that Eq. 5 is one fixed function over the iterations.
 *   <li>The paper's step from Eq. 9 to Eq. 10 drops a factor 2 of the local term; this class
 *       keeps {@code L = L_S + β L_P} (the paper's and the authors' code's) and reports Eq. 5
 *       with the local term weighted β/2, the form for which Eq. 10 is exact.
 *   <li>The regression W satisfies {@code WᵀXXᵀW = I} only as far as {@code XᵀW ≈ Y}: the
 *       structure is learned from, and Eq. 5 evaluated at, the feasible
 *       {@code W (WᵀXXᵀW)^{-1/2}}; the scores come from the regression W itself.
 *   <li>{@code monotone} (default): the S and P steps are exact minimisers, so Eq. 5 can only
 *       rise through the W step, which Theorem 1 only approximates. A W step that would raise
 *       Eq. 5 is damped, {@code W_{t-1} + s (W R − W_{t-1})} with s halved from 1 (X' mixes the
 *       same way), and the iteration stops when not even {@link #MIN_W_STEP} of the step lowers
 *       Eq. 5 (summary {@code "stalled"} = 1). R is the c × c rotation that brings the new W
 *       closest to the previous one (Eq. 5 is invariant under {@code W → WR}); unaligned, the
 *       mix of nearly opposite columns made the step depend on rounding. {@code monotone =
 *       false} is Algorithm 2 as the authors' code runs it: every W step in full.
 *   <li>Standard units: with {@code standardization} (on by default) the W step and its ℓ2,1
 *       penalty weigh the features in units of their standard deviation
 *       ({@link FeatureUnits}), and feature i scores {@code σ_i ||w_i||₂}, its contribution to
 *       {@code WᵀX}; Algorithm 2's {@code ||w_i||₂} on the raw features favours quiet ones.
 * </ul>
 *
 * <p>Everything follows from the first iteration's targets: when the clusters show only weakly
 * in the first kNN graph, its smallest eigenvectors can lie on a few loosely attached samples
 * and the selection does not recover; raise numNeighbors.
 *
 * <p>Each iteration: one pass per eigensolver product, one for the regression's {@code X Y}
 * (on the n × n side, d > n, one per reweighting iteration), one for X', one per evaluation of
 * the W step's objective (monotone only), one for S and P (a single search of each sample's
 * nearest samples in X' serves the LASSO dictionary, the simplex row and, the first time, μ of
 * Eq. 21), one building the Laplacian's row blocks lazily with the next pass, and one for the
 * objective. The objective recorded after iteration t is Eq. 5 at {@code (W_t, S_{t+1},
 * P_{t+1})}, S and P being the structure learned from W_t.
 *
 * <p>Apart from the first iteration's kNN graph over X ({@link CommonOptions#knnSearch()}), an
 * iteration's work is near-linear in n: each pass is O(n d) or O(nnz(L)), and the number of
 * eigensolver products does not grow with n; the nearest samples in X' are searched in a k-d
 * tree ({@link KdTree}, about 2^c leaves per sample) once {@code n ≥ KD_TREE_MIN_RATIO · 2^c},
 * by all pairs (O(n² c)) below; a LASSO column costs O(K c) per homotopy step over
 * K = lassoNeighbors samples. The whole dictionary ({@code lassoNeighbors = 0}) costs O(n² c)
 * per iteration: it is for small n only.
 *
 * <p>Sparse input is densified for this method: it needs the dense X Xᵀ of its W-step (Eq. 14)
 * and the projection Wᵀ X of its graph steps (Eq. 6, 8).
 */
public final class FsaslSolver implements FeatureSelectionSolver {

  /** α of Eq. 5: the LASSO weight, as a fraction of each sample's λ_max (the authors' SLEP ratio). */
  public static final ParamSpec<Double> ALPHA = ParamSpec.real("alpha", 0.01, Range.open(0, 1),
      "Eq. 5", "α: the LASSO weight of the global structure S, as a fraction of each sample's "
          + "λ_max");
  /** β of Eq. 5: the weight of the local (probabilistic neighbourhood) structure. */
  public static final ParamSpec<Double> BETA = ParamSpec.real("beta", 1.0, Range.atLeast(0),
      "Eq. 5", "β: weight of the local structure term");
  /**
   * γ of Eq. 5, the ℓ2,1 weight of the regression (Eq. 14), against the features in the unit of
   * the W step: standard units with {@code standardization} (the default), else the unit of
   * {@code featureScaling}. The default 30 was measured in standard units over 10, 30, 100 and
   * 1000 on seven image and speech sets, scikit-learn's digits and the planted families
   * (docs/methods/fsasl.md); with {@code standardization = false} and {@code featureScaling =
   * none}, like the paper's γ, it is not scale-free (the authors' code uses 1).
   */
  public static final ParamSpec<Double> GAMMA = ParamSpec.real("gamma", 30.0,
      Range.greaterThan(0), "Eq. 5", "γ: weight of the ℓ2,1 row sparsity of W");
  /**
   * K, the LASSO dictionary: by default the 50 nearest samples in X' (0 = all samples). On
   * COIL20 the whole dictionary costs 3 to 5 times more per iteration for no better ACC.
   */
  public static final ParamSpec<Integer> LASSO_NEIGHBORS = ParamSpec.integer("lassoNeighbors",
      50, Range.atLeast(0), "Eq. 6", "K: restrict each sample's LASSO dictionary to its K "
          + "nearest samples in the projection (0 = all samples, O(n² c) per iteration)");
  /** Reweighting iterations of the W step per outer iteration (D is warm-started). */
  public static final ParamSpec<Integer> INNER_ITERATIONS = ParamSpec.integer("innerIterations",
      3, Range.atLeast(1), "Eq. 14", "reweighting iterations of the W step per outer iteration");
  /** By default a W step must lower Eq. 5 (damped if need be), so the objective never rises. */
  public static final ParamSpec<Boolean> MONOTONE = ParamSpec.flag("monotone", true, "Eq. 5",
      "true: a W step that would raise Eq. 5 is damped until it lowers it, and the iteration "
          + "stops when none does; false: every W step of Theorem 1 is taken in full "
          + "(Algorithm 2, the authors' code), and Eq. 5 may rise");
  /** Whether W and its ℓ2,1 penalty weigh the features in standard units (on by default). */
  public static final ParamSpec<Boolean> STANDARDIZATION = ParamSpec.flag("standardization",
      true, "Eq. 5", "whether the W step and its ℓ2,1 penalty γ||W||₂,₁ weigh the features in "
          + "units of their standard deviation, so that a feature is charged and scored by its "
          + "contribution to WᵀX (a step the paper lacks); false is Eq. 5 on the raw features, "
          + "whose row norms favour low-variance features");
  /** FSASL's params. */
  public static final List<ParamSpec<?>> PARAMS = List.of(CommonOptions.NUM_CLUSTERS,
      CommonOptions.NUM_NEIGHBORS, CommonOptions.KNN_ALGORITHM, CommonOptions.MAX_ITER,
      CommonOptions.TOL, CommonOptions.SEED, CommonOptions.FEATURE_SCALING, ALPHA, BETA, GAMMA,
      LASSO_NEIGHBORS, INNER_ITERATIONS, MONOTONE, STANDARDIZATION);

  /**
   * Eigensolver residual tolerance in the Jacobi-scaled {@code T^{1/2} L T^{1/2}}, whose
   * diagonal is 1 ({@link Lobpcg}).
   */
  static final double EIGEN_TOL = 1e-3;
  /** Eigenvectors iterated beyond the c wanted (they speed the last wanted ones). */
  static final int EIGEN_EXTRA = 5;
  /** Eigensolver iteration budget (one product each) per outer iteration. */
  static final int EIGEN_MAX_ITERATIONS = 1000;
  /**
   * Smallest damping of the W step: when even {@code W_{t-1} + MIN_W_STEP (W − W_{t-1})} would
   * raise Eq. 5, the iteration stops.
   */
  static final double MIN_W_STEP = 1.0 / 64;
  /** μ when Eq. 21 gives none (every sample's k + 1 nearest at the same distance). */
  static final double MU_FLOOR = 1e-12;
  /**
   * The smallest {@code n / 2^c} at which the nearest samples in X' are searched with a
   * {@link KdTree} instead of by all pairs ({@link ExactKnn}, O(n² c) per iteration): an exact
   * k-d tree query visits on the order of 2^c leaves where the all-pairs search looks at all n
   * samples. Measured for the 51 nearest on clustered Gaussian data, the tree is the faster
   * from n ≈ 4,000 at c = 5, 25,000 at c = 8 and 60,000 at c = 10, and 5 times slower at
   * c = 20, n = 20,000. Every paper data set stays below it.
   */
  static final double KD_TREE_MIN_RATIO = 128;

  private final CommonOptions common;
  private final double alpha;
  private final double beta;
  private final double gamma;
  private final int lassoNeighbors;
  private final int innerIterations;
  private final boolean monotone;
  private final boolean standardization;

  /**
   * @param options values of {@link #PARAMS}: c, k (for the heat-kernel graph of the first
   *     iteration and the rows of P), maxIter (including the first iteration), tol, seed
   *     (eigensolver start vectors) and the method's own
   */
  public FsaslSolver(MethodOptions options) {
    this.common = options.common();
    this.alpha = options.get(ALPHA);
    this.beta = options.get(BETA);
    this.gamma = options.get(GAMMA);
    this.lassoNeighbors = options.get(LASSO_NEIGHBORS);
    this.innerIterations = options.get(INNER_ITERATIONS);
    this.monotone = options.get(MONOTONE);
    this.standardization = options.get(STANDARDIZATION);
  }

  @Override
  public SelectionResult fit(RowBlockMatrix data) {
    return fit(data, null);
  }

  /**
   * As {@link #fit(RowBlockMatrix)}, with the first iteration's local structure given instead of
   * built: the hook through which a reference implementation's starting graph is fed in.
   *
   * @param firstGraph the symmetric n × n affinity of the first iteration, or null to build the
   *     heat-kernel kNN graph
   */
  SelectionResult fit(RowBlockMatrix data, SparseRowMatrix firstGraph) {
    int n = data.numRows();
    if (firstGraph != null && (firstGraph.numRows() != n || firstGraph.numCols() != n)) {
      throw new IllegalArgumentException("firstGraph is " + firstGraph.numRows() + " × "
          + firstGraph.numCols() + ", expected " + n + " × " + n + " (one row per sample)");
    }
    int c = common.numClusters();
    int k = common.numNeighbors();
    if (n < k + 2) {
      throw new IllegalArgumentException("FSASL needs at least numNeighbors + 2 = " + (k + 2)
          + " rows (μ, Eq. 21, reads each sample's numNeighbors + 1 nearest distances), got "
          + n);
    }
    if (n < c + EIGEN_EXTRA + 1) {
      throw new IllegalArgumentException("FSASL needs at least numClusters + "
          + (EIGEN_EXTRA + 1) + " = " + (c + EIGEN_EXTRA + 1) + " rows (its eigensolver "
          + "iterates numClusters + " + EIGEN_EXTRA + " vectors orthogonal to the constant one), "
          + "got " + n);
    }
    long start = System.nanoTime();
    try (RowBlockMatrix x = data.centered(common.featureScaling(data.columnStatistics()));
        ResourceScope scope = new ResourceScope()) {
      return fit(data, x, firstGraph, scope, start);
    }
  }

  /**
   * Algorithm 1 on the centred samples {@code x}, from {@code firstGraph} if not null; what it
   * caches per iteration is held by {@code scope}.
   */
  private SelectionResult fit(RowBlockMatrix data, RowBlockMatrix x, SparseRowMatrix firstGraph,
      ResourceScope scope, long start) {
    int n = data.numRows();
    int c = common.numClusters();
    FeatureUnits units = FeatureUnits.of(x.columnStatistics(), standardization);
    int k = common.numNeighbors();
    Execution ex = x.execution();
    RegularizedRegression regression = new RegularizedRegression(x);
    IterativeFit loop = new IterativeFit("FSASL", common);
    DenseMatrix constant = new DenseMatrix(1, n);
    Arrays.fill(constant.data(), 1.0 / Math.sqrt(n));

    ex.describe("FSASL: heat-kernel graph");
    long graphStart = System.nanoTime();
    HeatKernelGraph first = firstGraph != null ? null : HeatKernelGraph.withAtMostPieces(x, k,
        Math.min(n - 1, Math.max(k, (int) Math.ceil(Math.log(n)))), c, 0, common.knnSearch());
    SparseRowMatrix knnGraph = first == null ? firstGraph : first.weights();
    double graphSeconds = (System.nanoTime() - graphStart) / 1e9;
    Laplacian laplacian = scope.keep(Laplacian.build(x, null, knnGraph, 1.0, 0.0, null));
    LaplacianNullSpace nullSpace =
        LaplacianNullSpace.of(knnGraph, LaplacianNullSpace.unitWeights(n));
    DenseMatrix block = null;
    double[] weights = null;
    SparseRowMatrix sTranspose = null;
    SparseRowMatrix p = null;
    double[] lambdas = null;
    double mu = Double.NaN;
    int eigenProducts = 0;
    int ridgeSolves = 0;
    double eigenResidual = 0;
    WPoint w = null;
    int dampedSteps = 0;
    double smallestStep = 1;
    boolean stalled = false;
    long eigenNanos = 0;
    long structureNanos = 0;
    while (loop.next()) {
      int t = loop.iteration();
      ex.describe("FSASL iteration " + t + ": eigenvectors of L");
      long eigenStart = System.nanoTime();
      Targets eig = t == 1 ? Targets.first(laplacian, nullSpace, c, common.seed() + t)
          : Targets.later(laplacian, constant, c, block, common.seed() + t);
      eigenNanos += System.nanoTime() - eigenStart;
      eigenProducts += eig.products();
      eigenResidual = Math.max(eigenResidual, eig.maxResidual());

      ex.describe("FSASL iteration " + t + ": W step");
      double[] d = weights;
      DenseMatrix regressed = null;
      try (Shared<DenseMatrix> targets = ex.share(eig.vectors())) {
        // X Y does not change across the reweighting iterations: one pass on the d × d side.
        DenseMatrix rhs = regression.usesSampleSide() ? null : x.multiply(targets);
        for (int inner = 0; inner < innerIterations; inner++) {
          if (d == null) {
            d = units.initialWeights();
          }
          regressed = rhs == null ? regression.solve(d, gamma, targets)
              : regression.solveFeatureSide(d, gamma, rhs);
          ridgeSolves++;
          d = units.l21Weights(regressed, RowSparsityWeights.DEFAULT_EPSILON);
        }
      }
      WPoint full = WPoint.of(regressed, x.project(regressed));
      WPoint next = full;
      if (monotone && t > 1) {
        double previous = loop.lastObjective();
        WPoint target = full.rotatedOnto(w);
        double step = 1;
        while (laplacian.objective(next.projection, units.standardized(next.feasible), gamma)
            > previous) {
          step /= 2;
          if (step < MIN_W_STEP) {
            break;
          }
          next = w.towards(target, step);
        }
        if (step < MIN_W_STEP) {
          stalled = true;
          loop.leave("no W step, damped down to 1/" + Math.round(1 / MIN_W_STEP)
              + " of the full one, lowers Eq. 5 (summary 'stalled' = 1)");
          break;
        }
        if (step < 1) {
          dampedSteps++;
          smallestStep = Math.min(smallestStep, step);
        }
      }
      w = next;
      block = eig.block();
      weights = d;

      ex.describe("FSASL iteration " + t + ": structure (S, P)");
      long structureStart = System.nanoTime();
      Structure structure;
      try (Shared<DenseMatrix> shared = ex.share(w.projection)) {
        structure = Structure.learn(x, shared, w.projection, sTranspose, p, lambdas, alpha, mu,
            k, lassoNeighbors);
      }
      lambdas = structure.lambdas;
      mu = structure.mu;
      sTranspose = structure.sTranspose;
      p = structure.p;
      double l1 = 0;
      for (int i = 0; i < n; i++) {
        for (double v : sTranspose.values(i)) {
          l1 += 2 * lambdas[i] * Math.abs(v);
        }
      }
      laplacian = scope.replace(laplacian, Laplacian.build(x, sTranspose,
          p.combine(0.5, p.transpose(), 0.5), beta,
          l1 + 0.5 * beta * mu * p.frobeniusNormSquared(), structure.order));
      structureNanos += System.nanoTime() - structureStart;
      loop.record(laplacian.objective(w.projection, units.standardized(w.feasible), gamma));
    }
    IterativeFit.Result history = loop.result();
    Map<String, Double> summary = new LinkedHashMap<>();
    summary.put("objective", history.lastObjective());
    summary.put("dampedWSteps", (double) dampedSteps);
    summary.put("smallestWStep", smallestStep);
    summary.put("stalled", stalled ? 1.0 : 0.0);
    summary.put("mu", mu);
    int lassoMax = 0;
    for (int i = 0; i < n; i++) {
      lassoMax = Math.max(lassoMax, sTranspose.columns(i).length);
    }
    summary.put("lassoNonZerosPerSample", (double) sTranspose.numEntries() / n);
    summary.put("lassoMaxNonZeros", (double) lassoMax);
    summary.put("simplexNonZerosPerSample", (double) p.numEntries() / n);
    summary.put("firstGraphNeighbors", first == null ? Double.NaN : first.numNeighbors());
    summary.put("eigenProducts", (double) eigenProducts);
    summary.put("eigenMaxResidual", eigenResidual);
    summary.put("ridgeSolves", (double) ridgeSolves);
    summary.put("graphSeconds", graphSeconds);
    summary.put("eigenSeconds", eigenNanos / 1e9);
    summary.put("structureSeconds", structureNanos / 1e9);
    summary.put("seconds", (System.nanoTime() - start) / 1e9);
    return new SelectionResult(units.scores(w.regressed), true, history.iterations(),
        history.converged(), history.objectives(), summary);
  }

  /** {@code M^{-1/2}} of a symmetric positive semi-definite c × c matrix (tiny modes floored). */
  private static DenseMatrix inverseSquareRoot(DenseMatrix m) {
    int c = m.rows();
    SymmetricEigen eig = SymmetricEigen.largest(m, c);
    double[] lambda = eig.values();
    double floor = Math.max(lambda[0], Double.MIN_NORMAL) * 1e-12;
    DenseMatrix u = eig.vectors();
    DenseMatrix scaled = u.copy();
    for (int j = 0; j < c; j++) {
      double f = 1.0 / Math.sqrt(Math.max(lambda[j], floor));
      for (int i = 0; i < c; i++) {
        scaled.set(i, j, scaled.get(i, j) * f);
      }
    }
    return scaled.multiplyTranspose(u);
  }

  /**
   * Theorem 1's targets Y: the c smallest eigenvectors of L orthogonal to the constant vector,
   * with the warm start of the next solve and the eigensolver's cost.
   */
  private record Targets(DenseMatrix vectors, DenseMatrix block, int products,
      double maxResidual) {

    /**
     * The first iteration's Y, for the Laplacian {@code L = D − A} of the kNN graph, whose null
     * space is spanned by the indicators of the graph's K connected components: the fixed basis
     * of its K − 1 directions orthogonal to the constant ({@link LaplacianNullSpace}, ω = 1),
     * the largest components first, then the smallest non-zero eigenpairs, computed with the K
     * indicators deflated (no eigensolve when {@code K − 1 ≥ c}).
     */
    static Targets first(Laplacian laplacian, LaplacianNullSpace nullSpace, int c, long seed) {
      LaplacianNullSpace.Eigenpairs eig = nullSpace.smallest(c, laplacian.operator(),
          laplacian.inverseDiagonal(), 1.0, EIGEN_EXTRA, EIGEN_TOL, EIGEN_MAX_ITERATIONS, seed);
      return new Targets(eig.vectors(), eig.block(), eig.products(), eig.maxResidual());
    }

    /** Y for the later iterations' L, with the constant vector deflated. */
    static Targets later(Laplacian laplacian, DenseMatrix constant, int c, DenseMatrix initial,
        long seed) {
      SmallestEigenpairs eig = new Lobpcg(c, c + EIGEN_EXTRA, EIGEN_TOL, EIGEN_MAX_ITERATIONS)
          .smallest(laplacian.operator(), laplacian.n, laplacian.inverseDiagonal(), 1.0,
              constant, initial, seed);
      return new Targets(eig.vectors(), eig.block(), eig.products(), eig.maxResidual());
    }
  }

  /**
   * A W of the iteration: the regression W (whose row norms are the scores), its projection
   * {@code WᵀX}, and the feasible {@code W (WᵀXXᵀW)^{-1/2}} with its projection, at which
   * Eq. 5 is evaluated and from which the structure is learned.
   */
  private static final class WPoint {
    private final DenseMatrix regressed;
    private final DenseMatrix raw;
    private final DenseMatrix feasible;
    private final DenseMatrix projection;

    private WPoint(DenseMatrix regressed, DenseMatrix raw, DenseMatrix feasible,
        DenseMatrix projection) {
      this.regressed = regressed;
      this.raw = raw;
      this.feasible = feasible;
      this.projection = projection;
    }

    /** The point of a regression W and its projection {@code WᵀX} (c × n). */
    static WPoint of(DenseMatrix regressed, DenseMatrix raw) {
      DenseMatrix whiten = inverseSquareRoot(raw.gram());
      return new WPoint(regressed, raw, regressed.multiply(whiten), whiten.multiply(raw));
    }

    /**
     * This point with W turned by the orthogonal R that brings its projection closest to
     * {@code reference}'s ({@code min_R ||RᵀWᵀX − W_refᵀX||}, orthogonal Procrustes:
     * {@code R = M (MᵀM)^{-1/2}} with {@code M = WᵀX Xᵀ W_ref}). Eq. 5, the constraint and
     * the scores are invariant under {@code W → WR}, and each eigenproblem returns its
     * vectors in an arbitrary rotation; a mix of two points is only meaningful once they are
     * in the same one (unaligned, columns of opposite sign nearly cancel, and the whitening
     * of the mix amplifies rounding errors into a different objective on every partitioning).
     */
    WPoint rotatedOnto(WPoint reference) {
      DenseMatrix m = raw.multiplyTranspose(reference.raw);
      DenseMatrix r = m.multiply(inverseSquareRoot(m.transposeMultiply(m)));
      return of(regressed.multiply(r), r.transposeMultiply(raw));
    }

    /** The point {@code W + step (W' − W)}; its projection is the same mix of projections. */
    WPoint towards(WPoint target, double step) {
      return of(regressed.copy().scaleInPlace(1 - step).addInPlace(step, target.regressed),
          raw.copy().scaleInPlace(1 - step).addInPlace(step, target.raw));
    }
  }

  /**
   * The Laplacian's row blocks, cached with the data blocks, and the driver-side extras. With a
   * {@link SampleOrder} the blocks hold {@code Π L Πᵀ}, rows in that order, and the products
   * take and return vectors in the samples' own order.
   */
  static final class Laplacian implements Releasable {
    private final Partitioned<FsaslLaplacianBlock> blocks;
    private final double[] inverseDiagonal;
    private final SampleOrder order;
    private final Execution execution;
    private final int n;
    /** Eq. 5's terms that do not depend on W: the ℓ1 and μ parts. */
    private final double constant;

    private Laplacian(Partitioned<FsaslLaplacianBlock> blocks, double[] inverseDiagonal,
        SampleOrder order, Execution execution, int n, double constant) {
      this.blocks = blocks;
      this.inverseDiagonal = inverseDiagonal;
      this.order = order;
      this.execution = execution;
      this.n = n;
      this.constant = constant;
    }

    /**
     * The row blocks of {@code L_S + localWeight · (D − A)}, without {@code L_S} when
     * sTranspose is null.
     *
     * @param sTranspose Sᵀ (row i: sample i's LASSO coefficients), or null
     * @param affinity the symmetric affinity A
     * @param constant Eq. 5's terms that do not depend on W
     * @param order the order of the blocks' rows, or null for the samples' own
     */
    static Laplacian build(RowBlockMatrix x, SparseRowMatrix sTranspose,
        SparseRowMatrix affinity, double localWeight, double constant, SampleOrder order) {
      Execution ex = x.execution();
      if (order != null) {
        sTranspose = sTranspose == null ? null : order.permute(sTranspose);
        affinity = order.permute(affinity);
      }
      SparseRowMatrix s = sTranspose == null ? null : sTranspose.transpose();
      try (ResourceScope shared = new ResourceScope()) {
        Shared<SparseRowMatrix> ss = s == null ? null : shared.keep(ex.share(s));
        Shared<SparseRowMatrix> st = s == null ? null : shared.keep(ex.share(sTranspose));
        Shared<SparseRowMatrix> sa = shared.keep(ex.share(affinity));
        Partitioned<FsaslLaplacianBlock> blocks = x.blocks().map(b -> FsaslLaplacianBlock.build(
            b.offset(), b.numRows(), ss == null ? null : ss.get(), st == null ? null : st.get(),
            sa.get(), localWeight));
        double[] jacobi = inverseDiagonal(s, affinity, localWeight);
        return new Laplacian(blocks, order == null ? jacobi : order.fromOrder(jacobi), order, ex,
            x.numRows(), constant);
      }
    }

    /**
     * The Jacobi preconditioner {@code 1 / L_ii}: {@code (L_S)_ii = 1 + Σ_j S_ij²} (S_ii = 0),
     * {@code (D − A)_ii = D_ii}. Each L_ii is floored at ε · max_i L_ii (ε the machine
     * epsilon): a far sample's heat-kernel degree can be 1e-175 beside degrees of order 1, and
     * its unbounded inverse overflows the eigensolver's residuals to NaN; the floor keeps the
     * preconditioner's condition number at most 1 / ε. When every L_ii is zero the
     * preconditioner is the identity.
     */
    private static double[] inverseDiagonal(SparseRowMatrix s, SparseRowMatrix affinity,
        double localWeight) {
      double[] diagonal = affinity.rowSums();
      double[] squares = s == null ? null : s.rowSumsOfSquares();
      double largest = 0;
      for (int i = 0; i < diagonal.length; i++) {
        diagonal[i] = localWeight * diagonal[i] + (s == null ? 0 : 1 + squares[i]);
        largest = Math.max(largest, diagonal[i]);
      }
      double floor = largest > 0 ? Math.ulp(1.0) * largest : 1;
      for (int i = 0; i < diagonal.length; i++) {
        diagonal[i] = 1 / Math.max(diagonal[i], floor);
      }
      return diagonal;
    }

    BlockOperator operator() {
      return v -> {
        try (Shared<DenseMatrix> sv = execution.share(inOrder(v))) {
          DenseMatrix lv = RowBlockMatrix.concatColumns(v.rows(),
              blocks.collect(b -> b.multiply(sv.get())));
          return order == null ? lv : order.fromOrder(lv);
        }
      };
    }

    /** Per-sample vectors in the blocks' order. */
    private DenseMatrix inOrder(DenseMatrix v) {
      return order == null ? v : order.toOrder(v);
    }

    double[] inverseDiagonal() {
      return inverseDiagonal;
    }

    /**
     * Eq. 5 at (W, S, P) with S and P those of this Laplacian and {@code X' = WᵀX}:
     * {@code Tr(X' L X'ᵀ) + Σ_i 2λ_i||s_i||₁ + (β/2) μ ||P||² + γ ||W||₂,₁}.
     */
    double objective(DenseMatrix projection, DenseMatrix w, double gamma) {
      return trace(projection) + constant + gamma * RowSparsityWeights.l21Norm(w);
    }

    /** {@code Tr(V L Vᵀ)} for vectors given as rows of v. */
    double trace(DenseMatrix v) {
      if (v.cols() != n) {
        throw new IllegalArgumentException("vectors of length " + v.cols() + " for " + n);
      }
      try (Shared<DenseMatrix> sv = execution.share(inOrder(v))) {
        return DoubleArrays.sum(
            blocks.aggregate(b -> b.quadraticForms(sv.get()), DoubleArrays::accumulate));
      }
    }

    @Override
    public void release() {
      blocks.release();
    }
  }

  /**
   * S and P learned from the projection X'. One pass over the blocks searches each sample's
   * nearest samples in X' once and solves its LASSO column there; the simplex rows of P, k
   * values each, are then computed on the driver over the k nearest samples the blocks return,
   * after μ (Eq. 21, the first time) has been computed from their k + 1 nearest distances.
   * The search is exact either way: by all pairs, or, from {@code n ≥ KD_TREE_MIN_RATIO · 2^c}
   * on, in a {@link KdTree} built over X' on the driver and shared with the blocks
   * (O(n log n) to build; the same neighbours, distances summed directly instead of expanded,
   * so they may differ in the last bits). The tree's leaf order is kept as the
   * {@link SampleOrder} of the next Laplacian's products.
   */
  static final class Structure {
    private final SparseRowMatrix sTranspose;
    private final SparseRowMatrix p;
    private final double[] lambdas;
    private final double mu;
    private final SampleOrder order;

    private Structure(SparseRowMatrix sTranspose, SparseRowMatrix p, double[] lambdas,
        double mu, SampleOrder order) {
      this.sTranspose = sTranspose;
      this.p = p;
      this.lambdas = lambdas;
      this.mu = mu;
      this.order = order;
    }

    /** Sᵀ: row i holds sample i's LASSO coefficients. */
    SparseRowMatrix sTranspose() {
      return sTranspose;
    }

    /** P: row i is sample i's simplex row. */
    SparseRowMatrix p() {
      return p;
    }

    /** The μ of the simplex rows. */
    double mu() {
      return mu;
    }

    /**
     * Learns S and P from the projection.
     *
     * @param shared the projection X' (c × n), shared with the blocks
     * @param projection the same projection on the driver
     * @param previousS the previous Sᵀ, or null the first time
     * @param previousP the previous P, or null the first time
     * @param lambdas fixed λ_i, or null to set {@code λ_i = alpha · λ_max,i}
     * @param mu μ of the simplex rows, or NaN to compute it by Eq. 21
     */
    static Structure learn(RowBlockMatrix x, Shared<DenseMatrix> shared,
        DenseMatrix projection, SparseRowMatrix previousS, SparseRowMatrix previousP,
        double[] lambdas, double alpha, double mu, int k, int lassoNeighbors) {
      Execution ex = x.execution();
      int n = x.numRows();
      List<StructureBlock> parts;
      KdTree kdTree = searchesKdTree(n, projection.rows())
          ? new KdTree(new RowBlock(0, projection)) : null;
      try (ResourceScope scope = new ResourceScope()) {
        Shared<KdTree> tree = kdTree == null ? null : scope.keep(ex.share(kdTree));
        Shared<SparseRowMatrix> prev = previousS == null ? null : scope.keep(ex.share(previousS));
        Shared<double[]> lam = lambdas == null ? null : scope.keep(ex.share(lambdas));
        parts = x.blocks().collect(b -> StructureBlock.learn(b.offset(), b.numRows(),
            shared.get(), tree == null ? null : tree.get(), prev == null ? null : prev.get(),
            lam == null ? null : lam.get(), alpha, k, lassoNeighbors));
      }
      int[][] sIdx = new int[n][];
      double[][] sVal = new double[n][];
      int[][] near = new int[n][];
      double[][] nearDist = new double[n][];
      double[] l = new double[n];
      for (StructureBlock part : parts) {
        for (int i = 0; i < part.lambdas.length; i++) {
          int g = part.offset + i;
          sIdx[g] = part.sIndices[i];
          sVal[g] = part.sValues[i];
          near[g] = part.nearest[i];
          nearDist[g] = part.nearestDistances[i];
          l[g] = part.lambdas[i];
        }
      }
      double m = Double.isNaN(mu) ? neighbourhoodRegulariser(nearDist, k) : mu;
      int[][] pIdx = new int[n][];
      double[][] pVal = new double[n][];
      for (int g = 0; g < n; g++) {
        int[] support = near[g];
        double[] a = new double[k];
        for (int r = 0; r < k; r++) {
          a[r] = -StructureBlock.squaredDistance(projection, g, support[r]) / (2 * m);
        }
        double[] row = SimplexProjection.project(a);
        if (previousP != null) {
          int[] oldSupport = previousP.columns(g);
          double[] oldRow = previousP.values(g);
          if (rowObjective(projection, g, oldSupport, oldRow, m)
              < rowObjective(projection, g, support, row, m)) {
            support = oldSupport;
            row = oldRow;
          }
        }
        pIdx[g] = support;
        pVal[g] = row;
      }
      return new Structure(SparseRowMatrix.fromRows(0, n, sIdx, sVal),
          SparseRowMatrix.fromRows(0, n, pIdx, pVal), l, m,
          kdTree == null ? null : kdTree.sampleOrder());
    }

    /** Whether the nearest samples of n samples in c dimensions are searched in a k-d tree. */
    static boolean searchesKdTree(int n, int c) {
      return n >= KD_TREE_MIN_RATIO * Math.pow(2, c);
    }

    /**
     * μ of Eq. 21, {@code (1/n) Σ_i (k/2) d_{i,k+1} − (1/2) Σ_{r≤k} d_ir}, from each sample's
     * k + 1 nearest squared distances.
     */
    static double neighbourhoodRegulariser(double[][] nearestDistances, int k) {
      double sum = 0;
      for (double[] d : nearestDistances) {
        double near = 0;
        for (int r = 0; r < k; r++) {
          near += d[r];
        }
        sum += 0.5 * (k * d[k] - near);
      }
      double mu = sum / nearestDistances.length;
      return mu > 0 ? mu : MU_FLOOR;
    }

    /** Row g's share of the local term of Eq. 5: {@code Σ_j d_gj p_j + μ p_j²}. */
    private static double rowObjective(DenseMatrix xp, int g, int[] support, double[] p,
        double mu) {
      double f = 0;
      for (int r = 0; r < support.length; r++) {
        f += StructureBlock.squaredDistance(xp, g, support[r]) * p[r] + mu * p[r] * p[r];
      }
      return f;
    }
  }

  /**
   * One block's LASSO columns of S (Eq. 6), each sample's k nearest samples in X' and its k + 1
   * nearest squared distances, from one search of the block's samples against all samples (in
   * the k-d tree when there is one).
   */
  static final class StructureBlock implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int offset;
    private final int[][] sIndices;
    private final double[][] sValues;
    private final int[][] nearest;
    private final double[][] nearestDistances;
    private final double[] lambdas;

    private StructureBlock(int offset, int[][] sIndices, double[][] sValues, int[][] nearest,
        double[][] nearestDistances, double[] lambdas) {
      this.offset = offset;
      this.sIndices = sIndices;
      this.sValues = sValues;
      this.nearest = nearest;
      this.nearestDistances = nearestDistances;
      this.lambdas = lambdas;
    }

    /**
     * Solves the block's samples.
     *
     * @param xp the projection X' (c × n)
     * @param tree a k-d tree over X', or null to search all pairs
     * @param previousS the previous Sᵀ (row i: sample i's coefficients), or null
     * @param lambdas fixed λ_i, or null to set {@code λ_i = alpha · λ_max,i}
     * @param k the simplex rows' support size; k + 1 nearest are kept (Eq. 21 needs them)
     */
    static StructureBlock learn(int offset, int numRows, DenseMatrix xp, KdTree tree,
        SparseRowMatrix previousS, double[] lambdas, double alpha, int k, int lassoNeighbors) {
      int n = xp.cols();
      int c = xp.rows();
      boolean restricted = lassoNeighbors > 0 && lassoNeighbors < n - 1;
      int q = Math.max(restricted ? lassoNeighbors : 0, k + 1);
      RowBlock queries = new RowBlock(offset, xp.columns(offset, numRows));
      NeighborLists nl = tree == null ? ExactKnn.nearest(queries, new RowBlock(0, xp), q)
          : tree.nearest(queries, q);
      Lasso lasso = new Lasso(xp);
      int[][] sIdx = new int[numRows][];
      double[][] sVal = new double[numRows][];
      int[][] near = new int[numRows][];
      double[][] nearDist = new double[numRows][k + 1];
      double[] lam = new double[numRows];
      double[] target = new double[c];
      for (int i = 0; i < numRows; i++) {
        int g = offset + i;
        System.arraycopy(xp.data(), g * c, target, 0, c);
        int[] dictionary = restricted ? firstNeighbours(nl, i, lassoNeighbors) : allBut(g, n);
        lam[i] = lambdas != null ? lambdas[g] : alpha * lasso.lambdaMax(dictionary, target);
        Lasso.Solution s = lasso.solve(dictionary, target, lam[i]);
        if (previousS != null) {
          Lasso.Solution old = Lasso.of(previousS.columns(g), previousS.values(g));
          if (lasso.objective(old, target, lam[i]) < lasso.objective(s, target, lam[i])) {
            s = old;
          }
        }
        sIdx[i] = s.indices();
        sVal[i] = s.values();
        near[i] = firstNeighbours(nl, i, k);
        for (int r = 0; r <= k; r++) {
          nearDist[i][r] = nl.distance(i, r);
        }
      }
      return new StructureBlock(offset, sIdx, sVal, near, nearDist, lam);
    }

    static double squaredDistance(DenseMatrix xp, int a, int b) {
      int c = xp.rows();
      return DoubleArrays.squaredDistance(xp.data(), a * c, xp.data(), b * c, c);
    }

    private static int[] firstNeighbours(NeighborLists nl, int i, int count) {
      int[] out = new int[count];
      for (int r = 0; r < count; r++) {
        out[r] = nl.index(i, r);
      }
      return out;
    }

    private static int[] allBut(int g, int n) {
      int[] out = new int[n - 1];
      for (int j = 0, at = 0; j < n; j++) {
        if (j != g) {
          out[at++] = j;
        }
      }
      return out;
    }
  }

  @Override
  public String denseInputReason() {
    return "needs the dense X Xᵀ of its W-step (Eq. 14) and the projection Wᵀ X of its graph"
        + " steps (Eq. 6, 8)";
  }

  /** Unless it measures the features by their range (see the interface). */
  @Override
  public boolean losesPlantedFeaturesWhenWide() {
    return common.scalingUnit() != FeatureScaling.RANGE;
  }

  @Override
  public boolean isScaleFree() {
    return common.isScaleFree();
  }

  @Override
  public DriverMemory.Need driverNeed(int n, int d) {
    return RegularizedRegression.driverNeed(n, d);
  }
}
