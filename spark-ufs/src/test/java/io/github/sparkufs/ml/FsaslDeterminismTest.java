package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.util.Arrays;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * FSASL through the Spark estimator with its default (monotone) W step (issues #20, #22): the
 * same seed, data, path and partitioning give the same bits; the driver and the distributed
 * path at any partitioning the same scores up to rounding. Before the merges ran in block
 * order, two distributed fits differed (stopping after 1, 2 or 3 iterations); before the
 * damped W step rotated the new W onto the previous one, 8 partitions took 3 iterations where
 * the driver and 3 partitions stalled after 1.
 */
@ExtendWith(SparkSessionExtension.class)
class FsaslDeterminismTest {

  private static final int TOP = 8;
  private static DenseMatrix samples;

  @BeforeAll
  static void data() {
    samples = new PlantedClusters(40, TOP, 4, 3.0, 5).matrix(400);
  }

  private static FsaslSelector selector() {
    return new FsaslSelector().setNumClusters(4).setNumTopFeatures(TOP).setMaxIter(5)
        .setSeed(3);
  }

  @Test
  void sameSeedTwiceGivesTheSameBits(SparkSession spark) {
    FsaslSelector s = selector().setExecutionMode("distributed");
    UnsupervisedSelectorModel a = s.fit(TestData.vectors(spark, samples, 4));
    UnsupervisedSelectorModel b = s.fit(TestData.vectors(spark, samples, 4));
    assertArrayEquals(a.summary().objectiveHistory(), b.summary().objectiveHistory());
    assertArrayEquals(a.scores(), b.scores());
  }

  @Test
  void driverAndDistributedAgreeForAnyPartitioning(SparkSession spark) {
    UnsupervisedSelectorModel reference = selector().setExecutionMode("driver")
        .fit(TestData.vectors(spark, samples, 1));
    int[] top = sorted(reference.selectedFeatures());
    double[] scores = reference.scores();
    int[] ranking = reference.ranking();
    // The 8th and 9th scores are not tied (within 1e-9 of the largest): the top 8 is one set.
    assertTrue(scores[ranking[TOP - 1]] - scores[ranking[TOP]] > 1e-9 * scores[ranking[0]]);
    for (int partitions : new int[] {3, 8}) {
      UnsupervisedSelectorModel m = selector().setExecutionMode("distributed")
          .fit(TestData.vectors(spark, samples, partitions));
      String what = partitions + " partitions";
      assertEquals(reference.summary().iterations(), m.summary().iterations(),
          what + ": iterations");
      TestData.assertClose(reference.scores(), m.scores(), 1e-9, what);
      assertArrayEquals(top, sorted(m.selectedFeatures()), what + ": top " + TOP);
    }
  }

  private static int[] sorted(int[] a) {
    int[] s = a.clone();
    Arrays.sort(s);
    return s;
  }
}
