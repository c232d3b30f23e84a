package io.github.sparkufs.ml;

import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.McfsSolver;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;

/**
 * MCFS, multi-cluster feature selection (Cai, Zhang and He, "Unsupervised feature selection for
 * multi-cluster data", KDD 2010; SPEC §5): the c smallest non-trivial eigenvectors of the
 * heat-kernel kNN graph (Eq. 2), one LARS regression of each on the features with
 * {@code numNonZeros} non-zero coefficients (Eq. 4), and feature j scored
 * {@code max_k |a_{k,j}|} (Eq. 5), larger is better. CLI name {@code mcfs}.
 */
public final class McfsSelector extends UnsupervisedSelector<McfsSelector> {

  private static final long serialVersionUID = 1L;

  private final IntParam numNonZeros;
  private final DoubleParam kernelWidth;
  private final BooleanParam standardization;

  public McfsSelector() {
    this(Identifiable.randomUID("mcfsSelector"));
  }

  public McfsSelector(String uid) {
    super(uid);
    numNonZeros = new IntParam(uid, "numNonZeros", "cardinality of each eigenvector's LARS "
        + "regression (Eq. 4; the paper uses the number of features to select) (>= 1)",
        ParamValidators.gtEq(1));
    kernelWidth = kernelWidthParam(uid);
    standardization = new BooleanParam(uid, "standardization", "whether Eq. 4's regressions "
        + "run on the features in units of their standard deviation, scoring each by its "
        + "coefficient in those units; false is Eq. 4 on the raw features, whose coefficients grow "
        + "as 1 / standard deviation and so favour low-variance features");
    setDefault(numNonZeros, McfsSolver.DEFAULT_NUM_NON_ZEROS);
    setDefault(kernelWidth, 0.0);
    setDefault(standardization, McfsSolver.DEFAULT_STANDARDIZATION);
  }

  /** Non-zero coefficients of each regression (Eq. 4's cardinality). */
  public IntParam numNonZeros() {
    return numNonZeros;
  }

  public int getNumNonZeros() {
    return (Integer) getOrDefault(numNonZeros);
  }

  public McfsSelector setNumNonZeros(int value) {
    set(numNonZeros, value);
    return this;
  }

  /** σ of the heat kernel; 0 = the mean distance to the k-th neighbour. */
  public DoubleParam kernelWidth() {
    return kernelWidth;
  }

  public double getKernelWidth() {
    return (Double) getOrDefault(kernelWidth);
  }

  public McfsSelector setKernelWidth(double value) {
    set(kernelWidth, value);
    return this;
  }

  /** Whether the regressions run on standardised features (a step the paper does not have). */
  public BooleanParam standardization() {
    return standardization;
  }

  public boolean getStandardization() {
    return (Boolean) getOrDefault(standardization);
  }

  public McfsSelector setStandardization(boolean value) {
    set(standardization, value);
    return this;
  }

  @Override
  public String methodName() {
    return "mcfs";
  }

  @Override
  protected boolean usesSampleGraph() {
    return true;
  }

  @Override
  protected void checkShape(int n, int d) {
    if (n < getNumClusters() + 2) {
      throw new IllegalArgumentException("numClusters = " + getNumClusters() + " needs at least "
          + (getNumClusters() + 2) + " rows for its non-trivial eigenvectors, got " + n);
    }
  }

  @Override
  protected FeatureSelectionSolver createSolver(CommonOptions common) {
    return new McfsSolver(common, getNumNonZeros(), getKernelWidth(),
        getStandardization());
  }

  public static MLReader<McfsSelector> read() {
    return new StageReader<>(McfsSelector.class);
  }

  public static McfsSelector load(String path) {
    return read().load(path);
  }
}
