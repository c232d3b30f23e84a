package io.github.sparkufs.ml;

import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.SpecSolver;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/**
 * SPEC, spectral feature selection (Zhao and Liu, "Spectral feature selection for supervised
 * and unsupervised learning", ICML 2007; SPEC §5): features scored by their alignment with the
 * spectrum of the normalised Laplacian of the heat-kernel kNN graph. {@code scoreType} picks
 * the paper's φ1 (Eq. 5, smaller is better), φ2 (Eq. 6, smaller is better; equal to the
 * Laplacian Score) or φ3 (Eq. 7, the c leading non-trivial eigenpairs, larger is better);
 * {@link io.github.sparkufs.ml.UnsupervisedSelectorModel#isLargerBetter()} reports the
 * direction. The default is φ1, the best of the three on COIL20 (README). numClusters is
 * needed by φ3 only. CLI name {@code spec}.
 */
public final class SpecSelector extends UnsupervisedSelector<SpecSelector> {

  private static final long serialVersionUID = 1L;

  private final IntParam scoreType;
  private final DoubleParam kernelWidth;

  public SpecSelector() {
    this(Identifiable.randomUID("specSelector"));
  }

  public SpecSelector(String uid) {
    super(uid);
    scoreType = new IntParam(uid, "scoreType", "which score of Zhao and Liu: 1 = phi1 (Eq. 5), "
        + "2 = phi2 (Eq. 6), 3 = phi3 over the numClusters leading eigenpairs (Eq. 7)",
        ParamValidators.inRange(1, 3));
    kernelWidth = kernelWidthParam(uid);
    setDefault(scoreType, SpecSolver.DEFAULT_SCORE_TYPE);
    setDefault(kernelWidth, 0.0);
  }

  /** 1, 2 or 3: the paper's φ1, φ2 or φ3. */
  public IntParam scoreType() {
    return scoreType;
  }

  public int getScoreType() {
    return (Integer) getOrDefault(scoreType);
  }

  public SpecSelector setScoreType(int value) {
    set(scoreType, value);
    return this;
  }

  /** σ of the heat kernel; 0 = the mean distance to the k-th neighbour. */
  public DoubleParam kernelWidth() {
    return kernelWidth;
  }

  public double getKernelWidth() {
    return (Double) getOrDefault(kernelWidth);
  }

  public SpecSelector setKernelWidth(double value) {
    set(kernelWidth, value);
    return this;
  }

  @Override
  public String methodName() {
    return "spec";
  }

  @Override
  protected boolean requiresNumClusters() {
    return getScoreType() == 3;
  }

  @Override
  protected boolean usesSampleGraph() {
    return true;
  }

  @Override
  protected void checkShape(int n, int d) {
    if (getScoreType() == 3 && n < getNumClusters() + 2) {
      throw new IllegalArgumentException("numClusters = " + getNumClusters() + " needs at least "
          + (getNumClusters() + 2) + " rows for its non-trivial eigenvectors, got " + n);
    }
  }

  @Override
  protected FeatureSelectionSolver createSolver(CommonOptions common) {
    return new SpecSolver(common, getScoreType(), getKernelWidth());
  }

  public static MLReader<SpecSelector> read() {
    return new StageReader<>(SpecSelector.class);
  }

  public static SpecSelector load(String path) {
    return read().load(path);
  }
}
