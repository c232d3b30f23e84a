package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.spark.ml.attribute.Attribute;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.attribute.NumericAttribute;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWriter;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The saved format: its version written and checked, params a later version dropped skipped,
 * non-finite scores kept, clear errors for a wrong path or another class's directory, and a
 * save to a driver-local path that runs no Spark job (as Spark Connect saves).
 */
@ExtendWith(SparkSessionExtension.class)
class ModelPersistenceTest {

  private static final PlantedClusters PLANTED = new PlantedClusters(12, 3, 3, 3.0, 21);
  private static UnsupervisedSelectorModel model;

  @BeforeAll
  static void fit(SparkSession spark) {
    Dataset<Row> data = TestData.vectors(spark, PLANTED.matrix(90), 2);
    model = new NdfsSelector().setNumClusters(3).setMaxIter(4).setNumTopFeatures(3).fit(data);
  }

  @Test
  void formatVersionIsWrittenAndANewerOneIsRefused(@TempDir Path dir) throws IOException {
    Path saved = dir.resolve("model");
    model.write().save(saved.toString());
    assertTrue(metadata(saved).contains("\"formatVersion\":1"), metadata(saved));
    assertTrue(Files.isRegularFile(saved.resolve("data/model.json")));

    editMetadata(saved, json -> json.replace("\"formatVersion\":1", "\"formatVersion\":99"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> UnsupervisedSelectorModel.load(saved.toString()));
    for (String expected : List.of(UnsupervisedSelectorModel.class.getName(), "version 99",
        saved.toString())) {
      assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
  }

  @Test
  void savedParamsThisVersionDoesNotHaveAreSkipped(@TempDir Path dir) throws IOException {
    Path saved = dir.resolve("model");
    model.copy(org.apache.spark.ml.param.ParamMap.empty()).setOutputCol("kept").write()
        .save(saved.toString());
    editMetadata(saved, json -> json.replace("\"paramMap\":{",
        "\"paramMap\":{\"removedParam\":3,"));
    UnsupervisedSelectorModel back = UnsupervisedSelectorModel.load(saved.toString());
    assertEquals("kept", back.getOutputCol());
    assertArrayEquals(model.selectedFeatures(), back.selectedFeatures());
  }

  @Test
  void nonFiniteScoresAndDiagnosticsSurvive(@TempDir Path dir) throws IOException {
    SelectorSummary summary = new SelectorSummary("test", 4, 4, 1, Map.of("seed", "1"), "v",
        "s", 0.5, 0, true, new double[0], new int[] {0}, Map.of("width", Double.NaN),
        List.of("a", "b", "c", "d"));
    UnsupervisedSelectorModel m = new UnsupervisedSelectorModel("m", "test",
        new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1}, true,
        summary);
    m.write().save(dir.resolve("m").toString());
    UnsupervisedSelectorModel back = UnsupervisedSelectorModel.load(dir.resolve("m").toString());
    assertArrayEquals(m.scores(), back.scores());
    assertEquals(summary, back.summary());
  }

  /**
   * The input column's feature names (ML attributes, as VectorAssembler writes them) reach the
   * summary and survive a save; a column without names gives none.
   */
  @Test
  void featureNamesOfTheInputColumnAreKeptInTheSummary(SparkSession spark, @TempDir Path dir)
      throws IOException {
    List<String> names = IntStream.range(0, 12).mapToObj(j -> "pixel " + j).toList();
    Attribute[] attributes = names.stream()
        .map(name -> NumericAttribute.defaultAttr().withName(name)).toArray(Attribute[]::new);
    Dataset<Row> plain = TestData.vectors(spark, PLANTED.matrix(90), 2);
    Dataset<Row> named = plain.withColumn("features", plain.col("features"),
        new AttributeGroup("features", attributes).toMetadata());
    UnsupervisedSelectorModel fitted = new MaxVarianceSelector().setNumTopFeatures(3).fit(named);
    assertEquals(names, fitted.summary().featureNames());
    fitted.write().save(dir.resolve("named").toString());
    assertEquals(names, UnsupervisedSelectorModel.load(dir.resolve("named").toString()).summary()
        .featureNames());
    assertEquals(List.of(), model.summary().featureNames());
  }

  @Test
  void loadingAnotherClassOrAMissingPathNamesBoth(@TempDir Path dir) throws IOException {
    String modelDir = dir.resolve("model").toString();
    String ndfsDir = dir.resolve("ndfs").toString();
    model.write().save(modelDir);
    new NdfsSelector().write().save(ndfsDir);
    String missing = dir.resolve("nothing-here").toString();

    assertLoadError(() -> UnsupervisedSelectorModel.load(ndfsDir), ndfsDir,
        NdfsSelector.class.getName(), UnsupervisedSelectorModel.class.getName());
    assertLoadError(() -> NdfsSelector.load(modelDir), modelDir,
        UnsupervisedSelectorModel.class.getName(), NdfsSelector.class.getName());
    assertLoadError(() -> RsfsSelector.load(ndfsDir), ndfsDir, NdfsSelector.class.getName(),
        RsfsSelector.class.getName());
    assertLoadError(() -> UnsupervisedSelectorModel.load(missing), missing,
        UnsupervisedSelectorModel.class.getName(), "does not exist");
    assertLoadError(() -> NdfsSelector.load(missing), missing, NdfsSelector.class.getName(),
        "does not exist");
  }

  @Test
  void savesToADriverLocalPathWithoutASparkJob(SparkSession spark, @TempDir Path dir)
      throws Exception {
    String path = dir.resolve("local").toString();
    UnsupervisedSelectorModel[] back = new UnsupervisedSelectorModel[1];
    assertEquals(0, jobsRunBy(spark, () -> {
      model.write().saveToLocal(path);
      back[0] = UnsupervisedSelectorModel.read().loadFromLocal(path);
    }), "Spark jobs run by saveToLocal and loadFromLocal");
    assertArrayEquals(model.scores(), back[0].scores());
    assertEquals(model.summary(), back[0].summary());
    assertTrue(Files.isRegularFile(dir.resolve("local/metadata")), "Spark's local metadata file");
    assertTrue(Files.isRegularFile(dir.resolve("local/data/model.json")));
  }

  @Test
  void savesWithoutASparkJobWhatSparksReaderReadsAsSparkWritesIt(SparkSession spark,
      @TempDir Path dir) throws Exception {
    Path saved = dir.resolve("model");
    assertEquals(0, jobsRunBy(spark, () -> model.write().save(saved.toString())),
        "Spark jobs run by save");
    assertTrue(Files.isRegularFile(saved.resolve("metadata/_SUCCESS")));

    Path bySpark = dir.resolve("by-spark");
    DefaultParamsWriter.saveMetadata(model, bySpark.toString(), spark);
    DefaultParamsReader.Metadata ours = DefaultParamsReader.loadMetadata(saved.toString(), spark,
        UnsupervisedSelectorModel.class.getName());
    DefaultParamsReader.Metadata sparks = DefaultParamsReader.loadMetadata(bySpark.toString(),
        spark, UnsupervisedSelectorModel.class.getName());
    assertEquals(sparks.uid(), ours.uid());
    assertEquals(sparks.sparkVersion(), ours.sparkVersion());
    assertEquals(sparks.params(), ours.params());
    assertEquals(sparks.defaultParams(), ours.defaultParams());
    assertEquals(1L, spark.read().text(saved.resolve("metadata").toString()).count());

    UnsupervisedSelectorModel back = UnsupervisedSelectorModel.load(saved.toString());
    assertArrayEquals(model.scores(), back.scores());
    assertEquals(model.extractParamMap().toString(), back.extractParamMap().toString());
  }

  /** The Spark jobs started while {@code action} runs. */
  private static int jobsRunBy(SparkSession spark, Action action) throws Exception {
    AtomicInteger jobs = new AtomicInteger();
    SparkListener counter = new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart jobStart) {
        jobs.incrementAndGet();
      }
    };
    spark.sparkContext().addSparkListener(counter);
    try {
      action.run();
      spark.sparkContext().listenerBus().waitUntilEmpty();
      return jobs.get();
    } finally {
      spark.sparkContext().removeSparkListener(counter);
    }
  }

  /** Code run while Spark's jobs are counted. */
  private interface Action {
    void run() throws Exception;
  }

  private static void assertLoadError(Runnable load, String... expected) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, load::run);
    for (String s : expected) {
      assertTrue(e.getMessage().contains(s), "'" + s + "' not in: " + e.getMessage());
    }
  }

  private static String metadata(Path saved) throws IOException {
    return Files.readString(metadataFile(saved));
  }

  /** Rewrites the saved metadata, dropping the checksum files that would no longer match. */
  private static void editMetadata(Path saved, UnaryOperator<String> edit) throws IOException {
    Path file = metadataFile(saved);
    Files.writeString(file, edit.apply(Files.readString(file)));
    try (Stream<Path> files = Files.list(saved.resolve("metadata"))) {
      for (Path crc : files.filter(f -> f.getFileName().toString().endsWith(".crc")).toList()) {
        Files.delete(crc);
      }
    }
  }

  private static Path metadataFile(Path saved) throws IOException {
    try (Stream<Path> files = Files.list(saved.resolve("metadata"))) {
      return files.filter(f -> f.getFileName().toString().startsWith("part-")).findFirst()
          .orElseThrow();
    }
  }
}
