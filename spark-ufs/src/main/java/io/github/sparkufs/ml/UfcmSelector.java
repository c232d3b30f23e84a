package io.github.sparkufs.ml;

import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.UfcmSolver;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/**
 * UFCM, unsupervised feature selection by class margin optimisation (Wang, Nie, Chang, Yao, Li
 * and Sheng, ECML PKDD 2015; SPEC §3.3): maximises Eq. 6,
 * {@code Tr(Wᵀ S_t W) − α||WᵀX − G Uᵀ||² − β||W||₂,p} with WᵀW = I, embedding k-means (U, G)
 * in a d'-dimensional projection W of the centred data; features score {@code ||w_i||₂}. The
 * first public implementation of the method. CLI name {@code ufcm}.
 */
public final class UfcmSelector extends UnsupervisedSelector<UfcmSelector> {

  private static final long serialVersionUID = 1L;

  private final DoubleParam alpha;
  private final DoubleParam beta;
  private final DoubleParam p;
  private final IntParam projectionDim;
  private final IntParam restarts;

  public UfcmSelector() {
    this(Identifiable.randomUID("ufcmSelector"));
  }

  public UfcmSelector(String uid) {
    super(uid);
    alpha = new DoubleParam(uid, "alpha",
        "α of Eq. 6: weight of the embedded k-means loss (> 0)",
        ParamValidators.gt(0));
    beta = new DoubleParam(uid, "beta",
        "β of Eq. 6: weight of the ℓ2,p row sparsity of W (>= 0)",
        ParamValidators.gtEq(0));
    p = new DoubleParam(uid, "p",
        "p of the ℓ2,p norm, in (0, 2]",
        ParamValidators.inRange(0, 2, false, true));
    projectionDim = new IntParam(uid, "projectionDim",
        "d', the dimension of the projection W (0 = numClusters)",
        ParamValidators.gtEq(0));
    restarts = new IntParam(uid, "restarts",
        "r, random k-means restarts in the candidate set of Eq. 14 per iteration (>= 0)",
        ParamValidators.gtEq(0));
    setDefault(alpha, UfcmSolver.DEFAULT_ALPHA);
    setDefault(beta, UfcmSolver.DEFAULT_BETA);
    setDefault(p, UfcmSolver.DEFAULT_P);
    setDefault(projectionDim, UfcmSolver.DEFAULT_PROJECTION_DIM);
    setDefault(restarts, UfcmSolver.DEFAULT_RESTARTS);
  }

  /** α of Eq. 6: weight of the embedded k-means loss (> 0) */
  public DoubleParam alpha() {
    return alpha;
  }

  /** β of Eq. 6: weight of the ℓ2,p row sparsity of W (>= 0) */
  public DoubleParam beta() {
    return beta;
  }

  /** p of the ℓ2,p norm, in (0, 2] */
  public DoubleParam p() {
    return p;
  }

  /** d', the dimension of the projection W (0 = numClusters) */
  public IntParam projectionDim() {
    return projectionDim;
  }

  /** r, random k-means restarts in the candidate set of Eq. 14 per iteration (>= 0) */
  public IntParam restarts() {
    return restarts;
  }

  public double getAlpha() {
    return (Double) getOrDefault(alpha);
  }

  public double getBeta() {
    return (Double) getOrDefault(beta);
  }

  public double getP() {
    return (Double) getOrDefault(p);
  }

  public int getProjectionDim() {
    return (Integer) getOrDefault(projectionDim);
  }

  public int getRestarts() {
    return (Integer) getOrDefault(restarts);
  }

  public UfcmSelector setAlpha(double value) {
    set(alpha, value);
    return this;
  }

  public UfcmSelector setBeta(double value) {
    set(beta, value);
    return this;
  }

  public UfcmSelector setP(double value) {
    set(p, value);
    return this;
  }

  public UfcmSelector setProjectionDim(int value) {
    set(projectionDim, value);
    return this;
  }

  public UfcmSelector setRestarts(int value) {
    set(restarts, value);
    return this;
  }

  @Override
  public String methodName() {
    return "ufcm";
  }

  @Override
  protected FeatureSelectionSolver createSolver(CommonOptions common) {
    return new UfcmSolver(common, getAlpha(), getBeta(), getP(), getProjectionDim(), getRestarts());
  }

  public static MLReader<UfcmSelector> read() {
    return new StageReader<>(UfcmSelector.class);
  }

  public static UfcmSelector load(String path) {
    return read().load(path);
  }
}
