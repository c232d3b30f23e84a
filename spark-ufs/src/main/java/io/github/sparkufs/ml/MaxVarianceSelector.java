package io.github.sparkufs.ml;

import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MaxVarianceSolver;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/** Keeps the features of largest variance: the simplest baseline (SPEC §5). CLI name {@code maxvar}. */
public final class MaxVarianceSelector extends UnsupervisedSelector<MaxVarianceSelector> {

  private static final long serialVersionUID = 1L;

  public MaxVarianceSelector() {
    this(Identifiable.randomUID("maxVarianceSelector"));
  }

  public MaxVarianceSelector(String uid) {
    super(uid);
  }

  @Override
  public String methodName() {
    return "maxvar";
  }

  @Override
  protected boolean requiresNumClusters() {
    return false;
  }

  @Override
  protected FeatureSelectionSolver createSolver(CommonOptions common) {
    return new MaxVarianceSolver();
  }

  public static MLReader<MaxVarianceSelector> read() {
    return new StageReader<>(MaxVarianceSelector.class);
  }

  public static MaxVarianceSelector load(String path) {
    return read().load(path);
  }
}
