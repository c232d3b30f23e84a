package io.github.sparkufs.ml;

import io.github.sparkufs.solver.FeatureRanking;
import java.util.Arrays;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The model every selector of this library produces: the full score vector of the fitted
 * method, its direction, and the {@link SelectorSummary} of the fit. Which features
 * {@link #transform} keeps follows the selection params, which can be changed after fitting.
 * Dense vectors stay dense and sparse vectors stay sparse. The output column carries the
 * selection in its metadata, for clients that cannot call the model (Spark Connect): the ML
 * attributes of the kept features ({@code AttributeGroup}, named as in the input column when it
 * has names) and, under {@value #METADATA_KEY}, {@code method}, {@code largerIsBetter}, all d
 * {@code scores}, the {@code ranking} (best first) and the {@code selectedFeatures}. The scores
 * are decimal strings ({@code Double.toString}, exact), since a constant feature's NaN, or an
 * infinite score, has no JSON number and Spark could not read the schema back.
 */
public final class UnsupervisedSelectorModel extends Model<UnsupervisedSelectorModel>
    implements SelectorParams, MLWritable {

  private static final long serialVersionUID = 1L;

  /** The output column's metadata key holding the selection. */
  public static final String METADATA_KEY = "sparkufs";

  private final String uid;
  private final String method;
  private final double[] scores;
  private final boolean largerIsBetter;
  private final SelectorSummary summary;
  private final Param<String> featuresCol;
  private final Param<String> outputCol;
  private final Param<String> selectionMode;
  private final DoubleParam selectionThreshold;

  /**
   * @param method the fitted method's name (e.g. "ndfs")
   * @param scores one score per input feature
   * @param largerIsBetter the direction of the scores
   * @param summary the fit's summary; null for a model saved without one (format 0)
   */
  public UnsupervisedSelectorModel(String uid, String method, double[] scores,
      boolean largerIsBetter, SelectorSummary summary) {
    this.uid = uid;
    this.method = method;
    this.scores = scores.clone();
    this.largerIsBetter = largerIsBetter;
    this.summary = summary;
    this.featuresCol = SelectorParams.featuresColParam(uid);
    this.outputCol = SelectorParams.outputColParam(uid);
    this.selectionMode = SelectorParams.selectionModeParam(uid);
    this.selectionThreshold = SelectorParams.selectionThresholdParam(uid);
    setDefault(featuresCol, "features");
    setDefault(outputCol, "selectedFeatures");
    setDefault(selectionMode, NUM_TOP_FEATURES);
  }

  /** An empty model of no features, for Spark's service loader (Spark Connect). */
  public UnsupervisedSelectorModel() {
    this(Identifiable.randomUID("unsupervisedSelectorModel"), "", new double[0], true, null);
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

  public UnsupervisedSelectorModel setFeaturesCol(String value) {
    set(featuresCol, value);
    return this;
  }

  public UnsupervisedSelectorModel setOutputCol(String value) {
    set(outputCol, value);
    return this;
  }

  public UnsupervisedSelectorModel setSelectionMode(String value) {
    set(selectionMode, value);
    return this;
  }

  public UnsupervisedSelectorModel setSelectionThreshold(double value) {
    set(selectionThreshold, value);
    return this;
  }

  /** The fitted method's name, as the CLI spells it. */
  public String method() {
    return method;
  }

  /** Number of input features. */
  public int numFeatures() {
    return scores.length;
  }

  /**
   * One score per input feature; NaN for a feature that is constant over the fitted rows, which
   * ranks after every other feature and is never kept by a threshold.
   */
  public double[] scores() {
    return scores.clone();
  }

  /** Whether a higher score marks a better feature (false for the Laplacian Score). */
  public boolean isLargerBetter() {
    return largerIsBetter;
  }

  /** All feature indices, best first; ties go to the lower index. */
  public int[] ranking() {
    return FeatureRanking.rank(scores, largerIsBetter);
  }

  /** Whether the model has its fit's summary: every model but those saved in format 0. */
  public boolean hasSummary() {
    return summary != null;
  }

  /** The fit's summary; saved and loaded with the model. */
  public SelectorSummary summary() {
    if (summary == null) {
      throw new IllegalStateException("UnsupervisedSelectorModel " + uid + " has no summary: "
          + "it was loaded from a model saved without one (format 0, spark-ufs 0.1.0)");
    }
    return summary;
  }

  /** The indices the selection params keep, ascending (the order of the output vector). */
  public int[] selectedFeatures() {
    validateSelection();
    double t = getSelectionThreshold();
    int d = scores.length;
    switch (getSelectionMode()) {
      case NUM_TOP_FEATURES:
        return FeatureRanking.top(scores, largerIsBetter, (int) Math.min(d, t));
      case PERCENTILE:
        return FeatureRanking.top(scores, largerIsBetter, (int) (d * t));
      default:
        return java.util.stream.IntStream.range(0, d)
            .filter(i -> largerIsBetter ? scores[i] >= t : scores[i] <= t)
            .toArray();
    }
  }

  @Override
  public StructType transformSchema(StructType schema) {
    StructType out = validateAndTransformSchema(schema);
    int[] kept = selectedFeatures();
    StructField field = SelectorParams.outputField(schema.apply(getFeaturesCol()), getOutputCol(),
        kept);
    Metadata metadata = new MetadataBuilder().withMetadata(field.metadata())
        .putMetadata(METADATA_KEY, selectionMetadata(kept)).build();
    StructField[] fields = out.fields().clone();
    fields[fields.length - 1] = new StructField(field.name(), field.dataType(), field.nullable(),
        metadata);
    return new StructType(fields);
  }

  private Metadata selectionMetadata(int[] kept) {
    return new MetadataBuilder()
        .putString("method", method)
        .putBoolean("largerIsBetter", largerIsBetter)
        .putStringArray("scores", Arrays.stream(scores).mapToObj(Double::toString)
            .toArray(String[]::new))
        .putLongArray("ranking", Arrays.stream(ranking()).asLongStream().toArray())
        .putLongArray("selectedFeatures", Arrays.stream(kept).asLongStream().toArray())
        .build();
  }

  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    StructType schema = transformSchema(dataset.schema());
    StructField out = schema.apply(getOutputCol());
    int[] kept = selectedFeatures();
    int expected = scores.length;
    UserDefinedFunction slice = functions.udf(
        (UDF1<Vector, Vector>) v -> v == null ? null : slice(v, kept, expected),
        SQLDataTypes.VectorType());
    return dataset.withColumn(getOutputCol(), slice.apply(dataset.col(getFeaturesCol())),
        out.metadata());
  }

  /** The kept entries of v; sparse stays sparse. */
  static Vector slice(Vector v, int[] kept, int expectedSize) {
    if (v.size() != expectedSize) {
      throw new IllegalArgumentException("vector of size " + v.size() + " given to a model fitted on "
          + expectedSize + " features");
    }
    if (v instanceof SparseVector) {
      SparseVector s = (SparseVector) v;
      int[] idx = s.indices();
      double[] val = s.values();
      int[] outIdx = new int[Math.min(idx.length, kept.length)];
      double[] outVal = new double[outIdx.length];
      int nnz = 0;
      int p = 0;
      for (int q = 0; q < kept.length && p < idx.length; q++) {
        while (p < idx.length && idx[p] < kept[q]) {
          p++;
        }
        if (p < idx.length && idx[p] == kept[q]) {
          outIdx[nnz] = q;
          outVal[nnz++] = val[p];
        }
      }
      return Vectors.sparse(kept.length, Arrays.copyOf(outIdx, nnz), Arrays.copyOf(outVal, nnz));
    }
    double[] values = ((DenseVector) v.toDense()).values();
    double[] out = new double[kept.length];
    for (int q = 0; q < kept.length; q++) {
      out[q] = values[kept[q]];
    }
    return Vectors.dense(out);
  }

  @Override
  public UnsupervisedSelectorModel copy(ParamMap extra) {
    UnsupervisedSelectorModel copy = new UnsupervisedSelectorModel(uid, method, scores,
        largerIsBetter, summary);
    return copyValues(copy, extra).setParent(parent());
  }

  @Override
  public MLWriter write() {
    return new SelectorModelPersistence.Writer(this);
  }

  public static MLReader<UnsupervisedSelectorModel> read() {
    return new SelectorModelPersistence.Reader();
  }

  public static UnsupervisedSelectorModel load(String path) {
    return read().load(path);
  }

  @Override
  public String toString() {
    return "UnsupervisedSelectorModel: uid=" + uid + ", method=" + method + ", numFeatures="
        + scores.length;
  }
}
