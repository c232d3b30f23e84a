package io.github.sparkufs.ml;

import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.McfsSolver;
import org.apache.spark.ml.util.Identifiable;

/**
 * MCFS, multi-cluster feature selection (Cai, Zhang and He, "Unsupervised feature selection for
 * multi-cluster data", KDD 2010): the c smallest non-trivial eigenvectors of the
 * heat-kernel kNN graph (Eq. 2), one LARS regression of each on the features with
 * {@code numNonZeros} non-zero coefficients (Eq. 4), and feature j scored
 * {@code max_k |a_{k,j}|} (Eq. 5), larger is better. CLI name {@code mcfs}.
 */
public final class McfsSelector extends McfsSelectorParams {

  private static final long serialVersionUID = 1L;

  public McfsSelector() {
    this(Identifiable.randomUID("mcfsSelector"));
  }

  public McfsSelector(String uid) {
    super(uid, McfsSolver.PARAMS);
  }

  @Override
  public String methodName() {
    return "mcfs";
  }

  @Override
  protected void checkShape(int n, int d) {
    if (n < getNumClusters() + 2) {
      throw new IllegalArgumentException("numClusters = " + getNumClusters() + " needs at least "
          + (getNumClusters() + 2) + " rows for its non-trivial eigenvectors, got " + n);
    }
  }

  @Override
  protected FeatureSelectionSolver createSolver(MethodOptions options) {
    return new McfsSolver(options);
  }
}
