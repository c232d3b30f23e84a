package io.github.sparkufs.linalg;

/**
 * The units in which an ℓ2,1-regularised regression {@code min ||XᵀW − T||² + β||W||₂,₁} weighs
 * the features: as given, or each in units of its standard deviation σ_i (a step the papers do
 * not have; {@code standardization}). In standard units the penalty charges every feature the
 * same for the same contribution to XᵀW; in raw units a feature of small spread needs a large
 * weight row, so it is penalised more and, scored by its row norm, ranked higher.
 *
 * <p>The standardised problem is solved in raw units: with {@code S = diag(σ)} and
 * {@code W̃ = S W} (the weights of the standardised features), {@code ||W̃||₂,₁ = Σ σ_i ||w_i||},
 * and the reweighted ridge {@code (XXᵀ + β D)} of the iteratively reweighted ℓ2,1 solvers
 * (NDFS paper, Eq. 12) has {@code D_ii = σ_i² D̃_ii}, D̃ the usual weights of W̃. Scores are the
 * row norms of W̃: a feature's contribution to XᵀW, unchanged when the feature is rescaled.
 * A constant feature keeps σ = 1 (it spans no direction; its score is not used).
 */
public final class FeatureUnits {

  private final double[] sigma;

  private FeatureUnits(double[] sigma) {
    this.sigma = sigma;
  }

  /** Standard units when {@code standardization}, else the data's own. */
  public static FeatureUnits of(ColumnStatistics stats, boolean standardization) {
    double[] sigma = new double[stats.numCols()];
    for (int j = 0; j < sigma.length; j++) {
      sigma[j] = standardization && !stats.isConstant(j) ? Math.sqrt(stats.variance(j)) : 1;
    }
    return new FeatureUnits(sigma);
  }

  /** The ridge weights D of the first solve, D̃ = I: {@code σ_i²}. */
  public double[] initialWeights() {
    double[] d = new double[sigma.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = sigma[i] * sigma[i];
    }
    return d;
  }

  /** The next ridge weights {@code σ_i² D̃_ii}, D̃ the ℓ2,1 weights of W̃ ({@link RowSparsityWeights}). */
  public double[] l21Weights(DenseMatrix w, double epsilon) {
    double[] d = RowSparsityWeights.l21(standardized(w), epsilon);
    for (int i = 0; i < d.length; i++) {
      d[i] *= sigma[i] * sigma[i];
    }
    return d;
  }

  /** {@code W̃ = S W}: the weights of the features in these units (a copy). */
  public DenseMatrix standardized(DenseMatrix w) {
    DenseMatrix s = w.copy();
    for (int i = 0; i < w.rows(); i++) {
      for (int j = 0; j < w.cols(); j++) {
        s.set(i, j, w.get(i, j) * sigma[i]);
      }
    }
    return s;
  }

  /** The row norms of W̃, the features' scores. */
  public double[] scores(DenseMatrix w) {
    return DoubleArrays.sqrt(standardized(w).rowNormsSquared());
  }

  /** {@code tr(X̃X̃ᵀ) = Σ_i ||x_i||² / σ_i²}, the features' squared norms in these units. */
  public double squaredNorm(ColumnStatistics stats) {
    double s = 0;
    for (int j = 0; j < sigma.length; j++) {
      s += stats.sumOfSquares(j) / (sigma[j] * sigma[j]);
    }
    return s;
  }
}
