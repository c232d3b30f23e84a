package io.github.sparkufs.ml;

import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.UfcmSolver;
import org.apache.spark.ml.util.Identifiable;

/**
 * UFCM, unsupervised feature selection by class margin optimisation (Wang, Nie, Chang, Yao, Li
 * and Sheng, ECML PKDD 2015): maximises Eq. 6,
 * {@code Tr(Wᵀ S_t W) − α||WᵀX − G Uᵀ||² − β||W||₂,p} with WᵀW = I, embedding k-means (U, G)
 * in a d'-dimensional projection W of the centred data; features score {@code ||w_i||₂}. The
 * first public implementation of the method. CLI name {@code ufcm}.
 */
public final class UfcmSelector extends UfcmSelectorParams {

  private static final long serialVersionUID = 1L;

  public UfcmSelector() {
    this(Identifiable.randomUID("ufcmSelector"));
  }

  public UfcmSelector(String uid) {
    super(uid, UfcmSolver.PARAMS);
  }

  @Override
  public String methodName() {
    return "ufcm";
  }

  @Override
  protected FeatureSelectionSolver createSolver(MethodOptions options) {
    return new UfcmSolver(options);
  }
}
