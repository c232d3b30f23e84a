package io.github.sparkufs.ml;

import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.NdfsSolver;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/**
 * NDFS, nonnegative discriminative feature selection (Li, Yang, Liu, Zhou and Lu, AAAI 2012;
 * SPEC §3.1): learns non-negative cluster indicators F by spectral clustering on the
 * heat-kernel kNN graph jointly with a row-sparse regression W from the features to F,
 * minimising Eq. 10, {@code Tr(FᵀLF) + α(||XᵀW − F||² + β||W||₂,₁) + γ/2 ||FᵀF − I||²};
 * features score {@code ||w_i||₂}. CLI name {@code ndfs}.
 */
public final class NdfsSelector extends UnsupervisedSelector<NdfsSelector> {

  private static final long serialVersionUID = 1L;

  private final DoubleParam alpha;
  private final DoubleParam beta;
  private final DoubleParam gamma;
  private final DoubleParam kernelWidth;
  private final BooleanParam contributionScores;

  public NdfsSelector() {
    this(Identifiable.randomUID("ndfsSelector"));
  }

  public NdfsSelector(String uid) {
    super(uid);
    alpha = new DoubleParam(uid, "alpha",
        "α of Eq. 10: weight of the regression ||XᵀW − F||² + β||W||₂,₁ against the spectral term (> 0)",
        ParamValidators.gt(0));
    beta = new DoubleParam(uid, "beta", "β of Eq. 10: weight of the ℓ2,1 row sparsity of W (> 0)",
        ParamValidators.gt(0));
    gamma = new DoubleParam(uid, "gamma",
        "γ of Eq. 10: weight of the orthogonality penalty γ/2 ||FᵀF − I||² (> 0)",
        ParamValidators.gt(0));
    kernelWidth = kernelWidthParam(uid);
    setDefault(alpha, NdfsSolver.DEFAULT_ALPHA);
    setDefault(beta, NdfsSolver.DEFAULT_BETA);
    setDefault(gamma, NdfsSolver.DEFAULT_GAMMA);
    contributionScores = new BooleanParam(uid, "contributionScores", "whether feature i "
        + "scores σ_i ||w_i||, its contribution to XᵀW (σ_i its standard deviation), instead of "
        + "the paper's ||w_i||, which favours the quieter features (a step the paper lacks)");
    setDefault(kernelWidth, 0.0);
    setDefault(contributionScores, NdfsSolver.DEFAULT_CONTRIBUTION_SCORES);
  }

  public DoubleParam alpha() {
    return alpha;
  }

  public DoubleParam beta() {
    return beta;
  }

  public DoubleParam gamma() {
    return gamma;
  }

  public DoubleParam kernelWidth() {
    return kernelWidth;
  }

  public BooleanParam contributionScores() {
    return contributionScores;
  }

  public double getAlpha() {
    return (Double) getOrDefault(alpha);
  }

  public double getBeta() {
    return (Double) getOrDefault(beta);
  }

  public double getGamma() {
    return (Double) getOrDefault(gamma);
  }

  public double getKernelWidth() {
    return (Double) getOrDefault(kernelWidth);
  }

  public boolean getContributionScores() {
    return (Boolean) getOrDefault(contributionScores);
  }

  public NdfsSelector setAlpha(double value) {
    set(alpha, value);
    return this;
  }

  public NdfsSelector setBeta(double value) {
    set(beta, value);
    return this;
  }

  public NdfsSelector setGamma(double value) {
    set(gamma, value);
    return this;
  }

  public NdfsSelector setKernelWidth(double value) {
    set(kernelWidth, value);
    return this;
  }

  public NdfsSelector setContributionScores(boolean value) {
    set(contributionScores, value);
    return this;
  }

  @Override
  public String methodName() {
    return "ndfs";
  }

  @Override
  protected boolean usesSampleGraph() {
    return true;
  }

  @Override
  protected FeatureSelectionSolver createSolver(CommonOptions common) {
    return new NdfsSolver(common, getAlpha(), getBeta(), getGamma(), getKernelWidth(),
        getContributionScores());
  }

  public static MLReader<NdfsSelector> read() {
    return new StageReader<>(NdfsSelector.class);
  }

  public static NdfsSelector load(String path) {
    return read().load(path);
  }
}
