package io.github.sparkufs.ml;

import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.UdfsSolver;
import org.apache.spark.ml.util.Identifiable;

/**
 * UDFS (Yang, Shen, Ma, Huang and Zhou, "ℓ2,1-norm regularized discriminative feature selection
 * for unsupervised learning", IJCAI 2011): minimises
 * {@code Tr(WᵀMW) + γ||W||₂,₁} over W (d × c, Eq. 12) with {@code Wᵀ((1 − η) C + η I)W = I}
 * (C the features' covariance; {@code shrinkage} η = 1 is the paper's orthonormal W), M the local
 * discriminative scatter of each sample's set of itself and its k nearest neighbours (Eq. 10–11) with ridge λ;
 * features score {@code ||w_i||₂}, larger is better. CLI name {@code udfs}.
 */
public final class UdfsSelector extends UdfsSelectorParams {

  private static final long serialVersionUID = 1L;

  public UdfsSelector() {
    this(Identifiable.randomUID("udfsSelector"));
  }

  public UdfsSelector(String uid) {
    super(uid, UdfsSolver.PARAMS);
  }

  @Override
  public String methodName() {
    return "udfs";
  }

  @Override
  protected void checkShape(int n, int d) {
    if (getNumClusters() > d) {
      throw new IllegalArgumentException("numClusters = " + getNumClusters() + " exceeds the "
          + "number of features " + d + ": W has numClusters orthonormal columns");
    }
  }

  @Override
  protected FeatureSelectionSolver createSolver(MethodOptions options) {
    return new UdfsSolver(options);
  }
}
