package io.github.sparkufs.ml;

import io.github.sparkufs.graph.KnnSearch;
import io.github.sparkufs.linalg.ColumnStatistics;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureRanking;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.SelectionResult;
import io.github.sparkufs.spark.SparkExecution;
import io.github.sparkufs.spark.VectorBlocks;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.DefaultParamsWriter;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The base of every selector in this library, in the manner of Spark's {@code Selector}: it
 * owns the shared params (SPEC §6), checks the input, turns the features column into blocks
 * and hands them to the method's pure-Java solver; each method adds only its own params and
 * its solver. {@code fit} returns an {@link UnsupervisedSelectorModel}.
 *
 * @param <S> the concrete selector, so that setters chain
 */
public abstract class UnsupervisedSelector<S extends UnsupervisedSelector<S>>
    extends Estimator<UnsupervisedSelectorModel> implements SelectorParams, MLWritable {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(UnsupervisedSelector.class);

  private final String uid;
  private final Param<String> featuresCol;
  private final Param<String> outputCol;
  private final Param<String> selectionMode;
  private final DoubleParam selectionThreshold;
  private final IntParam numClusters;
  private final IntParam numNeighbors;
  private final IntParam maxIter;
  private final DoubleParam tol;
  private final LongParam seed;
  private final IntParam checkpointInterval;
  private final Param<String> executionMode;
  private final Param<String> handleInvalid;
  private final Param<String> knnAlgorithm;

  protected UnsupervisedSelector(String uid) {
    this.uid = uid;
    featuresCol = SelectorParams.featuresColParam(uid);
    outputCol = SelectorParams.outputColParam(uid);
    selectionMode = SelectorParams.selectionModeParam(uid);
    selectionThreshold = SelectorParams.selectionThresholdParam(uid);
    numClusters = new IntParam(uid, "numClusters",
        "the number of clusters c the data are expected to have (>= 2; no default)",
        ParamValidators.gtEq(2));
    numNeighbors = new IntParam(uid, "numNeighbors",
        "the neighbourhood size k of the method's graph (>= 1)", ParamValidators.gtEq(1));
    maxIter = new IntParam(uid, "maxIter", "maximum number of iterations (>= 1)",
        ParamValidators.gtEq(1));
    tol = new DoubleParam(uid, "tol",
        "stop when the objective's relative change falls to this (>= 0)", ParamValidators.gtEq(0));
    seed = new LongParam(uid, "seed", "random seed");
    checkpointInterval = new IntParam(uid, "checkpointInterval",
        "checkpoint the distributed data blocks when a checkpoint directory is set (>= 1), or "
            + "never (-1); iteration state lives on the driver, so lineage does not grow",
        v -> (Integer) v == -1 || (Integer) v >= 1);
    executionMode = new Param<>(uid, "executionMode",
        "where the blocks live: auto (on the driver when n*d <= " + VectorBlocks.DRIVER_LIMIT
            + "), driver, or distributed",
        ParamValidators.inArray(new String[] {"auto", "driver", "distributed"}));
    handleInvalid = new Param<>(uid, "handleInvalid",
        "rows with a null vector or a NaN or infinite value: error (fail the fit, naming the "
            + "row) or skip (leave them out)",
        ParamValidators.inArray(new String[] {"error", "skip"}));
    knnAlgorithm = new Param<>(uid, "knnAlgorithm",
        "how the kNN graph over samples is searched: auto (exact below "
            + KnnSearch.AUTO_APPROXIMATE_ROWS + " rows, else approximate), exact (all pairs), "
            + "or approximate (k-means cells, each sample compared with the samples of the "
            + "nearest cells)",
        ParamValidators.inArray(KnnSearch.ALGORITHMS.toArray(new String[0])));
    setDefault(featuresCol, "features");
    setDefault(outputCol, "selectedFeatures");
    setDefault(selectionMode, NUM_TOP_FEATURES);
    setDefault(numNeighbors, 5);
    setDefault(maxIter, 30);
    setDefault(tol, 1e-6);
    setDefault(seed, (long) getClass().getName().hashCode());
    setDefault(checkpointInterval, 10);
    setDefault(executionMode, "auto");
    setDefault(handleInvalid, "error");
    setDefault(knnAlgorithm, KnnSearch.AUTO);
  }

  /**
   * The heat-kernel width σ param of the graph-based methods (SPEC §2 and §4): the same
   * meaning and default across methods, 0 selecting the mean distance from each sample to its
   * k-th nearest neighbour.
   */
  protected static DoubleParam kernelWidthParam(String uid) {
    return new DoubleParam(uid, "kernelWidth", "heat-kernel width sigma of the kNN graph, "
        + "exp(-||xi - xj||^2 / sigma^2); 0 = the mean distance to the k-th neighbour",
        ParamValidators.gtEq(0));
  }

  /** The method's name, as the CLI spells it (e.g. "ndfs"). */
  public abstract String methodName();

  /** The method's solver for the current params. */
  protected abstract FeatureSelectionSolver createSolver(CommonOptions common);

  /** Whether the method needs {@code numClusters}; true for all but closed-form scores. */
  protected boolean requiresNumClusters() {
    return true;
  }

  /** Whether the method builds a kNN graph over samples, so needs n ≥ numNeighbors + 1. */
  protected boolean usesSampleGraph() {
    return false;
  }

  /** Extra shape checks of a method (n samples, d features); throw with a clear message. */
  protected void checkShape(int n, int d) {}

  @SuppressWarnings("unchecked")
  protected final S self() {
    return (S) this;
  }

  @Override
  public String uid() {
    return uid;
  }

  @Override
  public Param<String> featuresCol() {
    return featuresCol;
  }

  @Override
  public Param<String> outputCol() {
    return outputCol;
  }

  @Override
  public Param<String> selectionMode() {
    return selectionMode;
  }

  @Override
  public DoubleParam selectionThreshold() {
    return selectionThreshold;
  }

  /** c, the number of clusters; required. */
  public IntParam numClusters() {
    return numClusters;
  }

  /** k, the neighbourhood size (default 5, as in every paper). */
  public IntParam numNeighbors() {
    return numNeighbors;
  }

  public IntParam maxIter() {
    return maxIter;
  }

  public DoubleParam tol() {
    return tol;
  }

  public LongParam seed() {
    return seed;
  }

  public IntParam checkpointInterval() {
    return checkpointInterval;
  }

  /** auto, driver or distributed. */
  public Param<String> executionMode() {
    return executionMode;
  }

  /** error (default) or skip. */
  public Param<String> handleInvalid() {
    return handleInvalid;
  }

  public String getHandleInvalid() {
    return getOrDefault(handleInvalid);
  }

  public S setHandleInvalid(String value) {
    set(handleInvalid, value);
    return self();
  }

  /** auto (default), exact or approximate: see {@link KnnSearch}. */
  public Param<String> knnAlgorithm() {
    return knnAlgorithm;
  }

  public String getKnnAlgorithm() {
    return getOrDefault(knnAlgorithm);
  }

  public S setKnnAlgorithm(String value) {
    set(knnAlgorithm, value);
    return self();
  }

  public int getNumClusters() {
    if (!isDefined(numClusters)) {
      throw new IllegalArgumentException(methodName() + " needs numClusters, the number of "
          + "clusters to look for; it has no default: call setNumClusters(c)");
    }
    return (Integer) getOrDefault(numClusters);
  }

  public int getNumNeighbors() {
    return (Integer) getOrDefault(numNeighbors);
  }

  public int getMaxIter() {
    return (Integer) getOrDefault(maxIter);
  }

  public double getTol() {
    return (Double) getOrDefault(tol);
  }

  public long getSeed() {
    return (Long) getOrDefault(seed);
  }

  public int getCheckpointInterval() {
    return (Integer) getOrDefault(checkpointInterval);
  }

  public String getExecutionMode() {
    return getOrDefault(executionMode);
  }

  public S setFeaturesCol(String value) {
    set(featuresCol, value);
    return self();
  }

  public S setOutputCol(String value) {
    set(outputCol, value);
    return self();
  }

  public S setSelectionMode(String value) {
    set(selectionMode, value);
    return self();
  }

  public S setSelectionThreshold(double value) {
    set(selectionThreshold, value);
    return self();
  }

  /** Shorthand for {@code numTopFeatures} mode with threshold m. */
  public S setNumTopFeatures(int m) {
    return setSelectionMode(NUM_TOP_FEATURES).setSelectionThreshold(m);
  }

  public S setNumClusters(int value) {
    set(numClusters, value);
    return self();
  }

  public S setNumNeighbors(int value) {
    set(numNeighbors, value);
    return self();
  }

  public S setMaxIter(int value) {
    set(maxIter, value);
    return self();
  }

  public S setTol(double value) {
    set(tol, value);
    return self();
  }

  public S setSeed(long value) {
    set(seed, value);
    return self();
  }

  public S setCheckpointInterval(int value) {
    set(checkpointInterval, value);
    return self();
  }

  public S setExecutionMode(String value) {
    set(executionMode, value);
    return self();
  }

  @Override
  public StructType transformSchema(StructType schema) {
    return validateAndTransformSchema(schema);
  }

  /**
   * Fits in a Spark job group of its own, {@code sparkufs-<uid>-<k>} for this estimator's k-th
   * fit in the JVM (logged at INFO): cancelling that group stops the fit with a
   * {@link java.util.concurrent.CancellationException}.
   */
  @Override
  public UnsupervisedSelectorModel fit(Dataset<?> dataset) {
    try (SparkExecution execution = SparkExecution.startFit(
        JavaSparkContext.fromSparkContext(dataset.sparkSession().sparkContext()), methodName(),
        uid())) {
      return execution.run(() -> fit(dataset, execution));
    }
  }

  private UnsupervisedSelectorModel fit(Dataset<?> dataset, SparkExecution execution) {
    transformSchema(dataset.schema());
    int c = requiresNumClusters() ? getNumClusters() : 1;
    CommonOptions common = new CommonOptions(c, getNumNeighbors(), getMaxIter(), getTol(),
        getSeed(), getKnnAlgorithm());
    long start = System.nanoTime();
    RowBlockMatrix x = VectorBlocks.read(dataset, getFeaturesCol(),
        VectorBlocks.Placement.valueOf(getExecutionMode().toUpperCase(Locale.ROOT)),
        execution, getCheckpointInterval() > 0, "skip".equals(getHandleInvalid()));
    try {
      int n = x.numRows();
      if (requiresNumClusters() && n < c) {
        throw new IllegalArgumentException("numClusters = " + c + " exceeds the number of rows "
            + n + ": need at least one row per cluster");
      }
      if (usesSampleGraph() && n < getNumNeighbors() + 1) {
        throw new IllegalArgumentException("numNeighbors = " + getNumNeighbors() + " needs at least "
            + (getNumNeighbors() + 1) + " rows, got " + n);
      }
      checkShape(n, x.numCols());
      LOG.info("{}: {} rows x {} features read and checked in {} s; fitting on {} ({} blocks, {} BLAS)",
          methodName(), n, x.numCols(), String.format("%.2f", (System.nanoTime() - start) / 1e9),
          x.execution().isDistributed() ? "executors" : "the driver",
          x.blocks().numPartitions(), LinalgBackend.describe());
      SelectionResult result = createSolver(common).fit(x);
      x.execution().describe("constant features");
      ColumnStatistics stats = x.columnStatistics();
      SelectorSummary summary = SelectorSummary.of(this, common.seed(), n, stats, result,
          dataset.sparkSession().version(), (System.nanoTime() - start) / 1e9);
      UnsupervisedSelectorModel model = new UnsupervisedSelectorModel(uid, methodName(),
          FeatureRanking.withoutConstantFeatures(methodName(), result.scores(), stats),
          result.largerIsBetter(), summary);
      return copyValues(model, ParamMap.empty()).setParent(this);
    } finally {
      x.blocks().release();
    }
  }

  @Override
  public S copy(ParamMap extra) {
    return defaultCopy(extra);
  }

  @Override
  public MLWriter write() {
    return new DefaultParamsWriter(this);
  }
}
