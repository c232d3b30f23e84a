package io.github.sparkufs.ml;

import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.LaplacianScoreSolver;
import org.apache.spark.ml.util.Identifiable;

/**
 * The Laplacian Score (He, Cai and Niyogi, NIPS 2005): features that vary least
 * across the edges of the heat-kernel kNN graph, relative to their spread, score best
 * (smaller is better). CLI name {@code lapscore}. Does not use numClusters.
 */
public final class LaplacianScoreSelector extends LaplacianScoreSelectorParams {

  private static final long serialVersionUID = 1L;

  public LaplacianScoreSelector() {
    this(Identifiable.randomUID("laplacianScoreSelector"));
  }

  public LaplacianScoreSelector(String uid) {
    super(uid, LaplacianScoreSolver.PARAMS);
  }

  @Override
  public String methodName() {
    return "lapscore";
  }

  @Override
  protected FeatureSelectionSolver createSolver(MethodOptions options) {
    return new LaplacianScoreSolver(options);
  }
}
