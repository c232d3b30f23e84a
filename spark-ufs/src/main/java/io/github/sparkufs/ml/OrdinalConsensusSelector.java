package io.github.sparkufs.ml;

import io.github.sparkufs.graph.TripletGraph;
import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.OrdinalConsensusSolver;
import java.util.Locale;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/**
 * Ordinal-consensus self-paced feature selection (AAAI 2020, Eq. 7): a projection W
 * (d × d₂, WᵀW = I) that keeps the ordinal (triplet) structure of the feature graph while
 * clustering the projected samples, with self-paced sample weights r that down-weight hard or
 * noisy samples (Eq. 7); features score {@code ||w_i||₂}. The model's summary reports how many
 * samples ended down-weighted. CLI name {@code ordinal}.
 */
public final class OrdinalConsensusSelector extends UnsupervisedSelector<OrdinalConsensusSelector> {

  private static final long serialVersionUID = 1L;

  private final DoubleParam alpha;
  private final DoubleParam beta;
  private final IntParam projectionDim;
  private final DoubleParam keepProbability;
  private final DoubleParam lambda0;
  private final DoubleParam mu;
  private final Param<String> tripletWeighting;
  private final Param<String> scatterCriterion;

  public OrdinalConsensusSelector() {
    this(Identifiable.randomUID("ordinalConsensusSelector"));
  }

  public OrdinalConsensusSelector(String uid) {
    super(uid);
    alpha = new DoubleParam(uid, "alpha",
        "α of Eq. 7: weight of the triplet graph term Tr(WᵀLW) (>= 0)",
        ParamValidators.gtEq(0));
    beta = new DoubleParam(uid, "beta",
        "β of Eq. 7: weight of the ℓ2,1 row sparsity of W (>= 0)",
        ParamValidators.gtEq(0));
    projectionDim = new IntParam(uid, "projectionDim",
        "d₂, the dimension of the projection W (0 = numClusters)",
        ParamValidators.gtEq(0));
    keepProbability = new DoubleParam(uid, "keepProbability",
        "s, the Bernoulli probability that a sample's z_i = 1 in the robust self-paced regulariser, in (0, 1]",
        ParamValidators.inRange(0, 1, false, true));
    lambda0 = new DoubleParam(uid, "lambda0",
        "λ₀, the initial self-paced age (> 0)",
        ParamValidators.gt(0));
    mu = new DoubleParam(uid, "mu",
        "μ, the factor λ grows by each iteration (>= 1)",
        ParamValidators.gtEq(1));
    tripletWeighting = new Param<>(uid, "tripletWeighting",
        "triplet weights of the feature graph: scaled (the authors' row min-max scaling, default) or raw (the paper's Eq. 5)",
        ParamValidators.inArray(new String[] {"scaled", "raw"}));
    scatterCriterion = new Param<>(uid, "scatterCriterion",
        "data term of the W step: between (default; the total scatter about the mean removed, so the projection keeps the between-cluster scatter and measures each sample against the mean) or within (the paper's Eq. 12, which prefers low-variance features)",
        ParamValidators.inArray(new String[] {"between", "within"}));
    setDefault(alpha, OrdinalConsensusSolver.DEFAULT_ALPHA);
    setDefault(beta, OrdinalConsensusSolver.DEFAULT_BETA);
    setDefault(projectionDim, OrdinalConsensusSolver.DEFAULT_PROJECTION_DIM);
    setDefault(keepProbability, OrdinalConsensusSolver.DEFAULT_KEEP_PROBABILITY);
    setDefault(lambda0, OrdinalConsensusSolver.DEFAULT_LAMBDA0);
    setDefault(mu, OrdinalConsensusSolver.DEFAULT_MU);
    setDefault(tripletWeighting, "scaled");
    setDefault(scatterCriterion,
        OrdinalConsensusSolver.DEFAULT_CRITERION.name().toLowerCase(Locale.ROOT));
  }

  /** α of Eq. 7: weight of the triplet graph term Tr(WᵀLW) (>= 0) */
  public DoubleParam alpha() {
    return alpha;
  }

  /** β of Eq. 7: weight of the ℓ2,1 row sparsity of W (>= 0) */
  public DoubleParam beta() {
    return beta;
  }

  /** d₂, the dimension of the projection W (0 = numClusters) */
  public IntParam projectionDim() {
    return projectionDim;
  }

  /** s, the Bernoulli probability that a sample's z_i = 1 in the robust self-paced regulariser, in (0, 1] */
  public DoubleParam keepProbability() {
    return keepProbability;
  }

  /** λ₀, the initial self-paced age (> 0) */
  public DoubleParam lambda0() {
    return lambda0;
  }

  /** μ, the factor λ grows by each iteration (>= 1) */
  public DoubleParam mu() {
    return mu;
  }

  /** triplet weights of the feature graph: scaled (the authors' row min-max scaling, default) or raw (the paper's Eq. 5) */
  public Param<String> tripletWeighting() {
    return tripletWeighting;
  }

  /** data term of the W step: between (default) or within (the paper's Eq. 12) */
  public Param<String> scatterCriterion() {
    return scatterCriterion;
  }

  public double getAlpha() {
    return (Double) getOrDefault(alpha);
  }

  public double getBeta() {
    return (Double) getOrDefault(beta);
  }

  public int getProjectionDim() {
    return (Integer) getOrDefault(projectionDim);
  }

  public double getKeepProbability() {
    return (Double) getOrDefault(keepProbability);
  }

  public double getLambda0() {
    return (Double) getOrDefault(lambda0);
  }

  public double getMu() {
    return (Double) getOrDefault(mu);
  }

  public String getTripletWeighting() {
    return getOrDefault(tripletWeighting);
  }

  public String getScatterCriterion() {
    return getOrDefault(scatterCriterion);
  }

  public OrdinalConsensusSelector setAlpha(double value) {
    set(alpha, value);
    return this;
  }

  public OrdinalConsensusSelector setBeta(double value) {
    set(beta, value);
    return this;
  }

  public OrdinalConsensusSelector setProjectionDim(int value) {
    set(projectionDim, value);
    return this;
  }

  public OrdinalConsensusSelector setKeepProbability(double value) {
    set(keepProbability, value);
    return this;
  }

  public OrdinalConsensusSelector setLambda0(double value) {
    set(lambda0, value);
    return this;
  }

  public OrdinalConsensusSelector setMu(double value) {
    set(mu, value);
    return this;
  }

  public OrdinalConsensusSelector setTripletWeighting(String value) {
    set(tripletWeighting, value);
    return this;
  }

  public OrdinalConsensusSelector setScatterCriterion(String value) {
    set(scatterCriterion, value);
    return this;
  }

  @Override
  public String methodName() {
    return "ordinal";
  }

  @Override
  protected FeatureSelectionSolver createSolver(CommonOptions common) {
    return new OrdinalConsensusSolver(common, getAlpha(), getBeta(), getProjectionDim(),
        getKeepProbability(), getLambda0(), getMu(),
        TripletGraph.Weighting.valueOf(getTripletWeighting().toUpperCase(Locale.ROOT)),
        OrdinalConsensusSolver.Criterion.valueOf(
            getScatterCriterion().toUpperCase(Locale.ROOT)));
  }

  public static MLReader<OrdinalConsensusSelector> read() {
    return new StageReader<>(OrdinalConsensusSelector.class);
  }

  public static OrdinalConsensusSelector load(String path) {
    return read().load(path);
  }
}
