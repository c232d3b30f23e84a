package io.github.sparkufs.ml;

import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.LaplacianScoreSolver;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/**
 * The Laplacian Score (He, Cai and Niyogi, NIPS 2005; SPEC §5): features that vary least
 * across the edges of the heat-kernel kNN graph, relative to their spread, score best
 * (smaller is better). CLI name {@code lapscore}. Does not use numClusters.
 */
public final class LaplacianScoreSelector extends UnsupervisedSelector<LaplacianScoreSelector> {

  private static final long serialVersionUID = 1L;

  private final DoubleParam kernelWidth;
  private final BooleanParam selfConnected;
  private final BooleanParam localScaling;

  public LaplacianScoreSelector() {
    this(Identifiable.randomUID("laplacianScoreSelector"));
  }

  public LaplacianScoreSelector(String uid) {
    super(uid);
    kernelWidth = kernelWidthParam(uid);
    selfConnected = new BooleanParam(uid, "selfConnected", "whether each sample is also its "
        + "own neighbour (a self-loop of weight 1, as in scikit-feature); SPEC's graph has none");
    localScaling = new BooleanParam(uid, "localScaling", "with kernelWidth = 0: weight each "
        + "edge by exp(-||xi - xj||^2 / (sigma_i sigma_j)), sigma_i the distance from sample i to "
        + "its k-th neighbour (self-tuning); false = one sigma, the mean k-th-neighbour distance");
    setDefault(kernelWidth, 0.0);
    setDefault(selfConnected, false);
    setDefault(localScaling, true);
  }

  /** Whether the default kernel width is per sample (self-tuning) rather than global. */
  public BooleanParam localScaling() {
    return localScaling;
  }

  public boolean getLocalScaling() {
    return (Boolean) getOrDefault(localScaling);
  }

  public LaplacianScoreSelector setLocalScaling(boolean value) {
    set(localScaling, value);
    return this;
  }

  /** Whether each sample is also linked to itself (weight 1). */
  public BooleanParam selfConnected() {
    return selfConnected;
  }

  public boolean getSelfConnected() {
    return (Boolean) getOrDefault(selfConnected);
  }

  public LaplacianScoreSelector setSelfConnected(boolean value) {
    set(selfConnected, value);
    return this;
  }

  /** σ of the heat kernel; 0 = from the data (see {@link #localScaling()}). */
  public DoubleParam kernelWidth() {
    return kernelWidth;
  }

  public double getKernelWidth() {
    return (Double) getOrDefault(kernelWidth);
  }

  public LaplacianScoreSelector setKernelWidth(double value) {
    set(kernelWidth, value);
    return this;
  }

  @Override
  public String methodName() {
    return "lapscore";
  }

  @Override
  protected boolean requiresNumClusters() {
    return false;
  }

  @Override
  protected boolean usesSampleGraph() {
    return true;
  }

  @Override
  protected FeatureSelectionSolver createSolver(CommonOptions common) {
    return new LaplacianScoreSolver(common.numNeighbors(), getKernelWidth(), getSelfConnected(),
        getLocalScaling(), common.knnSearch());
  }

  public static MLReader<LaplacianScoreSelector> read() {
    return new StageReader<>(LaplacianScoreSelector.class);
  }

  public static LaplacianScoreSelector load(String path) {
    return read().load(path);
  }
}
