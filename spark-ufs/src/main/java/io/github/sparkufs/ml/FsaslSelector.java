package io.github.sparkufs.ml;

import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.FsaslSolver;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/**
 * FSASL, feature selection with adaptive structure learning (Du and Shen, KDD 2015; SPEC
 * §3.5): alternates between learning the global (sparse reconstruction S) and local (simplex
 * neighbour weights P) structure of the projected samples and a row-sparse projection W that
 * preserves both, minimising Eq. 5; features score {@code ||w_i||₂}. CLI name {@code fsasl}.
 */
public final class FsaslSelector extends UnsupervisedSelector<FsaslSelector> {

  private static final long serialVersionUID = 1L;

  private final DoubleParam alpha;
  private final DoubleParam beta;
  private final DoubleParam gamma;
  private final IntParam lassoNeighbors;
  private final IntParam innerIterations;
  private final BooleanParam monotone;
  private final BooleanParam contributionScores;

  public FsaslSelector() {
    this(Identifiable.randomUID("fsaslSelector"));
  }

  public FsaslSelector(String uid) {
    super(uid);
    alpha = new DoubleParam(uid, "alpha",
        "α of Eq. 5: the LASSO weight of the global structure S, as a fraction of each sample's λ_max, in (0, 1)",
        ParamValidators.inRange(0, 1, false, false));
    beta = new DoubleParam(uid, "beta",
        "β of Eq. 5: weight of the local structure term (>= 0)",
        ParamValidators.gtEq(0));
    gamma = new DoubleParam(uid, "gamma",
        "γ of Eq. 5: weight of the ℓ2,1 row sparsity of W (> 0)",
        ParamValidators.gt(0));
    lassoNeighbors = new IntParam(uid, "lassoNeighbors",
        "K: restrict each sample's LASSO dictionary to its K nearest samples in the projection (0 = all samples)",
        ParamValidators.gtEq(0));
    innerIterations = new IntParam(uid, "innerIterations",
        "reweighting iterations of the W step per outer iteration (>= 1)",
        ParamValidators.gtEq(1));
    monotone = new BooleanParam(uid, "monotone",
        "true: a W step that would raise Eq. 5 is damped until it lowers it, and the iteration stops when none does; false: every W step of Theorem 1 is taken in full (Algorithm 2, the authors' code), and Eq. 5 may rise");
    contributionScores = new BooleanParam(uid, "contributionScores", "whether feature i "
        + "scores σ_i ||w_i||, its contribution to XᵀW (σ_i its standard deviation), instead of "
        + "Algorithm 2's ||w_i||, which favours the quieter features (a step the paper lacks)");
    setDefault(alpha, FsaslSolver.DEFAULT_ALPHA);
    setDefault(beta, FsaslSolver.DEFAULT_BETA);
    setDefault(gamma, FsaslSolver.DEFAULT_GAMMA);
    setDefault(lassoNeighbors, FsaslSolver.DEFAULT_LASSO_NEIGHBORS);
    setDefault(innerIterations, FsaslSolver.DEFAULT_INNER_ITERATIONS);
    setDefault(monotone, FsaslSolver.DEFAULT_MONOTONE);
    setDefault(contributionScores, FsaslSolver.DEFAULT_CONTRIBUTION_SCORES);
  }

  /** α of Eq. 5: the LASSO weight of the global structure S, as a fraction of each sample's λ_max, in (0, 1) */
  public DoubleParam alpha() {
    return alpha;
  }

  /** β of Eq. 5: weight of the local structure term (>= 0) */
  public DoubleParam beta() {
    return beta;
  }

  /** γ of Eq. 5: weight of the ℓ2,1 row sparsity of W (> 0) */
  public DoubleParam gamma() {
    return gamma;
  }

  /** K: restrict each sample's LASSO dictionary to its K nearest samples in the projection (0 = all samples) */
  public IntParam lassoNeighbors() {
    return lassoNeighbors;
  }

  /** reweighting iterations of the W step per outer iteration (>= 1) */
  public IntParam innerIterations() {
    return innerIterations;
  }

  /** true: a W step that would raise Eq. 5 is damped until it lowers it, and the iteration stops when none does; false: every W step of Theorem 1 is taken in full (Algorithm 2, the authors' code), and Eq. 5 may rise */
  public BooleanParam monotone() {
    return monotone;
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

  public int getLassoNeighbors() {
    return (Integer) getOrDefault(lassoNeighbors);
  }

  public int getInnerIterations() {
    return (Integer) getOrDefault(innerIterations);
  }

  public boolean getMonotone() {
    return (Boolean) getOrDefault(monotone);
  }

  public FsaslSelector setAlpha(double value) {
    set(alpha, value);
    return this;
  }

  public FsaslSelector setBeta(double value) {
    set(beta, value);
    return this;
  }

  public FsaslSelector setGamma(double value) {
    set(gamma, value);
    return this;
  }

  public FsaslSelector setLassoNeighbors(int value) {
    set(lassoNeighbors, value);
    return this;
  }

  public FsaslSelector setInnerIterations(int value) {
    set(innerIterations, value);
    return this;
  }

  public boolean getContributionScores() {
    return (Boolean) getOrDefault(contributionScores);
  }

  public FsaslSelector setContributionScores(boolean value) {
    set(contributionScores, value);
    return this;
  }

  public FsaslSelector setMonotone(boolean value) {
    set(monotone, value);
    return this;
  }

  @Override
  public String methodName() {
    return "fsasl";
  }

  @Override
  protected boolean usesSampleGraph() {
    return true;
  }

  @Override
  protected FeatureSelectionSolver createSolver(CommonOptions common) {
    return new FsaslSolver(common, getAlpha(), getBeta(), getGamma(), getLassoNeighbors(),
        getInnerIterations(), getMonotone(), getContributionScores());
  }

  public static MLReader<FsaslSelector> read() {
    return new StageReader<>(FsaslSelector.class);
  }

  public static FsaslSelector load(String path) {
    return read().load(path);
  }
}
