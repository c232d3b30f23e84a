package io.github.sparkufs.linalg;

/**
 * The diagonal reweighting that turns the row-sparsity norms into weighted ridge problems
 * (NDFS paper, Eq. 12 and footnote 1; UFCM paper, Eq. 7): for ℓ2,1,
 * {@code D_ii = 1 / (2 sqrt(||w_i||² + ε))}; for ℓ2,p,
 * {@code D_ii = p / (2 (||w_i||² + ε)^{(2 − p)/2})}. ε keeps every weight finite.
 */
public final class RowSparsityWeights {

  /** The default ε, the NDFS paper's "very small constant" of footnote 1. */
  public static final double DEFAULT_EPSILON = 1e-8;

  private RowSparsityWeights() {}

  /** ℓ2,1 weights of the rows of {@code w}. */
  public static double[] l21(DenseMatrix w, double epsilon) {
    return l2p(w, 1.0, epsilon);
  }

  /** ℓ2,p weights of the rows of {@code w}, {@code 0 < p ≤ 2}. */
  public static double[] l2p(DenseMatrix w, double p, double epsilon) {
    if (!(p > 0 && p <= 2)) {
      throw new IllegalArgumentException("p must be in (0, 2], got " + p);
    }
    double[] norms = w.rowNormsSquared();
    double[] d = new double[norms.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = p / (2 * Math.pow(norms[i] + epsilon, (2 - p) / 2));
    }
    return d;
  }

  /**
   * {@code Σ_i sqrt(||w_i||² + ε)}: the ℓ2,1 norm as smoothed by the reweighting, the quantity
   * the reweighted iterations provably decrease.
   */
  public static double smoothedL21Norm(DenseMatrix w, double epsilon) {
    double s = 0;
    for (double v : w.rowNormsSquared()) {
      s += Math.sqrt(v + epsilon);
    }
    return s;
  }

  /** {@code ||w||_{2,1} = Σ_i ||w_i||}. */
  public static double l21Norm(DenseMatrix w) {
    double s = 0;
    for (double v : w.rowNormsSquared()) {
      s += Math.sqrt(v);
    }
    return s;
  }
}
