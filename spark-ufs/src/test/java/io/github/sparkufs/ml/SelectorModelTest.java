package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.attribute.Attribute;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.attribute.NumericAttribute;
import org.apache.spark.ml.evaluation.Evaluator;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Selection modes, slicing of dense and sparse vectors, the output column's metadata and the
 * service registration.
 */
@ExtendWith(SparkSessionExtension.class)
class SelectorModelTest {

  // Feature 3 best, then 1, then 0 and 4 tie (lower index first), then 2.
  private static UnsupervisedSelectorModel model(boolean largerIsBetter) {
    double[] scores = largerIsBetter ? new double[] {2, 5, 1, 9, 2} : new double[] {-2, -5, -1, -9, -2};
    return new UnsupervisedSelectorModel("m", "test", scores, largerIsBetter, null);
  }

  @Test
  void rankingBreaksTiesByIndexInBothDirections() {
    assertArrayEquals(new int[] {3, 1, 0, 4, 2}, model(true).ranking());
    assertArrayEquals(new int[] {3, 1, 0, 4, 2}, model(false).ranking());
  }

  @Test
  void selectionModes() {
    UnsupervisedSelectorModel m = model(true);
    assertArrayEquals(new int[] {0, 1, 3}, m.setSelectionThreshold(3).selectedFeatures());
    assertArrayEquals(new int[] {0, 1, 2, 3, 4}, m.setSelectionThreshold(50).selectedFeatures());
    assertArrayEquals(new int[] {1, 3}, m.setSelectionMode("percentile").setSelectionThreshold(0.4)
        .selectedFeatures());
    assertArrayEquals(new int[] {0, 1, 3, 4}, m.setSelectionMode("scoreThreshold")
        .setSelectionThreshold(2).selectedFeatures());
    assertArrayEquals(new int[] {0, 1, 3, 4}, model(false).setSelectionMode("scoreThreshold")
        .setSelectionThreshold(-2).selectedFeatures());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> model(true).setSelectionMode("scoreThreshold").selectedFeatures());
    assertTrue(e.getMessage().contains("selectionThreshold"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> model(true).setSelectionThreshold(2.5).selectedFeatures());
    assertTrue(e.getMessage().contains("2.5"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> model(true).setSelectionMode("percentile").setSelectionThreshold(1.5).selectedFeatures());
    assertTrue(e.getMessage().contains("1.5"), e.getMessage());
  }

  @Test
  void slicesDenseAndSparseVectorsKeepingTheirKind(SparkSession spark) {
    StructType schema = new StructType().add("features", SQLDataTypes.VectorType());
    List<Row> rows = List.of(
        RowFactory.create(Vectors.dense(10, 11, 12, 13, 14)),
        RowFactory.create(Vectors.sparse(5, new int[] {1, 2, 4}, new double[] {21, 22, 24})),
        RowFactory.create(Vectors.sparse(5, new int[] {}, new double[] {})));
    Dataset<Row> df = TestData.fromRows(spark, rows, schema, 2);
    List<Row> out = model(true).setSelectionThreshold(3).transform(df)
        .select("selectedFeatures").collectAsList();
    Vector dense = (Vector) out.get(0).get(0);
    assertInstanceOf(DenseVector.class, dense);
    assertEquals(Vectors.dense(10, 11, 13), dense);
    Vector sparse = (Vector) out.get(1).get(0);
    assertInstanceOf(SparseVector.class, sparse);
    assertEquals(Vectors.sparse(3, new int[] {1}, new double[] {21}), sparse);
    assertEquals(Vectors.sparse(3, new int[] {}, new double[] {}), out.get(2).get(0));
  }

  @Test
  void keepsAttributesOfKeptFeatures(SparkSession spark) {
    Attribute[] attrs = new Attribute[5];
    for (int i = 0; i < 5; i++) {
      attrs[i] = NumericAttribute.defaultAttr().withName("f" + i).withIndex(i);
    }
    AttributeGroup group = new AttributeGroup("features", attrs);
    Dataset<Row> df = TestData.fromRows(spark,
        List.of(RowFactory.create(Vectors.dense(1, 2, 3, 4, 5))),
        new StructType().add(group.toStructField()), 1);
    Dataset<Row> out = model(true).setSelectionThreshold(2).transform(df);
    AttributeGroup kept = AttributeGroup.fromStructField(out.schema().apply("selectedFeatures"));
    assertEquals(2, kept.size());
    assertEquals("f1", kept.getAttr(0).name().get());
    assertEquals("f3", kept.getAttr(1).name().get());
    Dataset<Row> plain = TestData.vectors(spark, new io.github.sparkufs.linalg.DenseMatrix(5, 1), 1);
    AttributeGroup sized = AttributeGroup.fromStructField(
        model(true).setSelectionThreshold(2).transform(plain).schema().apply("selectedFeatures"));
    assertEquals(2, sized.size());
  }

  /**
   * What a Spark Connect client reads from the output schema, after the schema's JSON round
   * trip (the form in which it reaches the client): the kept features' attributes and all d
   * scores (a NaN among them), the ranking, the method and the kept indices.
   */
  @Test
  void outputColumnMetadataCarriesTheSelection(SparkSession spark) {
    double[] scores = {2, 5, Double.NaN, 9, Double.NEGATIVE_INFINITY};
    UnsupervisedSelectorModel m = new UnsupervisedSelectorModel("m", "test", scores, true, null)
        .setSelectionThreshold(2);
    Dataset<Row> df = TestData.vectors(spark, new io.github.sparkufs.linalg.DenseMatrix(5, 1), 1);
    StructType schema = (StructType) DataType.fromJson(m.transform(df).schema().json());
    StructField out = schema.apply("selectedFeatures");
    assertEquals(2, AttributeGroup.fromStructField(out).size());
    Metadata selection = out.metadata().getMetadata(UnsupervisedSelectorModel.METADATA_KEY);
    assertEquals("test", selection.getString("method"));
    assertTrue(selection.getBoolean("largerIsBetter"));
    assertArrayEquals(scores, Arrays.stream(selection.getStringArray("scores"))
        .mapToDouble(Double::parseDouble).toArray());
    assertArrayEquals(new long[] {3, 1, 0, 4, 2}, selection.getLongArray("ranking"));
    assertArrayEquals(new long[] {1, 3}, selection.getLongArray("selectedFeatures"));
  }

  /** Spark Connect finds stages through the service loader, which needs no-arg constructors. */
  @Test
  void everyStageIsRegisteredForTheServiceLoader() {
    Set<String> estimators = new HashSet<>();
    ServiceLoader.load(Estimator.class).forEach(e -> estimators.add(e.getClass().getName()));
    for (String name : Selectors.names()) {
      assertTrue(estimators.contains(Selectors.create(name).getClass().getName()), name);
    }
    assertTrue(ServiceLoader.load(Transformer.class).stream()
        .anyMatch(p -> p.type() == UnsupervisedSelectorModel.class));
    assertTrue(ServiceLoader.load(Evaluator.class).stream()
        .anyMatch(p -> p.type() == ClusteringAgreementEvaluator.class));
    assertEquals(0, new UnsupervisedSelectorModel().numFeatures());
  }

  @Test
  void rejectsVectorsOfAnotherSizeAtTransform(SparkSession spark) {
    Dataset<Row> df = TestData.fromRows(spark, List.of(RowFactory.create(Vectors.dense(1, 2))),
        new StructType().add("features", SQLDataTypes.VectorType()), 1);
    Exception e = assertThrows(Exception.class,
        () -> model(true).setSelectionThreshold(1).transform(df).collect());
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    assertTrue(root.getMessage().contains("size 2") && root.getMessage().contains("5 features"),
        root.getMessage());
  }
}
