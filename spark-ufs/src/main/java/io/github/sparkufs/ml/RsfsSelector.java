package io.github.sparkufs.ml;

import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.RsfsSolver;
import java.util.Locale;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/**
 * RSFS, robust spectral feature selection (Shi, Du and Shen, ICDM 2014): spectral
 * embedding F on the local kernel regression graph, fitted by a robust regression
 * {@code F − Z ≈ XᵀW} where the sparse matrix Z absorbs outliers, minimising Eq. 9,
 * {@code Tr(FᵀMF) + α||(F − Z) − XᵀW||² + β||W||₂,₁ + γ||Z||₁} with F ≥ 0 and FᵀF ≈ I
 * (penalty ν); features score {@code ||w_i||₂}. F starts from the spectral clusters of the
 * graph (the authors' start), from k-means clusters, or by default from both with the fit of the
 * lower objective kept ({@code initMode}). The model's summary carries the Huber form of the
 * objective (Eq. 14) of the last iteration, the final objective from each start
 * ({@code spectralStartObjective}, {@code kmeansStartObjective}), the number of starts
 * ({@code initStarts}) and whether the spectral one was kept ({@code initSpectral}). CLI name
 * {@code rsfs}.
 */
public final class RsfsSelector extends UnsupervisedSelector<RsfsSelector> {

  private static final long serialVersionUID = 1L;

  private final DoubleParam alpha;
  private final DoubleParam beta;
  private final DoubleParam gamma;
  private final DoubleParam nu;
  private final DoubleParam kernelWidth;
  private final Param<String> initMode;

  public RsfsSelector() {
    this(Identifiable.randomUID("rsfsSelector"));
  }

  public RsfsSelector(String uid) {
    super(uid);
    alpha = new DoubleParam(uid, "alpha",
        "α of Eq. 9: weight of the robust regression term (> 0)",
        ParamValidators.gt(0));
    beta = new DoubleParam(uid, "beta",
        "β of Eq. 9: weight of the ℓ2,1 row sparsity of W (> 0)",
        ParamValidators.gt(0));
    gamma = new DoubleParam(uid, "gamma",
        "γ of Eq. 9: weight of the ℓ1 norm of the noise Z; soft threshold γ/(2α) (Eq. 13) (>= 0)",
        ParamValidators.gtEq(0));
    nu = new DoubleParam(uid, "nu",
        "ν: weight of the orthogonality penalty ν/2 ||FᵀF − I||² (> 0)",
        ParamValidators.gt(0));
    kernelWidth = kernelWidthParam(uid);
    initMode = new Param<>(uid, "initMode",
        "start of F: spectral (the authors' spectral clusters of the graph), kmeans (k-means clusters of the samples) or both (default; a fit from each, the lower objective of Eq. 9 kept)",
        ParamValidators.inArray(new String[] {"spectral", "kmeans", "both"}));
    setDefault(alpha, RsfsSolver.DEFAULT_ALPHA);
    setDefault(beta, RsfsSolver.DEFAULT_BETA);
    setDefault(gamma, RsfsSolver.DEFAULT_GAMMA);
    setDefault(nu, RsfsSolver.DEFAULT_NU);
    setDefault(kernelWidth, 0.0);
    setDefault(initMode, RsfsSolver.DEFAULT_INIT_MODE.name().toLowerCase(Locale.ROOT));
  }

  /** α of Eq. 9: weight of the robust regression term (> 0) */
  public DoubleParam alpha() {
    return alpha;
  }

  /** β of Eq. 9: weight of the ℓ2,1 row sparsity of W (> 0) */
  public DoubleParam beta() {
    return beta;
  }

  /** γ of Eq. 9: weight of the ℓ1 norm of the noise Z; soft threshold γ/(2α) (Eq. 13) (>= 0) */
  public DoubleParam gamma() {
    return gamma;
  }

  /** ν: weight of the orthogonality penalty ν/2 ||FᵀF − I||² (> 0) */
  public DoubleParam nu() {
    return nu;
  }

  /** σ of the heat kernel; 0 = the mean distance to the k-th neighbour. */
  public DoubleParam kernelWidth() {
    return kernelWidth;
  }

  /** Start of F: spectral, kmeans or both (the lower objective of Eq. 9 kept). */
  public Param<String> initMode() {
    return initMode;
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

  public double getNu() {
    return (Double) getOrDefault(nu);
  }

  public double getKernelWidth() {
    return (Double) getOrDefault(kernelWidth);
  }

  public String getInitMode() {
    return getOrDefault(initMode);
  }

  public RsfsSelector setAlpha(double value) {
    set(alpha, value);
    return this;
  }

  public RsfsSelector setBeta(double value) {
    set(beta, value);
    return this;
  }

  public RsfsSelector setGamma(double value) {
    set(gamma, value);
    return this;
  }

  public RsfsSelector setNu(double value) {
    set(nu, value);
    return this;
  }

  public RsfsSelector setKernelWidth(double value) {
    set(kernelWidth, value);
    return this;
  }

  public RsfsSelector setInitMode(String value) {
    set(initMode, value);
    return this;
  }

  @Override
  public String methodName() {
    return "rsfs";
  }

  @Override
  protected boolean usesSampleGraph() {
    return true;
  }

  @Override
  protected FeatureSelectionSolver createSolver(CommonOptions common) {
    return new RsfsSolver(common, getAlpha(), getBeta(), getGamma(), getNu(), getKernelWidth(),
        RsfsSolver.InitMode.valueOf(getInitMode().toUpperCase(Locale.ROOT)));
  }

  public static MLReader<RsfsSelector> read() {
    return new StageReader<>(RsfsSelector.class);
  }

  public static RsfsSelector load(String path) {
    return read().load(path);
  }
}
