package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Models saved by earlier versions keep loading. All were fitted on 90 rows in 2 partitions of
 * {@code PlantedClusters(12, 3, 3, 3.0, 21)} as its samples were drawn then, before each sample's
 * random stream was hashed apart from its neighbours': those rows are kept, exact, in
 * {@code fixtures/planted-12x3-seed21-90rows.csv} (a sample a line); the informative features
 * are drawn as before.
 * <ul>
 *   <li>{@code fixtures/lapscore-model-0.1.0}: format 0, written by 0.1.0; a Laplacian Score
 *       fit, top 3, outputCol "kept".
 *   <li>{@code fixtures/lapscore-model-format1}: format 1, written by 0.1.0-SNAPSHOT after the
 *       format version; {@code new LaplacianScoreSelector().setNumTopFeatures(3)
 *       .setOutputCol("kept")}.
 *   <li>{@code fixtures/ndfs-model-format1}: format 1, same version; {@code new NdfsSelector()
 *       .setNumClusters(3).setNumTopFeatures(3).setMaxIter(5).setSeed(7)}.
 * </ul>
 */
@ExtendWith(SparkSessionExtension.class)
class SavedModelFixtureTest {

  private static final PlantedClusters PLANTED = new PlantedClusters(12, 3, 3, 3.0, 21);

  @Test
  void modelSavedByVersion010LoadsAndTransforms(SparkSession spark) throws Exception {
    UnsupervisedSelectorModel saved = load("lapscore-model-0.1.0");
    Dataset<Row> data = TestData.vectors(spark, fittedOn(), 2);
    // 0.1.0's default graph had one global kernel width.
    UnsupervisedSelectorModel fresh = new LaplacianScoreSelector().setLocalScaling(false)
        .setNumTopFeatures(3).fit(data);
    assertEquals("lapscore", saved.method());
    assertEquals("kept", saved.getOutputCol());
    assertEquals(3.0, saved.getSelectionThreshold());
    TestData.assertClose(fresh.scores(), saved.scores(), 1e-9, "scores");
    assertArrayEquals(PLANTED.informativeFeatures(), saved.selectedFeatures());
    assertEquals(3, ((Vector) saved.transform(data).select("kept")
        .first().get(0)).size());
    assertFalse(saved.hasSummary(), "format 0 saved no typed summary");
    IllegalStateException e = assertThrows(IllegalStateException.class, saved::summary);
    assertTrue(e.getMessage().contains("format 0"), e.getMessage());
  }

  @Test
  void closedFormModelOfFormat1LoadsWithItsSummary(SparkSession spark) throws Exception {
    UnsupervisedSelectorModel saved = load("lapscore-model-format1");
    Dataset<Row> data = TestData.vectors(spark, fittedOn(), 2);
    UnsupervisedSelectorModel fresh = new LaplacianScoreSelector().setNumTopFeatures(3)
        .fit(data);
    TestData.assertClose(fresh.scores(), saved.scores(), 1e-9, "scores");
    assertEquals("kept", saved.getOutputCol());
    assertArrayEquals(PLANTED.informativeFeatures(), saved.selectedFeatures());
    SelectorSummary s = saved.summary();
    assertEquals("lapscore", s.method());
    assertEquals(90, s.numRows());
    assertEquals(12, s.numFeatures());
    assertEquals("0.1.0-SNAPSHOT", s.libraryVersion());
    assertEquals("4.1.0", s.sparkVersion());
    assertEquals(0, s.iterations());
    assertTrue(s.converged());
    assertEquals(0, s.objectiveHistory().length);
    assertEquals(0, s.constantFeatures().length);
    assertEquals(List.of(), s.featureNames(), "saved before the summary had names");
    assertEquals("\"kept\"", s.params().get("outputCol"));
    assertEquals(fresh.summary().diagnostics().get("kernelWidth"),
        s.diagnostics().get("kernelWidth"), 1e-9);
  }

  @Test
  void iterativeModelOfFormat1LoadsWithItsSummary(SparkSession spark) throws Exception {
    UnsupervisedSelectorModel saved = load("ndfs-model-format1");
    SelectorSummary s = saved.summary();
    assertEquals("ndfs", s.method());
    assertEquals(7, s.seed());
    assertEquals("7", s.params().get("seed"));
    assertEquals("5", s.params().get("maxIter"));
    assertEquals(5, s.iterations());
    assertEquals(5, s.objectiveHistory().length);
    assertFalse(s.converged(), "5 iterations do not reach tol 1e-6");
    assertEquals(s.objectiveHistory()[4], s.diagnostics().get("objective"));
    assertArrayEquals(PLANTED.informativeFeatures(), saved.selectedFeatures());
    Dataset<Row> data = TestData.vectors(spark, fittedOn(), 2);
    assertEquals(3, ((Vector) saved.transform(data)
        .select("selectedFeatures").first().get(0)).size());
  }

  /** The rows the fixtures were fitted on, as a d × n matrix (a column per sample). */
  private DenseMatrix fittedOn() throws Exception {
    Path csv = Paths.get(getClass().getResource(
        "/fixtures/planted-12x3-seed21-90rows.csv").toURI());
    List<String> lines = Files.readAllLines(csv);
    DenseMatrix x = new DenseMatrix(PLANTED.numFeatures(), lines.size());
    for (int i = 0; i < lines.size(); i++) {
      String[] values = lines.get(i).split(",");
      for (int f = 0; f < values.length; f++) {
        x.set(f, i, Double.parseDouble(values[f]));
      }
    }
    return x;
  }

  private UnsupervisedSelectorModel load(String fixture) throws Exception {
    Path dir = Paths.get(getClass().getResource("/fixtures/" + fixture).toURI());
    return UnsupervisedSelectorModel.load(dir.toString());
  }
}
