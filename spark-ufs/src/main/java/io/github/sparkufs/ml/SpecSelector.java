package io.github.sparkufs.ml;

import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.SpecSolver;
import org.apache.spark.ml.util.Identifiable;

/**
 * SPEC, spectral feature selection (Zhao and Liu, "Spectral feature selection for supervised
 * and unsupervised learning", ICML 2007): features scored by their alignment with the
 * spectrum of the normalised Laplacian of the heat-kernel kNN graph. {@code scoreType} picks
 * the paper's φ1 (Eq. 5, smaller is better), φ2 (Eq. 6, smaller is better; equal to the
 * Laplacian Score) or φ3 (Eq. 7, the c leading non-trivial eigenpairs, larger is better);
 * {@link io.github.sparkufs.ml.UnsupervisedSelectorModel#isLargerBetter()} reports the
 * direction. The default is φ1, the best of the three on COIL20 (README). numClusters is
 * needed by φ3 only. CLI name {@code spec}.
 */
public final class SpecSelector extends SpecSelectorParams {

  private static final long serialVersionUID = 1L;

  public SpecSelector() {
    this(Identifiable.randomUID("specSelector"));
  }

  public SpecSelector(String uid) {
    super(uid, SpecSolver.PARAMS);
  }

  @Override
  public String methodName() {
    return "spec";
  }

  /** φ3 reads numClusters; φ1 and φ2 do not. */
  @Override
  protected boolean requiresNumClusters() {
    return getScoreType() == 3;
  }

  @Override
  protected void checkShape(int n, int d) {
    if (getScoreType() == 3 && n < getNumClusters() + 2) {
      throw new IllegalArgumentException("numClusters = " + getNumClusters() + " needs at least "
          + (getNumClusters() + 2) + " rows for its non-trivial eigenvectors, got " + n);
    }
  }

  @Override
  protected FeatureSelectionSolver createSolver(MethodOptions options) {
    return new SpecSolver(options);
  }
}
