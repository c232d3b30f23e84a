package io.github.sparkufs.linalg;

/**
 * Solves the weighted ridge problem at the heart of the ℓ2,1 methods (NDFS Eq. 12, RSFS
 * Eq. 11, FSASL's W step): {@code W = (X Xᵀ + β D)^{-1} X B} for a diagonal {@code D > 0}
 * and a per-sample target {@code B} (n × k, passed as k × n).
 *
 * <p>When d ≤ n it solves the d × d system, with the Gram {@code X Xᵀ} computed once. When
 * d > n it uses the Woodbury identity instead (docs/design.md):
 * {@code (X Xᵀ + βD)^{-1} X B = D^{-1} X (βI + K)^{-1} B} with {@code K = Xᵀ D^{-1} X} (n × n),
 * so only a min(n, d)-sized system is ever factorised on the driver.
 *
 * <p>An instance keeps the Gram and, on the d × d side, one d × d work matrix that every solve
 * refills, so repeated solves with a changing D allocate no d × d array; it is not thread-safe.
 */
public final class RegularizedRegression {

  private final RowBlockMatrix x;
  private final boolean sampleSide;
  private DenseMatrix gram;
  private DenseMatrix work;

  /** Chooses the cheaper side automatically. */
  public RegularizedRegression(RowBlockMatrix x) {
    this(x, sampleSideCheaper(x.numRows(), x.numCols()));
  }

  /**
   * Chooses the cheaper side automatically, with the Gram {@code X Xᵀ} the caller already holds
   * (used on the d × d side; not copied, not modified), or null to compute it when needed.
   */
  public RegularizedRegression(RowBlockMatrix x, DenseMatrix gram) {
    this(x);
    this.gram = gram;
  }

  /** Whether the n × n system is the smaller one: with more features than samples. */
  private static boolean sampleSideCheaper(int n, int d) {
    return d > n;
  }

  /** The matrix the driver holds for n samples of d features on the side chosen by default. */
  public static DriverMemory.Need driverNeed(int n, int d) {
    return driverNeed(n, d, sampleSideCheaper(n, d));
  }

  /**
   * The matrix the driver holds for n samples of d features: the n × n kernel on the sample
   * side, else the d × d Gram.
   */
  public static DriverMemory.Need driverNeed(int n, int d, boolean sampleSide) {
    return sampleSide ? new DriverMemory.Need("the n x n kernel Xᵀ D⁻¹ X of the ridge solve (n = "
        + n + ")", n, n) : RowBlockMatrix.gramNeed(d);
  }

  /**
   * {@code sampleSide} forces the n × n (Woodbury) path; false forces the d × d path. The
   * matrix of the chosen side is announced to {@link DriverMemory} here, before any work.
   */
  public RegularizedRegression(RowBlockMatrix x, boolean sampleSide) {
    this.x = x;
    this.sampleSide = sampleSide;
    driverNeed(x.numRows(), x.numCols(), sampleSide).require();
  }

  /** Whether the n × n (Woodbury) system is solved. */
  public boolean usesSampleSide() {
    return sampleSide;
  }

  /** The d × d Gram {@code X Xᵀ}, computed on first use. */
  public DenseMatrix gram() {
    if (gram == null) {
      gram = x.gram();
    }
    return gram;
  }

  /**
   * {@code W = (X Xᵀ + β diag(d))^{-1} X B}.
   *
   * @param d the positive diagonal of D (length d)
   * @param beta the regularisation weight β ≥ 0
   * @param targets B as k × n, shared with the blocks
   * @return W, d × k
   */
  public DenseMatrix solve(double[] d, double beta, Shared<DenseMatrix> targets) {
    if (d.length != x.numCols()) {
      throw new IllegalArgumentException("D has " + d.length + " entries for " + x.numCols()
          + " features");
    }
    return sampleSide ? solveSampleSide(d, beta, targets) : solveFeatureSide(d, beta, targets);
  }

  private DenseMatrix solveFeatureSide(double[] d, double beta, Shared<DenseMatrix> targets) {
    return solveFeatureSide(d, beta, x.multiply(targets));
  }

  /**
   * {@code W = (X Xᵀ + β diag(d))^{-1} R} on the d × d side for a right-hand side
   * {@code R = X B} (d × k) the caller already has, for instance from a fused pass over the
   * blocks. Each call copies only the upper triangle of the Gram into one work matrix kept
   * between calls and factorises it there (Cholesky, {@code dposv}); LU is the fallback when the
   * system is not numerically positive definite. {@code rhs} is not modified.
   */
  public DenseMatrix solveFeatureSide(double[] d, double beta, DenseMatrix rhs) {
    int dim = x.numCols();
    if (d.length != dim) {
      throw new IllegalArgumentException("D has " + d.length + " entries for " + dim
          + " features");
    }
    if (rhs.rows() != dim) {
      throw new IllegalArgumentException("right-hand side " + rhs.shape() + " for " + dim
          + " features");
    }
    if (work == null) {
      work = new DenseMatrix(dim, dim);
    }
    double[] g = gram().data();
    double[] a = work.data();
    for (int j = 0; j < dim; j++) {
      System.arraycopy(g, j * dim, a, j * dim, j + 1);
      a[j * dim + j] += beta * d[j];
    }
    DenseMatrix w = rhs.copy();
    if (LinearSolve.solveSymmetricInPlace(work, w)) {
      return w;
    }
    DenseMatrix full = gram().copy();
    for (int j = 0; j < dim; j++) {
      full.data()[j * dim + j] += beta * d[j];
    }
    return LinearSolve.solve(full, rhs);
  }

  /**
   * The residual {@code ||XᵀW − B||²} of the solution W of this ridge at {@code (D, β)}, with no
   * pass over the samples: by the normal equations {@code (X Xᵀ + βD) W = X B},
   * {@code ||XᵀW − B||² = ||B||² − tr(Wᵀ X B) − β Σ_i D_ii ||w_i||²}.
   *
   * @param w the solution, d × k
   * @param rhs {@code X B}, d × k
   * @param d the diagonal of D the solution was found with
   * @param beta the β it was found with
   * @param targetSquaredNorm {@code ||B||²}
   */
  public static double residual(DenseMatrix w, DenseMatrix rhs, double[] d, double beta,
      double targetSquaredNorm) {
    double explained = 0;
    double penalty = 0;
    for (int i = 0; i < w.rows(); i++) {
      for (int k = 0; k < w.cols(); k++) {
        double wik = w.get(i, k);
        explained += wik * rhs.get(i, k);
        penalty += d[i] * wik * wik;
      }
    }
    return targetSquaredNorm - explained - beta * penalty;
  }

  private DenseMatrix solveSampleSide(double[] d, double beta, Shared<DenseMatrix> targets) {
    double[] dInv = new double[d.length];
    for (int i = 0; i < d.length; i++) {
      dInv[i] = 1.0 / d[i];
    }
    DenseMatrix k = x.sampleGram(dInv);
    k.addDiagonalInPlace(beta);
    DenseMatrix bt = targets.get();
    DenseMatrix y = LinearSolve.solveSymmetric(k, bt.transpose());
    Execution ex = x.execution();
    DenseMatrix w;
    try (Shared<DenseMatrix> yt = ex.share(y.transpose())) {
      w = x.multiply(yt);
    }
    double[] v = w.data();
    for (int j = 0; j < w.cols(); j++) {
      for (int i = 0; i < w.rows(); i++) {
        v[j * w.rows() + i] *= dInv[i];
      }
    }
    return w;
  }
}
