package io.github.sparkufs.linalg;

import org.netlib.util.intW;

/**
 * A few eigenpairs of a dense symmetric n × n matrix: the library's one entry point for dense
 * eigenproblems ({@link #smallest} and {@link #largest}), which picks the solver by size. (An
 * operator that is never dense, such as a graph Laplacian over the samples, goes to the
 * iterative {@link Lobpcg} directly, the library's one solver for those.)
 *
 * <ul>
 *   <li>Full: LAPACK {@code dsyevr} (relatively robust representations, only the requested
 *       index range computed). Its reduction to tridiagonal form costs about (4/3) n³ flops
 *       whatever k is.
 *   <li>Partial: {@link Lobpcg} on the matrix as an operator, with a block of
 *       m = k + {@value #PARTIAL_EXTRA} vectors: about 2 n² m flops per iteration, so it pays
 *       only while it converges in fewer than (2/3) n / m iterations.
 * </ul>
 *
 * <p>The rule: full when {@code n ≤ }{@value #FULL_MAX_DIM} (the full solver takes under a
 * second there) or {@code k > n / }{@value #PARTIAL_MAX_SHARE} (many pairs: the block
 * iteration's break-even count of iterations falls below ~70); partial otherwise. The partial
 * solver gets half its break-even count, {@code n / (3m)} iterations, and a residual tolerance
 * of {@value #PARTIAL_TOL} relative to a bound of the spectrum (eigenvalue errors are about the
 * residual squared over the gap); when it does not converge within them the full solver
 * answers, so the answer is never less accurate. Measured with native BLAS, 5 largest pairs:
 * on a covariance-like spectrum (40 decaying directions) partial 0.13 s against full 0.58 s at
 * n = 2001 and 0.28 s against 5.2 s at n = 4000; on a Gaussian random symmetric matrix, whose
 * extreme eigenvalues crowd, partial fails and falls back at n = 2001 (1.2 s against 0.54 s)
 * and converges at n = 4000 (4.1 s against 4.9 s).
 */
public final class SymmetricEigen {

  /** The largest dimension the full solver always takes. */
  static final int FULL_MAX_DIM = 2000;
  /** Above n / PARTIAL_MAX_SHARE wanted pairs the full solver takes any dimension. */
  static final int PARTIAL_MAX_SHARE = 100;
  /** Vectors the partial solver iterates beyond the wanted ones (they speed the last ones). */
  static final int PARTIAL_EXTRA = 5;
  /** The partial solver's residual tolerance, relative to the largest absolute row sum. */
  static final double PARTIAL_TOL = 1e-10;

  /** Which solver answered. */
  enum Solver { FULL, PARTIAL }

  private final double[] values;
  private final DenseMatrix vectors;
  private final Solver solver;
  private final int products;

  private SymmetricEigen(double[] values, DenseMatrix vectors, Solver solver, int products) {
    this.values = values;
    this.vectors = vectors;
    this.solver = solver;
    this.products = products;
  }

  /** Eigenvalues, in the order of {@link #vectors()}' columns. */
  public double[] values() {
    return values;
  }

  /** Unit-norm eigenvectors, one per column. */
  public DenseMatrix vectors() {
    return vectors;
  }

  Solver solver() {
    return solver;
  }

  /** The partial solver's block products with the matrix (0 for the full solver). */
  int products() {
    return products;
  }

  /** Whether the rule gives k eigenpairs of an n × n matrix to the full solver. */
  static boolean usesFullSolver(int n, int k) {
    return n <= FULL_MAX_DIM || k > n / PARTIAL_MAX_SHARE;
  }

  /** The {@code k} smallest eigenpairs of symmetric {@code a}, ascending. */
  public static SymmetricEigen smallest(DenseMatrix a, int k) {
    return solve(a, k, false, null);
  }

  /**
   * As {@link #smallest(DenseMatrix, int)}, the partial solver (when the rule picks it) starting
   * from the columns of {@code start} (n × k or fewer), such as the eigenvectors of the previous
   * iteration's matrix: an iterative method whose matrix changes little per iteration then
   * needs a few block products instead of a full decomposition.
   */
  public static SymmetricEigen smallest(DenseMatrix a, int k, DenseMatrix start) {
    return solve(a, k, false, start);
  }

  /** The {@code k} largest eigenpairs of symmetric {@code a}, descending. */
  public static SymmetricEigen largest(DenseMatrix a, int k) {
    return solve(a, k, true, null);
  }

  /** As {@link #largest(DenseMatrix, int)}, warm-started as {@link #smallest(DenseMatrix, int,
   * DenseMatrix)} is. */
  public static SymmetricEigen largest(DenseMatrix a, int k, DenseMatrix start) {
    return solve(a, k, true, start);
  }

  /**
   * The k smallest eigenpairs of an iterative method's matrices, one per iteration, each close
   * to the one before (UDFS's, whose ℓ2,1 reweighting changes only a diagonal term). Where the
   * rule picks the partial solver, it starts from the previous iteration's vectors. Once it has
   * not converged within its budget, the smallest eigenvalues crowd against the spread of the
   * spectrum, as they will in the next, nearby matrices: later iterations go to the full solver
   * at once instead of spending that budget again (on generated 6,000 × 3,000 UDFS data the
   * failed attempt took as long as the full solve, 2.0 s of a 5.4 s iteration).
   */
  public static final class IteratedSmallest {
    private final int k;
    private DenseMatrix previous;
    private boolean partialFailed;
    private int partialAttempts;

    /** @param k how many of the smallest eigenpairs each iteration needs */
    public IteratedSmallest(int k) {
      this.k = k;
    }

    /** The k smallest eigenpairs of this iteration's symmetric matrix, ascending. */
    public SymmetricEigen next(DenseMatrix a) {
      if (partialFailed) {
        return full(a, k, false);
      }
      SymmetricEigen eig = smallest(a, k, previous);
      if (!usesFullSolver(a.rows(), k)) {
        partialAttempts++;
        partialFailed = eig.solver == Solver.FULL;
      }
      previous = eig.vectors;
      return eig;
    }

    /** Iterations that gave the partial solver a try. */
    int partialAttempts() {
      return partialAttempts;
    }
  }

  private static SymmetricEigen solve(DenseMatrix a, int k, boolean largest, DenseMatrix start) {
    int n = a.rows();
    if (a.cols() != n) {
      throw new IllegalArgumentException("eigen-decomposition needs a square matrix, got " + a.shape());
    }
    if (k < 1 || k > n) {
      throw new IllegalArgumentException("asked for " + k + " eigenpairs of a " + n + " x " + n
          + " matrix");
    }
    if (start != null && (start.rows() != n || start.cols() > k)) {
      throw new IllegalArgumentException("start vectors " + start.shape() + " for " + k
          + " eigenpairs of a " + n + " x " + n + " matrix");
    }
    if (!usesFullSolver(n, k)) {
      SymmetricEigen partial = partial(a, k, largest, start);
      if (partial != null) {
        return partial;
      }
    }
    return full(a, k, largest);
  }

  /** The k smallest (ascending) or largest (descending) eigenpairs by the full solver. */
  static SymmetricEigen full(DenseMatrix a, int k, boolean largest) {
    int n = a.rows();
    return largest ? range(a, n - k + 1, n, true) : range(a, 1, k, false);
  }

  /**
   * The {@code k} smallest eigenpairs, ascending, of a symmetric n × n operator known by its
   * products, for matrices whose structure (low rank plus sparse plus diagonal) makes a product
   * much cheaper than the dense one: by the partial solver from the columns of {@code start}
   * whenever {@code k ≤ n / }{@value #PARTIAL_MAX_SHARE}, otherwise, or when it does not
   * converge, by the full solver on the operator's dense form (one product with the n × n
   * identity).
   *
   * @param bound a bound on the eigenvalues' magnitude (Gershgorin's, say), the unit of the
   *     partial solver's residual tolerance
   */
  public static SymmetricEigen smallest(BlockOperator op, int n, int k, double bound,
      DenseMatrix start) {
    if (k < 1 || k > n) {
      throw new IllegalArgumentException("asked for " + k + " eigenpairs of a " + n + " x " + n
          + " operator");
    }
    // A product costs far less than the dense one, so the partial solver pays at any dimension
    // (the rule's FULL_MAX_DIM is a break-even point for dense products).
    if (k <= n / PARTIAL_MAX_SHARE && bound > 0 && !Double.isInfinite(bound)) {
      SymmetricEigen partial = partial(op, n, k, bound, false, start);
      if (partial != null) {
        return partial;
      }
    }
    DriverMemory.require("the dense form of an n x n operator (n = " + n + ")", n, n);
    return full(op.apply(DenseMatrix.identity(n)), k, false);
  }

  /**
   * The k smallest eigenpairs of {@code ±a} (minus for the largest of a) by {@link Lobpcg} from
   * the columns of {@code start} (random vectors when null), or null when it does not converge
   * within its budget.
   */
  private static SymmetricEigen partial(DenseMatrix a, int k, boolean largest,
      DenseMatrix start) {
    double bound = a.maxAbsColumnSum();
    if (!(bound > 0) || Double.isInfinite(bound)) {
      return null;
    }
    return partial(v -> v.multiply(a), a.rows(), k, bound, largest, start);
  }

  /** As {@link #partial(DenseMatrix, int, boolean, DenseMatrix)} for an operator. */
  private static SymmetricEigen partial(BlockOperator op, int n, int k, double bound,
      boolean largest, DenseMatrix start) {
    double sign = largest ? -1.0 : 1.0;
    int block = k + PARTIAL_EXTRA;
    SmallestEigenpairs eig = new Lobpcg(k, block, PARTIAL_TOL, Math.max(1, n / (3 * block)))
        .smallest(v -> op.apply(v).scaleInPlace(sign), n, null, bound, null,
            start == null ? null : start.transpose(), 0L);
    if (!eig.converged()) {
      return null;
    }
    double[] values = eig.values();
    for (int j = 0; j < k; j++) {
      values[j] *= sign;
    }
    return new SymmetricEigen(values, eig.vectors().transpose(), Solver.PARTIAL,
        eig.products());
  }

  private static SymmetricEigen range(DenseMatrix a, int il, int iu, boolean descending) {
    int n = a.rows();
    int k = iu - il + 1;
    double[] work = a.data().clone();
    double[] w = new double[n];
    double[] z = new double[n * k];
    int[] isuppz = new int[2 * n];
    intW m = new intW(0);
    intW info = new intW(0);
    double[] workQuery = new double[1];
    int[] iworkQuery = new int[1];
    LinalgBackend.lapack().dsyevr("V", "I", "U", n, work, n, 0.0, 0.0, il, iu, 0.0, m, w, z,
        n, isuppz, workQuery, -1, iworkQuery, -1, info);
    int lwork = Math.max(1, (int) workQuery[0]);
    int liwork = Math.max(1, iworkQuery[0]);
    LinalgBackend.lapack().dsyevr("V", "I", "U", n, work, n, 0.0, 0.0, il, iu, 0.0, m, w, z,
        n, isuppz, new double[lwork], lwork, new int[liwork], liwork, info);
    if (info.val != 0 || m.val != k) {
      throw new ArithmeticException("dsyevr failed (info = " + info.val + ", found " + m.val
          + " of " + k + " eigenvalues)");
    }
    double[] values = new double[k];
    DenseMatrix vectors = new DenseMatrix(n, k);
    for (int j = 0; j < k; j++) {
      int src = descending ? k - 1 - j : j;
      values[j] = w[src];
      System.arraycopy(z, src * n, vectors.data(), j * n, n);
    }
    return new SymmetricEigen(values, vectors, Solver.FULL, 0);
  }
}
