package io.github.sparkufs.ml;

import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.NdfsSolver;
import org.apache.spark.ml.util.Identifiable;

/**
 * NDFS, nonnegative discriminative feature selection (Li, Yang, Liu, Zhou and Lu, AAAI 2012): learns non-negative cluster indicators F by spectral clustering on the
 * heat-kernel kNN graph jointly with a row-sparse regression W from the features to F,
 * minimising Eq. 10, {@code Tr(FᵀLF) + α(||XᵀW − F||² + β||W||₂,₁) + γ/2 ||FᵀF − I||²};
 * features score {@code ||w_i||₂}. CLI name {@code ndfs}.
 */
public final class NdfsSelector extends NdfsSelectorParams {

  private static final long serialVersionUID = 1L;

  public NdfsSelector() {
    this(Identifiable.randomUID("ndfsSelector"));
  }

  public NdfsSelector(String uid) {
    super(uid, NdfsSolver.PARAMS);
  }

  @Override
  public String methodName() {
    return "ndfs";
  }

  @Override
  protected FeatureSelectionSolver createSolver(MethodOptions options) {
    return new NdfsSolver(options);
  }
}
