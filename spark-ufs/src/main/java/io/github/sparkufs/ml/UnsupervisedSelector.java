package io.github.sparkufs.ml;

import io.github.sparkufs.linalg.ColumnStatistics;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureRanking;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.ParamSpec;
import io.github.sparkufs.solver.Range;
import io.github.sparkufs.solver.SelectionResult;
import io.github.sparkufs.spark.SparkExecution;
import io.github.sparkufs.spark.VectorBlocks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.DefaultParamsWriter;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The base of every selector in this library, in the manner of Spark's {@code Selector}: it
 * owns the params every method shares (columns, selection, where the data live, invalid rows),
 * checks the input, turns the features column into blocks and hands them to the method's
 * pure-Java solver. A method's own params are declared once, as the {@link ParamSpec}s of its
 * solver; this class makes the Spark params from them, and the generated
 * {@code <Method>SelectorParams} class gives them typed getters and setters. {@code fit}
 * returns an {@link UnsupervisedSelectorModel}.
 *
 * @param <S> the concrete selector, so that setters chain
 */
public abstract class UnsupervisedSelector<S extends UnsupervisedSelector<S>>
    extends Estimator<UnsupervisedSelectorModel> implements SelectorParams, MLWritable {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(UnsupervisedSelector.class);

  /** Where the blocks live; every method. */
  public static final ParamSpec<String> EXECUTION_MODE = ParamSpec.choice("executionMode", "auto",
      List.of("auto", "driver", "distributed"), "", "where the blocks live: auto (on the driver "
          + "when n*d <= " + VectorBlocks.DRIVER_LIMIT + "), driver, or distributed");
  /** What to do with invalid rows; every method. */
  public static final ParamSpec<String> HANDLE_INVALID = ParamSpec.choice("handleInvalid",
      "error", List.of("error", "skip"), "", "rows with a null vector or a NaN or infinite "
          + "value: error (fail the fit, naming the row) or skip (leave them out)");
  /** How the distributed blocks are cached, as Spark's ALS names it; every method. */
  public static final ParamSpec<String> INTERMEDIATE_STORAGE_LEVEL = ParamSpec.choice(
      "intermediateStorageLevel", VectorBlocks.AUTO_STORAGE, List.of(VectorBlocks.AUTO_STORAGE,
          "MEMORY_AND_DISK", "MEMORY_AND_DISK_SER", "DISK_ONLY"), "", "storage level of the "
          + "distributed blocks a fit caches (its input and the blocks derived from it): auto "
          + "(MEMORY_AND_DISK, or DISK_ONLY when the input exceeds half of the executors' "
          + "storage memory), MEMORY_AND_DISK, MEMORY_AND_DISK_SER or DISK_ONLY");
  /** Checkpointing of the distributed blocks; the iterative methods (those with maxIter). */
  public static final ParamSpec<Integer> CHECKPOINT_INTERVAL = ParamSpec.integer(
      "checkpointInterval", 10, Range.atLeast(1).or(-1), "", "checkpoint the distributed input "
          + "blocks once, when read, if a checkpoint directory is set (any value >= 1; the fit "
          + "deletes its checkpoint when it ends), or never (-1); no method carries distributed "
          + "state from one iteration to the next (each computes on the cached input or on "
          + "blocks derived from it afresh), so lineage does not grow with the iterations and "
          + "values above 1 act like 1");

  /**
   * {@link ColumnStatistics#rangeSpread()} above which the features look to be on unrelated
   * scales. Measured on 10 draws of each of docs/recall.md's families: 8.52 to 9.10 (mean 8.77)
   * on small-scale-signal, where every method but udfs found none of the planted features; at
   * most 2.73 on the other six (heavy-tailed-noise 2.05 to 2.73, mean 2.32; the rest 1.12 to
   * 1.51). On same-unit benchmark data: digits 2.67, JAFFE 1.57, COIL20 1.48, warpPIE10P 1.40,
   * ORL 1.28, Yale 1.26, Isolet1 1.22, USPS 1.00.
   */
  static final double MAX_RANGE_SPREAD = 5;

  private final String uid;
  private final Param<String> featuresCol;
  private final Param<String> outputCol;
  private final Param<String> selectionMode;
  private final DoubleParam selectionThreshold;
  private final List<ParamSpec<?>> solverParams;
  private final List<ParamSpec<?>> methodParams;
  private final Map<String, Param<?>> declared = new LinkedHashMap<>();

  /** @param solverParams the params of the method's solver, its {@code PARAMS} */
  protected UnsupervisedSelector(String uid, List<ParamSpec<?>> solverParams) {
    this.uid = uid;
    this.solverParams = List.copyOf(solverParams);
    List<ParamSpec<?>> all = new ArrayList<>(List.of(EXECUTION_MODE, HANDLE_INVALID,
        INTERMEDIATE_STORAGE_LEVEL));
    all.addAll(solverParams);
    if (solverParams.contains(CommonOptions.MAX_ITER)) {
      all.add(CHECKPOINT_INTERVAL);
    }
    this.methodParams = List.copyOf(all);
    featuresCol = SelectorParams.featuresColParam(uid);
    outputCol = SelectorParams.outputColParam(uid);
    selectionMode = SelectorParams.selectionModeParam(uid);
    selectionThreshold = SelectorParams.selectionThresholdParam(uid);
    setDefault(featuresCol, "features");
    setDefault(outputCol, "selectedFeatures");
    setDefault(selectionMode, NUM_TOP_FEATURES);
    for (ParamSpec<?> spec : methodParams) {
      Param<Object> param = SparkParams.create(uid, spec);
      declared.put(spec.name(), param);
      if (spec.defaultValue() != null) {
        setDefault(param, external(spec));
      }
    }
    if (solverParams.contains(CommonOptions.SEED)) {
      // As Spark's HasSeed: the default seed is the hash of the class name.
      setDefault(param(CommonOptions.SEED.name()), (long) getClass().getName().hashCode());
    }
  }

  private static <T> Object external(ParamSpec<T> spec) {
    return spec.toExternal(spec.defaultValue());
  }

  /** The method's name, as the CLI spells it (e.g. "ndfs"). */
  public abstract String methodName();

  /** The method's solver for the given values of its solver's params. */
  protected abstract FeatureSelectionSolver createSolver(MethodOptions options);

  /**
   * The params this method declares beyond the columns and the selection, in order: those of
   * every method, its solver's, and {@code checkpointInterval} when it iterates.
   */
  public List<ParamSpec<?>> declaredParams() {
    return methodParams;
  }

  /** The Spark param of a declared param. */
  protected final Param<Object> param(String name) {
    @SuppressWarnings("unchecked")
    Param<Object> param = (Param<Object>) declared.get(name);
    if (param == null) {
      throw new IllegalArgumentException(methodName() + " has no param " + name);
    }
    return param;
  }

  /**
   * The Spark param {@code name} of a selector, for the accessors of {@link
   * SharedSelectorParams}: {@code getParam} would recurse, as Spark finds a stage's params by
   * calling its accessors.
   */
  static Param<?> declaredParam(Params selector, String name) {
    return ((UnsupervisedSelector<?>) selector).param(name);
  }

  /** The value of a stage's param; throws naming the param when it has none. */
  static Object valueOf(Params stage, Param<?> param) {
    if (!stage.isDefined(param)) {
      String name = param.name();
      String method = stage instanceof UnsupervisedSelector<?> selector ? selector.methodName()
          : stage.getClass().getSimpleName();
      throw new IllegalArgumentException(method + " needs " + name + "; it has no default: call "
          + "set" + Character.toUpperCase(name.charAt(0)) + name.substring(1) + "(...)");
    }
    return stage.getOrDefault(param);
  }

  /**
   * Sets the param {@code name} when this method has it, and does nothing otherwise: for code
   * that gives several methods the same settings (e.g. numClusters and seed in a benchmark).
   */
  public S setIfPresent(String name, Object value) {
    if (hasParam(name)) {
      set(getParam(name), value);
    }
    return self();
  }

  /** Whether the method needs {@code numClusters}: where it declares it, unless overridden. */
  protected boolean requiresNumClusters() {
    return declared.containsKey(CommonOptions.NUM_CLUSTERS.name());
  }

  /** Whether the method builds a kNN graph over samples, so needs n ≥ numNeighbors + 1. */
  private boolean usesSampleGraph() {
    return declared.containsKey(CommonOptions.KNN_ALGORITHM.name());
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

  /** auto, driver or distributed. */
  @SuppressWarnings("unchecked")
  public Param<String> executionMode() {
    return (Param<String>) (Param<?>) param(EXECUTION_MODE.name());
  }

  public String getExecutionMode() {
    return getOrDefault(executionMode());
  }

  public S setExecutionMode(String value) {
    set(executionMode(), value);
    return self();
  }

  /** auto (default), MEMORY_AND_DISK, MEMORY_AND_DISK_SER or DISK_ONLY. */
  @SuppressWarnings("unchecked")
  public Param<String> intermediateStorageLevel() {
    return (Param<String>) (Param<?>) param(INTERMEDIATE_STORAGE_LEVEL.name());
  }

  public String getIntermediateStorageLevel() {
    return getOrDefault(intermediateStorageLevel());
  }

  public S setIntermediateStorageLevel(String value) {
    set(intermediateStorageLevel(), value);
    return self();
  }

  /** error (default) or skip. */
  @SuppressWarnings("unchecked")
  public Param<String> handleInvalid() {
    return (Param<String>) (Param<?>) param(HANDLE_INVALID.name());
  }

  public String getHandleInvalid() {
    return getOrDefault(handleInvalid());
  }

  public S setHandleInvalid(String value) {
    set(handleInvalid(), value);
    return self();
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

  /**
   * Sets the selection threshold, checked against {@code selectionMode} when that was set
   * before it (and against the mode in force again before every fit).
   */
  public S setSelectionThreshold(double value) {
    set(selectionThreshold, value);
    if (isSet(selectionMode)) {
      validateSelection();
    }
    return self();
  }

  /** Shorthand for {@code numTopFeatures} mode with threshold m. */
  public S setNumTopFeatures(int m) {
    return setSelectionMode(NUM_TOP_FEATURES).setSelectionThreshold(m);
  }

  @Override
  public StructType transformSchema(StructType schema) {
    return validateAndTransformSchema(schema);
  }

  /**
   * Fits in a Spark job group of its own, {@code sparkufs-<uid>-<k>} for this estimator's k-th
   * fit in the JVM (logged at INFO): {@code SparkContext.cancelJobGroupAndFutureJobs} of that
   * group stops the fit with a {@link java.util.concurrent.CancellationException}.
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
    MethodOptions options = MethodOptions.of(solverParams);
    for (ParamSpec<?> spec : solverParams) {
      Param<Object> param = param(spec.name());
      if (isDefined(param)) {
        options = with(options, spec, getOrDefault(param));
      }
    }
    int c = requiresNumClusters() ? (Integer) valueOf(this, param(CommonOptions.NUM_CLUSTERS.name()))
        : 0;
    // The summary's seed: the method's, or 0 for a method that draws nothing at random.
    long seed = solverParams.contains(CommonOptions.SEED) ? options.common().seed() : 0;
    int k = usesSampleGraph() ? options.common().numNeighbors() : 0;
    boolean checkpoint = declared.containsKey(CHECKPOINT_INTERVAL.name())
        && (Integer) getOrDefault(param(CHECKPOINT_INTERVAL.name())) > 0;
    FeatureSelectionSolver solver = createSolver(options);
    long start = System.nanoTime();
    RowBlockMatrix x = VectorBlocks.read(dataset, getFeaturesCol(),
        VectorBlocks.Placement.valueOf(getExecutionMode().toUpperCase(Locale.ROOT)),
        execution, checkpoint, getIntermediateStorageLevel(), "skip".equals(getHandleInvalid()),
        solver.denseInputReason(),
        solver::driverNeed);
    try {
      int n = x.numRows();
      if (c > n) {
        throw new IllegalArgumentException("numClusters = " + c + " exceeds the number of rows "
            + n + ": need at least one row per cluster");
      }
      if (usesSampleGraph() && n < k + 1) {
        throw new IllegalArgumentException("numNeighbors = " + k + " needs at least "
            + (k + 1) + " rows, got " + n);
      }
      if (x.columnStatistics().numConstant() == x.numCols()) {
        throw new IllegalArgumentException("Every one of the " + x.numCols() + " features of "
            + "column '" + getFeaturesCol() + "' is constant over the " + n + " rows: no "
            + "feature varies, so none carries structure to select");
      }
      checkShape(n, x.numCols());
      warnOfDocumentedWeaknesses(solver, n, x.numCols(), x.columnStatistics());
      LOG.info("{}: {} rows x {} features read and checked in {} s; fitting on {} ({} blocks, {} BLAS)",
          methodName(), n, x.numCols(), String.format("%.2f", (System.nanoTime() - start) / 1e9),
          x.execution().isDistributed() ? "executors" : "the driver",
          x.blocks().numPartitions(), LinalgBackend.describe());
      SelectionResult result = solver.fit(x);
      x.execution().describe("constant features");
      ColumnStatistics stats = x.columnStatistics();
      SelectorSummary summary = SelectorSummary.of(this, seed, n, stats, result,
          dataset.sparkSession().version(), (System.nanoTime() - start) / 1e9,
          SelectorParams.featureNames(dataset.schema().apply(getFeaturesCol())));
      UnsupervisedSelectorModel model = new UnsupervisedSelectorModel(uid, methodName(),
          FeatureRanking.withoutConstantFeatures(methodName(), result.scores(), stats),
          result.largerIsBetter(), summary);
      return copyValues(model, ParamMap.empty()).setParent(this);
    } finally {
      x.blocks().release();
    }
  }

  /**
   * Warns when the data look like a case where docs/recall.md measured this method losing the
   * planted features: many features for the rows, for a method that regresses on the features;
   * features on unrelated scales, for a method that is not scale-free.
   */
  private void warnOfDocumentedWeaknesses(FeatureSelectionSolver solver, int n, int d,
      ColumnStatistics stats) {
    if (solver.losesPlantedFeaturesWhenWide() && d >= n) {
      LOG.warn("{}: d = {} features for n = {} rows: its regression can fit any clustering "
          + "with noise columns, and on planted data this wide it found fewer of the planted "
          + "features than lapscore (docs/recall.md, many-noise and few-samples; "
          + "docs/methods/{}.md); compare with lapscore (`compare`) or check `stability` "
          + "(docs/no-labels.md)", methodName(), d, n, methodName());
    }
    double spread = stats.rangeSpread();
    if (!solver.isScaleFree() && spread > MAX_RANGE_SPREAD) {
      LOG.warn("{}: the features' ranges differ by a factor of {} (median over 10th percentile): "
          + "the scores follow the features on the larger scale, and only udfs and the methods "
          + "with featureScaling found the planted features on a smaller scale (docs/recall.md, "
          + "small-scale-signal); standardise the column first (StandardScaler) unless the "
          + "scales are meaningful", methodName(),
          String.format(Locale.ROOT, "%.1f", spread));
    }
  }

  private static <T> MethodOptions with(MethodOptions options, ParamSpec<T> spec,
      Object external) {
    return options.with(spec, spec.fromExternal(external));
  }

  @Override
  public MLWriter write() {
    return new DefaultParamsWriter(this);
  }
}
