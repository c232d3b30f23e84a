package io.github.sparkufs.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.ml.LaplacianScoreSelector;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The distributed blocks and the steps over pairs of blocks (the exact kNN graph) are planned
 * by the data's rows, not by the input's partition count.
 */
@ExtendWith(SparkSessionExtension.class)
class PartitionPlanTest {

  /**
   * 300 rows in 200 partitions: one task per pair of partitions ran 40,000 pair tasks alone
   * (3,538 tasks and 30 s for the same fit on 40 partitions). Measured now: 574 tasks in all
   * (200 to read, 200 to regroup into 18 blocks, the rest on those blocks).
   */
  @Test
  void manySmallPartitionsRunFewTasks(SparkSession spark) throws Exception {
    Dataset<Row> data = TestData.vectors(spark,
        new PlantedClusters(20, 4, 3, 3.0, 7).matrix(300), 200).cache();
    data.count();
    AtomicInteger tasks = new AtomicInteger();
    SparkListener counter = new SparkListener() {
      @Override
      public void onTaskEnd(SparkListenerTaskEnd end) {
        tasks.incrementAndGet();
      }
    };
    spark.sparkContext().addSparkListener(counter);
    try {
      new LaplacianScoreSelector().setExecutionMode("distributed").setKnnAlgorithm("exact")
          .setNumTopFeatures(4).fit(data);
    } finally {
      spark.sparkContext().listenerBus().waitUntilEmpty();
      spark.sparkContext().removeSparkListener(counter);
      data.unpersist();
    }
    assertTrue(tasks.get() < 1000, tasks.get() + " tasks");
  }

  @Test
  void consecutivePartitionsShareABlockUntilItHoldsEnoughRows() {
    // Partitions of 5 rows (an empty one among them), one of 40, a short tail that joins it.
    assertArrayEquals(new int[] {0, 0, 0, 0, 0, 1, 1, 1},
        VectorBlocks.blockOfPartition(new int[] {0, 5, 10, 10, 15, 20, 60, 63, 65}));
    // Every partition large enough: one block each.
    assertArrayEquals(new int[] {0, 1, 2},
        VectorBlocks.blockOfPartition(new int[] {0, 16, 32, 48}));
    // Fewer rows than a block in all: one block.
    assertArrayEquals(new int[] {0, 0, 0},
        VectorBlocks.blockOfPartition(new int[] {0, 1, 2, 3}));
  }
}
