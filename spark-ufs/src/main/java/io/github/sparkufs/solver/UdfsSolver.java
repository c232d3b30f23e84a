package io.github.sparkufs.solver;

import io.github.sparkufs.graph.KnnSearch;
import io.github.sparkufs.graph.NeighborLists;
import io.github.sparkufs.linalg.ColumnStatistics;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.DoubleArrays;
import io.github.sparkufs.linalg.DriverMemory;
import io.github.sparkufs.linalg.Execution;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.ResourceScope;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.RowSparsityWeights;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.linalg.SparseRowMatrix;
import io.github.sparkufs.linalg.SymmetricEigen;
import io.github.sparkufs.linalg.TriangularSolve;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * UDFS, ℓ2,1-norm regularised discriminative feature selection (Yang, Shen, Ma, Huang and Zhou,
 * IJCAI 2011; docs/methods/udfs.md). It solves (Eq. 12)
 * {@code min_W Tr(Wᵀ M W) + γ ||W||₂,₁} subject to {@code WᵀW = I} (W is d × c), with the local
 * discriminative scatter
 * {@code M = X (Σ_i S_i H (X̃_iᵀ X̃_i + λI)^{-1} H S_iᵀ) Xᵀ} (Eq. 10–11): the local set of sample
 * i is i itself followed by its k nearest neighbours (its OWN neighbours — scikit-feature builds
 * the set from another sample's list), X_i their d × (k+1) data, {@code H = I − 11ᵀ/(k+1)} the
 * centring matrix, {@code X̃_i = X_i H}, and S_i the n × (k+1) selection matrix of the set.
 *
 * <p>The weights {@code A = Σ_i S_i T_i S_iᵀ} of {@code M = X A Xᵀ} are built in two passes over
 * the blocks, never with an n × n dense matrix:
 * <ol>
 *   <li>each block gathers the vectors of its samples' local sets from all blocks
 *       ({@link Partitioned#crossMerge}) and computes each sample's (k+1) × (k+1) term
 *       {@code T_i = H (X̃_iᵀX̃_i + λI)^{-1} H}, from a QR decomposition of
 *       {@code [X̃_i; √λ I]} ({@link #localTerms}; the gathered sets hold k+1 copies of the
 *       block's data while this pass runs);
 *   <li>the terms are summed on the driver into the sparse n × n matrix A (at most n(k+1)²
 *       entries).
 * </ol>
 * W lies in the span of the centred samples (choice (3) below), so only {@code PᵀMP} for a
 * basis P of that span is needed. With d ≤ n, M itself is formed ({@code Z = X A} per block by
 * a second cross merge, {@code M = Σ_blocks X_b Z_bᵀ}) and P comes from the d × d scatter of
 * the centred samples. With d > n the span has at most n − 1 dimensions and everything is
 * computed from the n × n kernel of the samples instead ({@link #sampleSide}): no d × d matrix,
 * and the basis is exactly the samples' span, so rounding-level directions of a d × d
 * eigendecomposition cannot enter it.
 * Then the iteration of the paper's Algorithm 1 runs on the driver: W = P V with V the
 * eigenvectors of the c smallest eigenvalues of {@code Pᵀ(M + γD)P} ({@link SymmetricEigen}),
 * P the basis below, D the ℓ2,1 reweighting of W's rows ({@link RowSparsityWeights}, ε =
 * {@link RowSparsityWeights#DEFAULT_EPSILON}; D = I at the start). The objective recorded per iteration is
 * {@code Tr(WᵀMW) + γ Σ_i sqrt(||w_i||² + ε)}, the smoothed Eq. 12 that the reweighting
 * provably does not increase. Scores: {@code ||w_i||₂}, larger is better.
 *
 * <p>Choices the paper does not make. (1) With {@code standardization} (default), M and W
 * are in units of each feature's standard deviation σ_j: {@code M ← S M S} with
 * {@code S = diag(1/σ_j)}, so that feature j scores {@code σ_j ||w_j||} in raw units, the size of
 * its contribution to the linear classifier {@code G = XᵀW}, and the ℓ2,1 term weighs the
 * features alike whatever their units. The local sets' Gram matrices stay on the data as given.
 * (2) The constraint. The paper derives its criterion for a scaled cluster indicator G with
 * {@code GᵀG = I}, then substitutes {@code G = XᵀW} and constrains {@code WᵀW = I} instead
 * (Eq. 12). With {@code WᵀW = I} the minimum of {@code Tr(WᵀMW)} sits on the directions of
 * least variance, not of least local scatter relative to the total: on raw features the
 * quietest features (a constant one has {@code M e_j = 0}), on standardised ones the differences
 * of nearly collinear features (neighbouring background pixels of an image). Here the
 * constraint is {@code Wᵀ((1 − η) C̄ + η I)W = I}, C̄ the centred samples' scatter (in the units
 * of (1)) divided by its mean diagonal over the non-constant features: η = 0 is
 * {@code GᵀG = I} up to a constant (G centred; the trace term is then invariant to any
 * invertible transform of the features), η = 1 is Eq. 12, and η in between shrinks the
 * scatter towards the identity as regularised discriminant analysis does (Friedman 1989), so
 * that directions of rounding-level variance are not amplified. {@code shrinkage} = η, default
 * 1e-3 (see {@link #SHRINKAGE}). (3) W is kept in the span of the centred samples (the
 * eigenvectors of their scatter above the numerical rank tolerance): {@code G = XᵀW} is constant
 * on the rest, where the trace term vanishes, so with d > n (or constant or collinear features)
 * the c smallest eigenvectors at Algorithm 1's start would be any basis of a null space and
 * rounding would choose the selection. (4) Scores ({@link #SCORE}): under {@code GᵀG = I} the
 * row norms {@code ||w_j||} grow with the inverse of a direction's variance and spread over
 * low-variance noise, so by default feature j scores {@code ||(C W)_j||}, its covariance with
 * the columns of G (C the centred samples' scatter in the units of (1)), the structure
 * coefficients of discriminant analysis; each column of the span basis is an eigenvector of C,
 * so {@code C W = P diag(λ) V} costs nothing. (5) The local sets are the nearest neighbours
 * with the features in the unit of {@code featureScaling} (default range: centred, each divided
 * by max − min), so that noise of large spread does not choose them; their Gram matrices and M
 * come from the data as given (docs/methods/udfs.md).
 *
 * <p>Sparse input is densified for this method: it needs the dense d × d scatter M of its local
 * sets (Eq. 10-11).
 */
public final class UdfsSolver implements FeatureSelectionSolver {

  /** How a feature is scored from the fitted W (class comment, choice (4)). */
  public enum Score {
    /** {@code ||w_j||}, the row norm of W, as the paper scores. */
    WEIGHTS,
    /**
     * {@code ||(C W)_j||}, C the centred samples' scatter in the units of
     * {@code standardization}: the covariance of feature j with the columns of
     * {@code G = XᵀW}, the cluster indicator Eq. 12 fits.
     */
    LOADINGS
  }

  /**
   * γ of Eq. 12; the default chosen on COIL20 with the default λ (k-means ACC with the top 50
   * features: .145 at 1e-5, .205 at 1e-4, .473 at 1e-3, .474 at 2e-3, .398 at 5e-3, .41 from
   * 1e-2 to 10; λ = 100 with γ = 1e-2: .451). When λ is much larger than the local scatter,
   * {@code M ≈ Σ_i X̃_i X̃_iᵀ / λ}, so only the product γλ matters (λ = 1e4 with γ = 1e-4
   * gives the same .472). The size of the local sets matters more: k = 3 gives .531, k = 20
   * .378 (docs/methods/udfs.md).
   */
  public static final ParamSpec<Double> GAMMA = ParamSpec.real("gamma", 1e-3,
      Range.greaterThan(0), "Eq. 12", "γ: weight of the ℓ2,1 row sparsity of W");
  /**
   * λ of Eq. 10; the default is the authors' code's (for data in [0, 1]); λ = 1 scored
   * .11-.12 on COIL20.
   */
  public static final ParamSpec<Double> LAMBDA = ParamSpec.real("lambda", 1000.0,
      Range.greaterThan(0), "Eq. 10", "λ: ridge of each local set's centred Gram matrix, "
          + "(X̃ᵢᵀX̃ᵢ + λI)^-1");
  /** Whether the features enter in units of their standard deviation (by default they do). */
  public static final ParamSpec<Boolean> STANDARDIZATION = ParamSpec.flag("standardization",
      true, "Eq. 12", "whether the features enter the scatter M and the weights W of Eq. 12 in "
          + "units of their standard deviation (the local sets' Gram matrices come from the data "
          + "as given); false is Eq. 12 on the raw features, whose WᵀW = I favours low-variance "
          + "features");
  /**
   * η of the constraint; 1 is Eq. 12 as the paper states it, the default 1e-3 the paper's
   * {@code GᵀG = I} with a ridge. Measured with the row-norm scores, smaller η helped on
   * image data and hurt on planted clusters (k-means ACC at m = 50 / 100 / 300, 20 runs): COIL20 .424 / .476
   * / .549 at η = 1, .479 / .550 / .568 at 1e-2, .552 / .564 / .584 at 1e-3; JAFFE .721 / .772 /
   * .773 at 1, .734 / .781 / .792 at 1e-2, .734 / .803 / .792 at 1e-3; scikit-learn's digits (m = 8 / 16 / 24) .535 / .655 /
   * .744 at 1, .538 / .671 / .705 at 1e-2, .538 / .643 / .705 at 0; but the planted-cluster
   * recall of the tests fell from 1.0 at every seed to a mean of .775 at η ≤ 1e-2 (.25 at one
   * seed): with {@code GᵀG = I} the weights are discriminant coefficients, which spread over
   * correlated features. Scored by loadings (the default) that recall is 1.0 at every seed.
   */
  public static final ParamSpec<Double> SHRINKAGE = ParamSpec.real("shrinkage", 1e-3,
      Range.closed(0, 1), "Eq. 12", "η of the constraint Wᵀ((1 − η) C + η I)W = I, C the "
          + "covariance of the features (in the units standardization sets) over its mean "
          + "variance: 1 is Eq. 12's WᵀW = I, towards 0 the paper's GᵀG = I for G = XᵀW");
  /**
   * How features are scored; the default, loadings, departs from the paper's row norms of W
   * (class comment, choice (4)).
   */
  public static final ParamSpec<Score> SCORE = ParamSpec.choice("score", Score.LOADINGS,
      "Eq. 12", "how a feature is scored from W: weights (||w_j||, the paper's row norms) or "
          + "loadings (the norm of feature j's covariance with the columns of G = XᵀW, in the "
          + "units standardization sets)");
  /** UDFS's params. */
  public static final List<ParamSpec<?>> PARAMS = List.of(CommonOptions.NUM_CLUSTERS,
      CommonOptions.NUM_NEIGHBORS, CommonOptions.KNN_ALGORITHM, CommonOptions.MAX_ITER,
      CommonOptions.TOL, CommonOptions.SEED, CommonOptions.FEATURE_SCALING, GAMMA, LAMBDA,
      STANDARDIZATION, SHRINKAGE, SCORE);

  /**
   * Eigenvalues of the centred samples' scatter at or below d·ε (ε the machine epsilon) times
   * the largest are rounding, not data: their eigenvectors are left out of the span (the
   * numerical rank of a symmetric matrix, as LAPACK-based rank tests define it).
   */
  private static final double EPSILON = Math.ulp(1.0);

  private final CommonOptions common;
  private final double gamma;
  private final double lambda;
  private final boolean standardization;
  private final double shrinkage;
  private final Score score;

  /** @param options values of {@link #PARAMS} */
  public UdfsSolver(MethodOptions options) {
    this.common = options.common();
    this.gamma = options.get(GAMMA);
    this.lambda = options.get(LAMBDA);
    this.standardization = options.get(STANDARDIZATION);
    this.shrinkage = options.get(SHRINKAGE);
    this.score = options.get(SCORE);
  }

  @Override
  public SelectionResult fit(RowBlockMatrix x) {
    int d = x.numCols();
    int c = common.numClusters();
    if (c > d) {
      throw new IllegalArgumentException("numClusters = " + c + " exceeds the number of features "
          + d + ": W has c orthonormal columns");
    }
    ColumnStatistics stats = x.columnStatistics();
    double[] scale = stats.scales(standardization);
    SparseRowMatrix a;
    try (ResourceScope scope = new ResourceScope()) {
      a = localScatterWeights(x, common.scaledSamples(x, scope), common.numNeighbors(), lambda,
          common.knnSearch());
    }
    x.execution().describe("UDFS: span of the centred samples");
    Reduced reduced = onSampleSide(x.numRows(), x.numCols())
        ? sampleSide(x, a, scale, shrinkage, d - stats.numConstant())
        : featureSide(x, a, scale, shrinkage, d - stats.numConstant());
    DenseMatrix basis = reduced.basis();
    int r = basis.cols();
    if (r < c) {
      throw new IllegalArgumentException("the centred samples span " + r + " dimensions, fewer "
          + "than numClusters = " + c + ": W has c independent columns in that span");
    }
    double[] weights = new double[d];
    Arrays.fill(weights, 1.0);
    IterativeFit loop = new IterativeFit("UDFS", common);
    DenseMatrix w = null;
    DenseMatrix v = null;
    SymmetricEigen.IteratedSmallest eigen = new SymmetricEigen.IteratedSmallest(c);
    while (loop.next()) {
      v = eigen.next(reduced.scatter().copy().addInPlace(1.0,
          projectedDiagonal(basis, weights, gamma))).vectors();
      w = basis.multiply(v);
      // Tr(WᵀMW) = Tr(Vᵀ (PᵀMP) V) for W = P V.
      double objective = reduced.scatter().multiply(v).dot(v)
          + gamma * RowSparsityWeights.smoothedL21Norm(w, RowSparsityWeights.DEFAULT_EPSILON);
      weights = RowSparsityWeights.l21(w, RowSparsityWeights.DEFAULT_EPSILON);
      loop.record(objective);
    }
    IterativeFit.Result history = loop.result();
    DenseMatrix scored = score == Score.WEIGHTS ? w : reduced.scatterTimesBasis().multiply(v);
    double[] norms = DoubleArrays.sqrt(scored.rowNormsSquared());
    Map<String, Double> summary = new LinkedHashMap<>();
    summary.put("scatterTrace", reduced.scatterTrace());
    summary.put("standardization", standardization ? 1.0 : 0.0);
    summary.put("shrinkage", shrinkage);
    summary.put("loadings", score == Score.LOADINGS ? 1.0 : 0.0);
    summary.put("spanDimension", (double) r);
    return new SelectionResult(norms, true, history.iterations(), history.converged(),
        history.objectives(), summary);
  }

  /** {@code Pᵀ (γ diag(weights)) P} for the basis P (d × r). */
  private static DenseMatrix projectedDiagonal(DenseMatrix basis, double[] weights, double gamma) {
    int d = basis.rows();
    DenseMatrix weighted = basis.copy();
    for (int j = 0; j < basis.cols(); j++) {
      for (int i = 0; i < d; i++) {
        weighted.data()[j * d + i] *= Math.sqrt(gamma * weights[i]);
      }
    }
    return weighted.transposeMultiply(weighted);
  }

  /** {@code S a S} for S the diagonal of {@code scale}, in place. */
  private static DenseMatrix congruence(DenseMatrix a, double[] scale) {
    int d = scale.length;
    for (int i = 0; i < d; i++) {
      for (int j = 0; j < d; j++) {
        a.data()[j * d + i] *= scale[i] * scale[j];
      }
    }
    return a;
  }

  /**
   * Eq. 12 restricted to the span of the centred samples: the basis P (d × r), {@code PᵀMP}
   * (r × r), {@code Tr(M)} and the eigenvalues of the centred samples' scatter C belonging to
   * P's columns (each column of P is an eigenvector of C), M and C in the units of
   * {@code standardization}.
   */
  record Reduced(DenseMatrix basis, DenseMatrix scatter, double scatterTrace,
      double[] spanValues) {

    /** {@code C P}: P's columns scaled by their eigenvalues of C (d × r). */
    DenseMatrix scatterTimesBasis() {
      return new DenseMatrix(basis.rows(), basis.cols())
          .addScaledColumnsInPlace(basis, spanValues);
    }
  }

  /**
   * {@link Reduced} from d × d matrices, for d ≤ n: M (Eq. 11) and the centred samples' scatter
   * C, whose eigenvectors span the samples.
   */
  static Reduced featureSide(RowBlockMatrix x, SparseRowMatrix a, double[] scale,
      double shrinkage, int nonConstant) {
    x.requireGramMemory();
    DenseMatrix m = congruence(scatter(x, a), scale);
    DenseMatrix c;
    try (RowBlockMatrix centred = x.centered()) {
      c = congruence(centred.gram(), scale);
    }
    SymmetricEigen span = SymmetricEigen.largest(c, c.rows());
    int r = rank(span.values(), x.numCols());
    DenseMatrix p = span.vectors().columns(0, r);
    scaleBasis(p, span.values(), c.trace() / Math.max(nonConstant, 1), shrinkage);
    return new Reduced(p, p.transposeMultiply(m.multiply(p)), m.trace(),
        Arrays.copyOf(span.values(), r));
  }

  /**
   * {@link Reduced} from n × n matrices, for d > n, where the samples span at most n − 1
   * dimensions: with {@code Y = S X} (S the scales) and the centred kernel
   * {@code K = H YᵀY H = V Λ Vᵀ}, the scatter's eigenvectors are {@code Y H V Λ^{-1/2}} with
   * the same eigenvalues, so {@code P = Y H T} for an n × r matrix T, and
   * {@code PᵀMP = (Tᵀ H YᵀY) A (YᵀY H T)} for the sparse A of {@link #localScatterWeights}.
   * Nothing of size d × d is formed: one pass for {@code YᵀY}, one for P.
   */
  static Reduced sampleSide(RowBlockMatrix x, SparseRowMatrix a, double[] scale,
      double shrinkage, int nonConstant) {
    int n = x.numRows();
    int d = x.numCols();
    double[] squares = new double[d];
    for (int j = 0; j < d; j++) {
      squares[j] = scale[j] * scale[j];
    }
    DenseMatrix gram = x.sampleGram(squares);
    DenseMatrix kernel = doubleCentred(gram);
    SymmetricEigen span = SymmetricEigen.largest(kernel, n);
    double[] values = span.values();
    int rank = rank(values, d);
    DenseMatrix t = span.vectors().columns(0, rank);
    for (int k = 0; k < t.cols(); k++) {
      for (int i = 0; i < n; i++) {
        t.data()[k * n + i] /= Math.sqrt(values[k]);
      }
    }
    scaleBasis(t, values, kernel.trace() / Math.max(nonConstant, 1), shrinkage);
    centreColumns(t); // H T: V's columns are orthogonal to 1 up to rounding
    DenseMatrix p;
    try (Shared<DenseMatrix> ts = x.execution().share(t.transpose())) {
      p = x.multiply(ts);
    }
    for (int k = 0; k < p.cols(); k++) {
      for (int j = 0; j < d; j++) {
        p.data()[k * d + j] *= scale[j];
      }
    }
    DenseMatrix z = t.transposeMultiply(gram); // Pᵀ Y, r × n
    DenseMatrix reduced = a.multiply(z).multiplyTranspose(z);
    reduced.addInPlace(1.0, reduced.transpose()).scaleInPlace(0.5);
    double trace = 0;
    for (int i = 0; i < n; i++) {
      int[] cols = a.columns(i);
      double[] vals = a.values(i);
      for (int e = 0; e < cols.length; e++) {
        trace += vals[e] * gram.get(cols[e], i);
      }
    }
    return new Reduced(p, reduced, trace, Arrays.copyOf(values, rank));
  }

  /**
   * The numerical rank of a symmetric positive semi-definite matrix over d features from its
   * descending eigenvalues: those above {@code d·ε} times the largest.
   */
  private static int rank(double[] descending, int d) {
    int r = 0;
    while (r < descending.length && descending[r] > d * EPSILON * descending[0]) {
      r++;
    }
    return r;
  }

  /**
   * Scales the r columns of {@code basis} so that the basis meets
   * {@code Pᵀ((1 − η) C̄ + η I)P = I}: column k by {@code 1 / sqrt((1 − η) λ_k / v̄ + η)}, C̄
   * the scatter divided by its mean diagonal v̄ over the non-constant features and λ_k its
   * eigenvalues.
   */
  private static void scaleBasis(DenseMatrix basis, double[] values, double meanVariance,
      double shrinkage) {
    int rows = basis.rows();
    for (int k = 0; k < basis.cols(); k++) {
      double f = 1 / Math.sqrt((1 - shrinkage) * values[k] / meanVariance + shrinkage);
      for (int i = 0; i < rows; i++) {
        basis.data()[k * rows + i] *= f;
      }
    }
  }

  /** {@code H a H} for a symmetric n × n matrix a, H the centring matrix. */
  private static DenseMatrix doubleCentred(DenseMatrix a) {
    return new DenseMatrix(a.rows(), a.cols(), centre(a.data(), a.rows()));
  }

  /** Subtracts from each column its mean ({@code H a}), in place. */
  private static void centreColumns(DenseMatrix a) {
    int n = a.rows();
    for (int k = 0; k < a.cols(); k++) {
      double mean = 0;
      for (int i = 0; i < n; i++) {
        mean += a.data()[k * n + i] / n;
      }
      for (int i = 0; i < n; i++) {
        a.data()[k * n + i] -= mean;
      }
    }
  }

  /**
   * {@code A = Σ_i S_i T_i S_iᵀ} (n × n, sparse, symmetric), the sample-side weights of the local
   * discriminative scatter {@code M = X A Xᵀ} (Eq. 11), built by the first two passes of the
   * class comment; each sample's local set is itself and its k nearest neighbours in
   * {@code geometry} (the samples x, or x in other units).
   */
  static SparseRowMatrix localScatterWeights(RowBlockMatrix x, RowBlockMatrix geometry, int k,
      double lambda, KnnSearch knn) {
    int n = x.numRows();
    int d = x.numCols();
    int size = k + 1;
    Execution ex = x.execution();
    List<NeighborLists> lists = knn.searchAll(geometry, k);
    int[] sets = new int[n * size];
    for (NeighborLists l : lists) {
      for (int i = 0; i < l.numRows(); i++) {
        int row = l.offset() + i;
        sets[row * size] = row;
        for (int r = 0; r < k; r++) {
          sets[row * size + 1 + r] = l.index(i, r);
        }
      }
    }
    List<double[]> terms;
    try (ResourceScope scope = new ResourceScope()) {
      Shared<int[]> sharedSets = scope.keep(ex.share(sets));
      ex.describe("UDFS: local sets");
      Partitioned<DenseMatrix> gathered = scope.keep(x.blocks().crossMerge((a, b) -> {
        int[] s = sharedSets.get();
        DenseMatrix out = new DenseMatrix(d, size * a.numRows());
        int lo = b.offset();
        int hi = lo + b.numRows();
        for (int i = 0; i < a.numRows(); i++) {
          for (int r = 0; r < size; r++) {
            int p = s[(a.offset() + i) * size + r];
            if (p >= lo && p < hi) {
              System.arraycopy(b.columns().data(), (p - lo) * d, out.data(), (i * size + r) * d,
                  d);
            }
          }
        }
        return out;
      }, DenseMatrix::accumulate));
      ex.describe("UDFS: local discriminative terms");
      terms = gathered.collect(g -> localTerms(g, size, lambda));
    }
    return assemble(terms, sets, n, size);
  }

  /**
   * The local discriminative scatter {@code M = X A Xᵀ} of Eq. 11 (d × d, symmetric) for the
   * weights A of {@link #localScatterWeights}: the third pass of the class comment.
   */
  static DenseMatrix scatter(RowBlockMatrix x, SparseRowMatrix a) {
    int d = x.numCols();
    Execution ex = x.execution();
    DenseMatrix m;
    try (ResourceScope scope = new ResourceScope()) {
      Shared<SparseRowMatrix> sharedA = scope.keep(ex.share(a));
      ex.describe("UDFS: X A");
      Partitioned<DenseMatrix> z = scope.keep(x.blocks().crossMerge((p, q) -> {
        SparseRowMatrix am = sharedA.get();
        DenseMatrix out = new DenseMatrix(d, p.numRows());
        int lo = q.offset();
        int hi = lo + q.numRows();
        double[] src = q.columns().data();
        for (int i = 0; i < p.numRows(); i++) {
          int[] cols = am.columns(p.offset() + i);
          double[] vals = am.values(p.offset() + i);
          for (int t = 0; t < cols.length; t++) {
            if (cols[t] >= lo && cols[t] < hi) {
              int base = (cols[t] - lo) * d;
              for (int j = 0; j < d; j++) {
                out.data()[i * d + j] += vals[t] * src[base + j];
              }
            }
          }
        }
        return out;
      }, DenseMatrix::accumulate));
      Partitioned<DenseMatrix> products = scope.keep(x.blocks().zip(z,
          (b, zb) -> b.columns().multiplyTranspose(zb)));
      m = products.aggregate(DenseMatrix::copy, DenseMatrix::accumulate);
    }
    for (int i = 0; i < d; i++) {
      for (int j = i + 1; j < d; j++) {
        double v = 0.5 * (m.get(i, j) + m.get(j, i));
        m.set(i, j, v);
        m.set(j, i, v);
      }
    }
    return m;
  }

  /**
   * {@code T_i = H (X̃_iᵀX̃_i + λI)^{-1} H} for each local set of a block, {@code X̃_i = X_i H}
   * its (k+1) gathered vectors centred on their mean: (k+1)² values per sample, row-major,
   * samples in block order. The inverse comes from the triangular factor of a QR decomposition
   * of {@code [X̃_i; √λ I]} ({@link #ridgeFactor}), never from the Gram matrix
   * {@code X̃_iᵀX̃_i}: forming the Gram squares the rounding of the data, which on a feature near
   * 1e9 (values up to 1e10, so Gram entries near 1e20 with rounding near 1e4) exceeds the
   * default λ = 1000 and leaves {@code X̃_iᵀX̃_i + λI} indefinite, while the QR's rounding is
   * relative to the data themselves.
   */
  static double[] localTerms(DenseMatrix gathered, int size, double lambda) {
    int d = gathered.rows();
    int samples = gathered.cols() / size;
    int rows = d + size;
    double[] out = new double[samples * size * size];
    double[] stacked = new double[rows * size];
    double[] v = gathered.data();
    double root = Math.sqrt(lambda);
    for (int i = 0; i < samples; i++) {
      int base = i * size * d;
      for (int j = 0; j < d; j++) {
        double mean = 0;
        for (int r = 0; r < size; r++) {
          mean += v[base + r * d + j];
        }
        mean /= size;
        for (int r = 0; r < size; r++) {
          stacked[r * rows + j] = v[base + r * d + j] - mean;
        }
      }
      for (int r = 0; r < size; r++) {
        Arrays.fill(stacked, r * rows + d, (r + 1) * rows, 0);
        stacked[r * rows + d + r] = root;
      }
      double[] t = centre(inverse(ridgeFactor(stacked, rows, size), size), size);
      System.arraycopy(t, 0, out, i * size * size, size * size);
    }
    return out;
  }

  /**
   * A triangular factor L (size × size, lower, row-major) with {@code L Lᵀ = AᵀA}, for the
   * column-major rows × size matrix {@code A = [X̃; √λ I]}, so that
   * {@code L Lᵀ = X̃ᵀX̃ + λI}: L = Rᵀ for R of A's Householder QR decomposition, computed in
   * place (A is overwritten). Householder QR is backward stable (Golub and Van Loan, Matrix
   * Computations, §5.2): R is the exact factor of a perturbation of A of the order of the
   * machine epsilon times ‖A‖, where forming {@code AᵀA} would perturb it by that times ‖A‖²;
   * and {@code RᵀR} is positive definite by construction, its diagonal the nonzero column norms.
   */
  private static double[] ridgeFactor(double[] a, int rows, int size) {
    double[] l = new double[size * size];
    for (int j = 0; j < size; j++) {
      int col = j * rows;
      double squares = 0;
      for (int i = j; i < rows; i++) {
        squares += a[col + i] * a[col + i];
      }
      double norm = Math.sqrt(squares);
      // Reflect a[j..rows)[j] onto alpha e_1, alpha of the opposite sign to a[j][j] (no
      // cancellation in v = x - alpha e_1); v overwrites x.
      double alpha = a[col + j] > 0 ? -norm : norm;
      a[col + j] -= alpha;
      double vv = 2 * norm * (norm + Math.abs(a[col + j] + alpha));
      for (int t = j + 1; t < size; t++) {
        int other = t * rows;
        double dot = 0;
        for (int i = j; i < rows; i++) {
          dot += a[col + i] * a[other + i];
        }
        double f = 2 * dot / vv;
        for (int i = j; i < rows; i++) {
          a[other + i] -= f * a[col + i];
        }
        l[t * size + j] = a[other + j];
      }
      l[j * size + j] = alpha;
    }
    return l;
  }

  /** {@code H a H} for a size × size matrix a, H the centring matrix. */
  private static double[] centre(double[] a, int size) {
    double[] rowMean = new double[size];
    double[] colMean = new double[size];
    double all = 0;
    for (int r = 0; r < size; r++) {
      for (int s = 0; s < size; s++) {
        double v = a[r * size + s];
        rowMean[r] += v / size;
        colMean[s] += v / size;
        all += v / (size * size);
      }
    }
    double[] out = new double[size * size];
    for (int r = 0; r < size; r++) {
      for (int s = 0; s < size; s++) {
        out[r * size + s] = a[r * size + s] - rowMean[r] - colMean[s] + all;
      }
    }
    return out;
  }

  /**
   * {@code (L Lᵀ)^{-1}} for a nonsingular lower triangular L (row-major), column by column
   * ({@link TriangularSolve#cholesky}).
   */
  private static double[] inverse(double[] l, int size) {
    double[] inv = new double[size * size];
    double[] col = new double[size];
    for (int e = 0; e < size; e++) {
      Arrays.fill(col, 0);
      col[e] = 1;
      TriangularSolve.cholesky(l, size, size, col);
      for (int i = 0; i < size; i++) {
        inv[i * size + e] = col[i];
      }
    }
    return inv;
  }

  /** {@code A = Σ_i S_i T_i S_iᵀ}: entry (p, q) sums T_i[r][s] over sets with p at r, q at s. */
  private static SparseRowMatrix assemble(List<double[]> terms, int[] sets, int n, int size) {
    int[] counts = new int[n];
    for (int p : sets) {
      counts[p] += size;
    }
    int[][] idx = new int[n][];
    double[][] val = new double[n][];
    for (int p = 0; p < n; p++) {
      idx[p] = new int[counts[p]];
      val[p] = new double[counts[p]];
    }
    int[] fill = new int[n];
    int sample = 0;
    for (double[] block : terms) {
      for (int i = 0; i < block.length / (size * size); i++, sample++) {
        for (int r = 0; r < size; r++) {
          int p = sets[sample * size + r];
          for (int s = 0; s < size; s++) {
            idx[p][fill[p]] = sets[sample * size + s];
            val[p][fill[p]++] = block[i * size * size + r * size + s];
          }
        }
      }
    }
    return SparseRowMatrix.fromRows(0, n, idx, val);
  }

  @Override
  public String denseInputReason() {
    return "needs the dense d x d scatter M of its local sets (Eq. 10-11)";
  }

  @Override
  public boolean isScaleFree() {
    return true;
  }

  @Override
  public DriverMemory.Need driverNeed(int n, int d) {
    return onSampleSide(n, d) ? RowBlockMatrix.sampleGramNeed(n) : RowBlockMatrix.gramNeed(d);
  }

  /** Whether Eq. 12 is solved from the n × n kernel ({@link #sampleSide}): when d > n. */
  private static boolean onSampleSide(int n, int d) {
    return d > n;
  }
}
