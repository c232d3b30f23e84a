package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every bad input gets an IllegalArgumentException whose message names the problem and the
 * value, raised before any solver work.
 */
@ExtendWith(SparkSessionExtension.class)
class InputValidationTest {

  private static SparkSession spark;
  private static final StructType SCHEMA = new StructType().add("features", SQLDataTypes.VectorType());

  @BeforeAll
  static void session(SparkSession s) {
    spark = s;
  }

  private static Dataset<Row> rows(Object... vectors) {
    List<Row> rows = new ArrayList<>();
    for (Object v : vectors) {
      rows.add(RowFactory.create(v));
    }
    return TestData.fromRows(spark, rows, SCHEMA, 2);
  }

  private static Dataset<Row> good(int n) {
    DenseMatrix x = new DenseMatrix(3, n);
    for (int i = 0; i < x.data().length; i++) {
      x.data()[i] = (i * 7919 % 101) / 10.0;
    }
    return TestData.vectors(spark, x, 2);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("missing column", (Function<LaplacianScoreSelector, Object>)
            s -> s.setFeaturesCol("nope").fit(good(20)), "'nope' does not exist"),
        Arguments.of("wrong column type", (Function<LaplacianScoreSelector, Object>)
            s -> s.fit(TestData.fromRows(spark, List.of(RowFactory.create(1.0)),
                new StructType().add("features", DataTypes.DoubleType), 1)), "must be of type"),
        Arguments.of("null vector", (Function<LaplacianScoreSelector, Object>)
            s -> s.fit(rows(Vectors.dense(1, 2), null, Vectors.dense(3, 4))), "Row 1"),
        Arguments.of("NaN value", (Function<LaplacianScoreSelector, Object>)
            s -> s.fit(rows(Vectors.dense(1, 2), Vectors.dense(3, 4), Vectors.dense(1, Double.NaN))),
            "Row 2 of column 'features' has the non-finite value NaN at feature 1"),
        Arguments.of("infinite value", (Function<LaplacianScoreSelector, Object>)
            s -> s.fit(rows(Vectors.sparse(2, new int[] {0}, new double[] {Double.POSITIVE_INFINITY}))),
            "Infinity at feature 0"),
        Arguments.of("mixed sizes across partitions", (Function<LaplacianScoreSelector, Object>)
            s -> s.fit(rows(Vectors.dense(1, 2), Vectors.dense(1, 2, 3))), "has 3 features, but row 0 has 2"),
        Arguments.of("mixed sizes in a partition", (Function<LaplacianScoreSelector, Object>)
            s -> s.fit(TestData.fromRows(spark, List.of(RowFactory.create(Vectors.dense(1, 2)),
                RowFactory.create(Vectors.dense(1))), SCHEMA, 1)), "Row 1 of column 'features' has 1 features"),
        Arguments.of("empty data", (Function<LaplacianScoreSelector, Object>)
            s -> s.fit(rows()), "empty"),
        Arguments.of("fewer rows than numNeighbors + 1", (Function<LaplacianScoreSelector, Object>)
            s -> s.setNumNeighbors(5).fit(good(5)), "numNeighbors = 5 needs at least 6 rows, got 5"),
        Arguments.of("output column exists", (Function<LaplacianScoreSelector, Object>)
            s -> s.setOutputCol("features").fit(good(20)), "'features' already exists"),
        Arguments.of("invalid numNeighbors", (Function<LaplacianScoreSelector, Object>)
            s -> s.setNumNeighbors(0), "numNeighbors given invalid value 0"),
        Arguments.of("invalid selection mode", (Function<LaplacianScoreSelector, Object>)
            s -> s.setSelectionMode("best"), "selectionMode given invalid value best"),
        Arguments.of("invalid executionMode", (Function<LaplacianScoreSelector, Object>)
            s -> s.setExecutionMode("gpu"), "executionMode given invalid value gpu"),
        Arguments.of("unknown param", (Function<LaplacianScoreSelector, Object>)
            s -> s.getParam("alpha"), "alpha"),
        Arguments.of("negative kernel width", (Function<LaplacianScoreSelector, Object>)
            s -> s.setKernelWidth(-1), "kernelWidth given invalid value -1.0"),
        // The selection is checked before the data are read: a null row would be named first.
        Arguments.of("no features to keep", (Function<LaplacianScoreSelector, Object>)
            s -> s.setNumTopFeatures(0).fit(rows(Vectors.dense(1, 2), null)),
            "selectionThreshold must be a whole number >= 1 for numTopFeatures, got 0.0"),
        Arguments.of("percentile above one", (Function<LaplacianScoreSelector, Object>)
            s -> s.setSelectionMode("percentile").setSelectionThreshold(1.5)
                .fit(rows(Vectors.dense(1, 2), null)),
            "selectionThreshold must be in [0, 1] for percentile, got 1.5"),
        Arguments.of("score threshold unset", (Function<LaplacianScoreSelector, Object>)
            s -> s.setSelectionMode("scoreThreshold").fit(rows(Vectors.dense(1, 2), null)),
            "selectionMode scoreThreshold needs selectionThreshold to be set"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badInputIsRejectedWithAClearMessage(String what,
      Function<LaplacianScoreSelector, Object> action, String expected) {
    Exception e = assertThrows(Exception.class, () -> action.apply(new LaplacianScoreSelector()));
    assertTrue(e.getMessage() != null && e.getMessage().contains(expected),
        what + ": message was: " + e.getMessage());
  }

  @Test
  void baselineSpecificParamsAndShapesAreChecked() {
    assertMessage("numNonZeros given invalid value 0", () -> new McfsSelector().setNumNonZeros(0));
    assertMessage("numClusters = 19 needs at least 21 rows for its non-trivial eigenvectors, got 20",
        () -> new McfsSelector().setNumClusters(19).setNumNeighbors(2).fit(good(20)));
    assertMessage("gamma given invalid value 0.0", () -> new UdfsSelector().setGamma(0));
    assertMessage("lambda given invalid value -1.0", () -> new UdfsSelector().setLambda(-1));
    assertMessage("numClusters = 4 exceeds the number of features 3",
        () -> new UdfsSelector().setNumClusters(4).fit(good(20)));
    assertMessage("scoreType given invalid value 4", () -> new SpecSelector().setScoreType(4));
    assertMessage("numClusters", () -> new SpecSelector().setScoreType(3).fit(good(20)));
    assertMessage("numClusters = 19 needs at least 21 rows for its non-trivial eigenvectors, got 20",
        () -> new SpecSelector().setScoreType(3).setNumClusters(19).setNumNeighbors(2)
            .fit(good(20)));
    // φ1 and φ2 do not use numClusters.
    assertEquals(3, new SpecSelector().setScoreType(1).fit(good(20)).numFeatures());
  }

  @Test
  void aThresholdIsCheckedWhenSetAfterItsMode() {
    assertMessage("selectionThreshold must be in [0, 1] for percentile, got 1.5",
        () -> new NdfsSelector().setSelectionMode("percentile").setSelectionThreshold(1.5));
    assertMessage("selectionThreshold must be a whole number >= 1 for numTopFeatures, got 0.0",
        () -> new NdfsSelector().setNumTopFeatures(0));
    // Set before its mode, a threshold waits for the mode (and is checked before the fit).
    assertEquals(0.3, new NdfsSelector().setSelectionThreshold(0.3)
        .setSelectionMode("percentile").getSelectionThreshold());
  }

  @Test
  void paramsExistWhereTheyAct() {
    assertFalse(new MaxVarianceSelector().hasParam("maxIter"));
    assertFalse(new MaxVarianceSelector().hasParam("seed"));
    assertFalse(new McfsSelector().hasParam("tol"));
    assertFalse(new UfcmSelector().hasParam("numNeighbors"));
    assertFalse(new OrdinalConsensusSelector().hasParam("knnAlgorithm"));
    assertFalse(new SpecSelector().hasParam("checkpointInterval"));
    assertTrue(new NdfsSelector().hasParam("checkpointInterval"));
    assertEquals(3, new LaplacianScoreSelector().setIfPresent("numClusters", 3)
        .setNumNeighbors(3).getNumNeighbors());
  }

  private static void assertMessage(String expected, Executable action) {
    Exception e = assertThrows(Exception.class, action);
    assertTrue(e.getMessage() != null && e.getMessage().contains(expected),
        "expected '" + expected + "' in: " + e.getMessage());
  }

  @Test
  void numClustersIsRequiredWhereUsedAndBoundedByRows() {
    int checked = 0;
    for (String name : Selectors.names()) {
      UnsupervisedSelector<?> s = Selectors.create(name);
      if (!s.requiresNumClusters()) {
        continue;
      }
      IllegalArgumentException unset = assertThrows(IllegalArgumentException.class,
          () -> s.fit(good(20)));
      assertTrue(unset.getMessage().contains("numClusters"), unset.getMessage());
      IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
          () -> s.setIfPresent("numClusters", 25).setIfPresent("numNeighbors", 2).fit(good(20)));
      assertTrue(tooMany.getMessage().contains("numClusters = 25 exceeds the number of rows 20"),
          tooMany.getMessage());
      checked++;
    }
    assertTrue(checked > 0, "no registered method uses numClusters");
  }

  @Test
  void skipLeavesOutNullAndNonFiniteRows() {
    Dataset<Row> df = rows(Vectors.dense(1, 0), null, Vectors.dense(2, 1),
        Vectors.dense(Double.NaN, 1), Vectors.dense(3, 0), Vectors.dense(4, 1));
    UnsupervisedSelectorModel skipped = new MaxVarianceSelector().setHandleInvalid("skip").fit(df);
    UnsupervisedSelectorModel clean = new MaxVarianceSelector().fit(rows(Vectors.dense(1, 0),
        Vectors.dense(2, 1), Vectors.dense(3, 0), Vectors.dense(4, 1)));
    org.junit.jupiter.api.Assertions.assertArrayEquals(clean.scores(), skipped.scores(), 1e-12);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new MaxVarianceSelector().setHandleInvalid("keep"));
    assertTrue(e.getMessage().contains("handleInvalid given invalid value keep"), e.getMessage());
  }

  /** Found by dev/unseen-data-sweep: 8 methods fitted all-NaN scores, 2 failed unrelatedly. */
  @Test
  void dataWhoseEveryFeatureIsConstantAreRejected() {
    Dataset<Row> df = rows(Vectors.dense(1, 0, -3), Vectors.dense(1, 0, -3),
        Vectors.sparse(3, new int[] {0, 2}, new double[] {1, -3}), Vectors.dense(1, 0, -3));
    for (String name : Selectors.names()) {
      assertMessage("Every one of the 3 features of column 'features' is constant over the 4 "
          + "rows", () -> Selectors.create(name).setIfPresent("numClusters", 2)
              .setIfPresent("numNeighbors", 2).fit(df));
    }
  }

  @Test
  void constantAndSparseFeaturesAreAccepted() {
    Dataset<Row> df = rows(Vectors.sparse(3, new int[] {0}, new double[] {1}),
        Vectors.sparse(3, new int[] {0, 2}, new double[] {2, 1}),
        Vectors.sparse(3, new int[] {0}, new double[] {3}),
        Vectors.sparse(3, new int[] {0, 2}, new double[] {4, 2}));
    UnsupervisedSelectorModel m = new LaplacianScoreSelector().setNumNeighbors(2).fit(df);
    assertTrue(Double.isNaN(m.scores()[1]), "constant feature 1 is left unscored (NaN)");
    assertArrayEquals(new int[] {1}, m.summary().constantFeatures());
    assertTrue(m.ranking()[2] == 1, "constant feature ranks last");
  }
}
