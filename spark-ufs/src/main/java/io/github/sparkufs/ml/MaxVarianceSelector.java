package io.github.sparkufs.ml;

import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.MaxVarianceSolver;
import org.apache.spark.ml.util.Identifiable;

/** Keeps the features of largest variance: the simplest baseline. CLI name {@code maxvar}. */
public final class MaxVarianceSelector extends MaxVarianceSelectorParams {

  private static final long serialVersionUID = 1L;

  public MaxVarianceSelector() {
    this(Identifiable.randomUID("maxVarianceSelector"));
  }

  public MaxVarianceSelector(String uid) {
    super(uid, MaxVarianceSolver.PARAMS);
  }

  @Override
  public String methodName() {
    return "maxvar";
  }

  @Override
  protected FeatureSelectionSolver createSolver(MethodOptions options) {
    return new MaxVarianceSolver();
  }
}
