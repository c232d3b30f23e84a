package io.github.sparkufs.ml;

import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.UdfsSolver;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/**
 * UDFS (Yang, Shen, Ma, Huang and Zhou, "ℓ2,1-norm regularized discriminative feature selection
 * for unsupervised learning", IJCAI 2011; SPEC §5): minimises
 * {@code Tr(WᵀMW) + γ||W||₂,₁} over W (d × c, Eq. 12) with {@code Wᵀ((1 − η) C + η I)W = I}
 * (C the features' covariance; {@code shrinkage} η = 1 is the paper's orthonormal W), M the local
 * discriminative scatter of each sample's set of itself and its k nearest neighbours (Eq. 10–11) with ridge λ;
 * features score {@code ||w_i||₂}, larger is better. CLI name {@code udfs}.
 */
public final class UdfsSelector extends UnsupervisedSelector<UdfsSelector> {

  private static final long serialVersionUID = 1L;

  private final DoubleParam gamma;
  private final DoubleParam lambda;
  private final BooleanParam standardization;
  private final DoubleParam shrinkage;

  public UdfsSelector() {
    this(Identifiable.randomUID("udfsSelector"));
  }

  public UdfsSelector(String uid) {
    super(uid);
    gamma = new DoubleParam(uid, "gamma",
        "γ of Eq. 12: weight of the ℓ2,1 row sparsity of W (> 0)", ParamValidators.gt(0));
    lambda = new DoubleParam(uid, "lambda", "λ of Eq. 10: ridge of each local set's centred "
        + "Gram matrix, (X̃ᵢᵀX̃ᵢ + λI)^-1 (> 0)", ParamValidators.gt(0));
    standardization = new BooleanParam(uid, "standardization", "whether the features enter "
        + "the scatter M and the weights W of Eq. 12 in units of their standard deviation "
        + "(the local sets and their Gram matrices come from the data as given); false is Eq. 12 "
        + "on the raw features, whose WᵀW = I favours low-variance features");
    shrinkage = new DoubleParam(uid, "shrinkage", "η of the constraint "
        + "Wᵀ((1 − η) C + η I)W = I, C the covariance of the features (in the units standardization "
        + "sets) over its mean variance: 1 is Eq. 12's WᵀW = I, towards 0 the paper's GᵀG = I for "
        + "G = XᵀW (in [0, 1])", ParamValidators.inRange(0, 1));
    setDefault(gamma, UdfsSolver.DEFAULT_GAMMA);
    setDefault(lambda, UdfsSolver.DEFAULT_LAMBDA);
    setDefault(standardization, UdfsSolver.DEFAULT_STANDARDIZATION);
    setDefault(shrinkage, UdfsSolver.DEFAULT_SHRINKAGE);
  }

  public DoubleParam gamma() {
    return gamma;
  }

  public DoubleParam lambda() {
    return lambda;
  }

  public BooleanParam standardization() {
    return standardization;
  }

  public DoubleParam shrinkage() {
    return shrinkage;
  }

  public double getGamma() {
    return (Double) getOrDefault(gamma);
  }

  public double getLambda() {
    return (Double) getOrDefault(lambda);
  }

  public boolean getStandardization() {
    return (Boolean) getOrDefault(standardization);
  }

  public double getShrinkage() {
    return (Double) getOrDefault(shrinkage);
  }

  public UdfsSelector setShrinkage(double value) {
    set(shrinkage, value);
    return this;
  }

  public UdfsSelector setStandardization(boolean value) {
    set(standardization, value);
    return this;
  }

  public UdfsSelector setGamma(double value) {
    set(gamma, value);
    return this;
  }

  public UdfsSelector setLambda(double value) {
    set(lambda, value);
    return this;
  }

  @Override
  public String methodName() {
    return "udfs";
  }

  @Override
  protected boolean usesSampleGraph() {
    return true;
  }

  @Override
  protected void checkShape(int n, int d) {
    if (getNumClusters() > d) {
      throw new IllegalArgumentException("numClusters = " + getNumClusters() + " exceeds the "
          + "number of features " + d + ": W has numClusters orthonormal columns");
    }
  }

  @Override
  protected FeatureSelectionSolver createSolver(CommonOptions common) {
    return new UdfsSolver(common, getGamma(), getLambda(), getStandardization(),
        getShrinkage());
  }

  public static MLReader<UdfsSelector> read() {
    return new StageReader<>(UdfsSelector.class);
  }

  public static UdfsSelector load(String path) {
    return read().load(path);
  }
}
