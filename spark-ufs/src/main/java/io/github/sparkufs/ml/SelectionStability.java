package io.github.sparkufs.ml;

import io.github.sparkufs.eval.FeatureCountSuggestion;
import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.eval.StabilityCurve;
import io.github.sparkufs.linalg.DoubleArrays;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.function.Function;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.feature.VectorSlicer;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;

/**
 * How stable a selector's choice is: it is refitted on {@code numResamples} resamples of the
 * data (subsamples of {@code sampleFraction} of the rows without replacement, or bootstrap
 * resamples), {@code parallelism} fits at a time as concurrent Spark jobs (as
 * {@code CrossValidator} does), and for each m of {@code numFeatures} the result gives how
 * often each feature was among the top m and the stability indices of the runs (Nogueira et
 * al.'s Φ with its 95% interval, Kuncheva's index; see {@link StabilityCurve}). The resamples
 * are drawn by {@code Dataset.sample} with seeds drawn from {@code seed}, so a result is
 * deterministic for a seed, the selector's own seed and the data's partitioning.
 * {@link #suggestNumFeatures} adds the full-data fit's score curve and, with a
 * {@link KMeansSilhouetteEvaluator}, the silhouette of k-means on the top m features and its
 * median over {@code randomDraws} draws of m random features, and suggests an m with that
 * evidence ({@link FeatureCountSuggestion}).
 */
public final class SelectionStability {

  /** Draws of m random features per m when {@link #setRandomDraws} is not called. */
  public static final int DEFAULT_RANDOM_DRAWS = 5;

  private int numResamples = 20;
  private double sampleFraction = 0.8;
  private boolean bootstrap;
  private int[] numFeatures = {10, 20, 50, 100};
  private long seed = SelectionStability.class.getName().hashCode();
  private int parallelism = 1;
  private int randomDraws = DEFAULT_RANDOM_DRAWS;

  /** Fits per evaluation (>= 2; default 20). */
  public SelectionStability setNumResamples(int value) {
    if (value < 2) {
      throw new IllegalArgumentException("numResamples must be >= 2, got " + value);
    }
    numResamples = value;
    return this;
  }

  /** The fraction of rows in each subsample, in (0, 1] (default 0.8); unused for bootstrap. */
  public SelectionStability setSampleFraction(double value) {
    if (!(value > 0 && value <= 1)) {
      throw new IllegalArgumentException("sampleFraction must be in (0, 1], got " + value);
    }
    sampleFraction = value;
    return this;
  }

  /** Bootstrap resamples (n rows drawn with replacement) instead of subsamples. */
  public SelectionStability setBootstrap(boolean value) {
    bootstrap = value;
    return this;
  }

  /** The numbers of top features m evaluated: ascending, each >= 1 and below d. */
  public SelectionStability setNumFeatures(int... values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("numFeatures needs at least one m");
    }
    for (int i = 0; i < values.length; i++) {
      if (values[i] < 1 || (i > 0 && values[i] <= values[i - 1])) {
        throw new IllegalArgumentException("numFeatures must ascend from >= 1, got "
            + Arrays.toString(values));
      }
    }
    numFeatures = values.clone();
    return this;
  }

  public SelectionStability setSeed(long value) {
    seed = value;
    return this;
  }

  /** Fits run at a time (>= 1; default 1), each as its own Spark jobs. */
  public SelectionStability setParallelism(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("parallelism must be >= 1, got " + value);
    }
    parallelism = value;
    return this;
  }

  /**
   * Draws of m random features whose median silhouette {@link #suggestNumFeatures} sets against
   * the top m's (>= 1; default {@value #DEFAULT_RANDOM_DRAWS}).
   */
  public SelectionStability setRandomDraws(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("randomDraws must be >= 1, got " + value);
    }
    randomDraws = value;
    return this;
  }

  public int getNumResamples() {
    return numResamples;
  }

  public double getSampleFraction() {
    return sampleFraction;
  }

  public boolean getBootstrap() {
    return bootstrap;
  }

  public int[] getNumFeatures() {
    return numFeatures.clone();
  }

  public long getSeed() {
    return seed;
  }

  public int getParallelism() {
    return parallelism;
  }

  public int getRandomDraws() {
    return randomDraws;
  }

  /** Refits {@code selector} on the resamples of {@code dataset}; its stability against m. */
  public StabilityCurve evaluate(UnsupervisedSelector<?> selector, Dataset<?> dataset) {
    checkNumFeatures(selector, dataset);
    return onCached(dataset, data -> refit(selector, data));
  }

  private StabilityCurve refit(UnsupervisedSelector<?> selector, Dataset<?> dataset) {
    SplittableRandom seeds = new SplittableRandom(seed);
    int[][] rankings = new int[numResamples][];
    ExecutorService pool = Executors.newFixedThreadPool(parallelism);
    try {
      List<Future<int[]>> fits = new ArrayList<>();
      for (int r = 0; r < numResamples; r++) {
        Dataset<?> resample = dataset.sample(bootstrap, bootstrap ? 1.0 : sampleFraction,
            seeds.nextLong());
        fits.add(pool.submit(() -> selector.fit(resample).ranking()));
      }
      for (int r = 0; r < numResamples; r++) {
        rankings[r] = fits.get(r).get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while refitting " + selector.methodName(), e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause
          : new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
    return StabilityCurve.of(rankings, numFeatures);
  }

  /**
   * The stability curve, the score curve of a fit on all of {@code dataset} and, when
   * {@code clustering} is not null, for each m its silhouette on the top m features (its
   * {@code featuresCol} set to the selector's {@code outputCol}) and the median of its
   * silhouettes on {@code randomDraws} draws of m features chosen uniformly at random (a
   * generator seeded with {@code seed} for each m); an m suggested from them.
   */
  public FeatureCountSuggestion suggestNumFeatures(UnsupervisedSelector<?> selector,
      Dataset<?> dataset, KMeansSilhouetteEvaluator clustering) {
    return onCached(dataset, data -> suggest(selector, data, clustering));
  }

  private FeatureCountSuggestion suggest(UnsupervisedSelector<?> selector, Dataset<?> dataset,
      KMeansSilhouetteEvaluator clustering) {
    StabilityCurve curve = evaluate(selector, dataset);
    UnsupervisedSelectorModel model = selector.fit(dataset);
    double[] scores = model.scores();
    double[] silhouettes = new double[clustering == null ? 0 : numFeatures.length];
    double[] randomSilhouettes = new double[silhouettes.length];
    for (int i = 0; i < silhouettes.length; i++) {
      KMeansSilhouetteEvaluator onOutput = clustering.copy(ParamMap.empty())
          .setFeaturesCol(model.getOutputCol());
      model.setSelectionMode(SelectorParams.NUM_TOP_FEATURES)
          .setSelectionThreshold(numFeatures[i]);
      silhouettes[i] = onOutput.evaluate(model.transform(dataset));
      SplittableRandom draws = new SplittableRandom(seed);
      double[] random = new double[randomDraws];
      for (int r = 0; r < randomDraws; r++) {
        int[] columns = PlantedClusters.choose(scores.length, numFeatures[i], draws);
        Arrays.sort(columns);
        random[r] = onOutput.evaluate(new VectorSlicer().setInputCol(selector.getFeaturesCol())
            .setOutputCol(model.getOutputCol()).setIndices(columns).transform(dataset));
      }
      randomSilhouettes[i] = DoubleArrays.median(random);
    }
    int[] ranking = model.ranking();
    double[] sorted = new double[ranking.length];
    for (int r = 0; r < ranking.length; r++) {
      sorted[r] = model.isLargerBetter() ? scores[ranking[r]] : -scores[ranking[r]];
    }
    return FeatureCountSuggestion.of(sorted, curve, silhouettes, randomSilhouettes);
  }

  /**
   * {@code work} on {@code dataset} cached, unless it already is, so that the refits and
   * evaluations that each read it read its source once; uncached again after.
   */
  static <T> T onCached(Dataset<?> dataset, Function<Dataset<?>, T> work) {
    if (!dataset.storageLevel().equals(StorageLevel.NONE())) {
      return work.apply(dataset);
    }
    dataset.persist();
    try {
      return work.apply(dataset);
    } finally {
      dataset.unpersist();
    }
  }

  /** The grid's largest m is below d, checked before any fit (d from metadata or row 1). */
  private void checkNumFeatures(UnsupervisedSelector<?> selector, Dataset<?> dataset) {
    StructType schema = dataset.schema();
    String column = selector.getFeaturesCol();
    Columns.require(schema.fieldNames(), column);
    int d = AttributeGroup.fromStructField(schema.apply(column)).size();
    if (d < 0) {
      List<Row> first = dataset.select(column).limit(1).collectAsList();
      if (first.isEmpty()) {
        throw new IllegalArgumentException("the dataset has no rows");
      }
      d = ((Vector) first.get(0).get(0)).size();
    }
    int largest = numFeatures[numFeatures.length - 1];
    if (largest >= d) {
      throw new IllegalArgumentException("numFeatures must stay below d = " + d
          + " features, got " + Arrays.toString(numFeatures));
    }
  }
}
