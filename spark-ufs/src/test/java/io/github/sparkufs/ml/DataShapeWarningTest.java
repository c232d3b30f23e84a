package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.testing.LogCapture;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The fit log's warnings for data shaped like the cases docs/recall.md measured a loss on. */
@ExtendWith(SparkSessionExtension.class)
class DataShapeWarningTest {

  /** The lines of a fit's log that point to docs/recall.md. */
  private static List<String> warnings(UnsupervisedSelector<?> selector, Dataset<Row> data) {
    return LogCapture.infoLines(UnsupervisedSelector.class, () -> selector.fit(data)).stream()
        .filter(line -> line.contains("docs/recall.md")).toList();
  }

  /**
   * NDFS from both starts, RSFS, MCFS and ordinal consensus scored by its row norms lose the
   * few-samples family; NDFS from k-means alone, ordinal consensus by its default regression
   * score, FSASL by range and Laplacian Score do not (docs/recall.md).
   */
  @Test
  void aMethodThatLosesWideDataIsWarnedOfAsManyFeaturesAsRows(SparkSession spark) {
    Dataset<Row> wide = TestData.vectors(spark, TestData.uniform(40, 30, 1), 2);
    for (UnsupervisedSelector<?> selector : List.<UnsupervisedSelector<?>>of(
        new NdfsSelector().setNumClusters(2), new RsfsSelector().setNumClusters(2),
        new OrdinalConsensusSelector().setNumClusters(2).setScoring("projection"),
        new McfsSelector().setNumClusters(2))) {
      List<String> lines = warnings(selector, wide);
      assertEquals(1, lines.size(), lines.toString());
      assertTrue(lines.get(0).startsWith(selector.methodName() + ": d = 40 features for n = 30 "
          + "rows: its regression can fit any clustering with noise columns"), lines.get(0));
      assertTrue(lines.get(0).contains("docs/methods/" + selector.methodName() + ".md"));
    }
    assertEquals(List.of(), warnings(new LaplacianScoreSelector(), wide));
    assertEquals(List.of(), warnings(new NdfsSelector().setNumClusters(2).setInitMode("kmeans"),
        wide));
    assertEquals(List.of(), warnings(new FsaslSelector().setNumClusters(2), wide));
    assertEquals(List.of(), warnings(new OrdinalConsensusSelector().setNumClusters(2), wide));
    assertEquals(List.of(), warnings(new RsfsSelector().setNumClusters(2),
        TestData.vectors(spark, TestData.uniform(20, 30, 2), 2)));
  }

  /** A fifth of the features on a 20 times smaller range: a range spread of about 20. */
  @Test
  void featuresOnUnrelatedScalesAreWarnedOfExceptByUdfs(SparkSession spark) {
    DenseMatrix x = TestData.uniform(50, 60, 3);
    Dataset<Row> sameScale = TestData.vectors(spark, x, 2);
    for (int i = 0; i < x.cols(); i++) {
      for (int j = 0; j < 10; j++) {
        x.set(j, i, x.get(j, i) / 20);
      }
    }
    Dataset<Row> smallScale = TestData.vectors(spark, x, 2);
    List<String> lines = warnings(new LaplacianScoreSelector(), smallScale);
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.get(0).startsWith("lapscore: the features' ranges differ by a factor of "),
        lines.get(0));
    assertEquals(List.of(), warnings(new LaplacianScoreSelector(), sameScale));
    assertEquals(List.of(), warnings(new UdfsSelector().setNumClusters(2), smallScale));
  }
}
