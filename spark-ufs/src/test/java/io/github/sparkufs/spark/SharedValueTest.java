package io.github.sparkufs.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.testing.SparkSessionExtension;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * With a local master a shared value is not broadcast (no value or serialised pieces in the
 * block manager), and the tasks read the driver's own value, also after the handle is released,
 * for blocks recomputed from a lineage that names it. Separate executor JVMs get it by broadcast
 * ({@code LocalClusterTest}).
 */
@ExtendWith(SparkSessionExtension.class)
class SharedValueTest {

  @Test
  void localTasksReadTheDriversValueItself(SparkSession spark) {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    DenseMatrix value = new DenseMatrix(2, 3);
    int driverIdentity = System.identityHashCode(value);
    try (SparkExecution execution = new SparkExecution(sc, "test")) {
      int broadcastBlocks = broadcastBlocks();
      Shared<DenseMatrix> shared = execution.share(value);
      assertEquals(broadcastBlocks, broadcastBlocks(), "a broadcast's value and serialised pieces");
      JavaRDD<Integer> identities = sc.parallelize(Arrays.asList(1, 2, 3, 4), 4)
          .map(i -> System.identityHashCode(shared.get()))
          .persist(StorageLevel.NONE());
      assertEquals(List.of(driverIdentity, driverIdentity, driverIdentity, driverIdentity),
          identities.collect());
      shared.release();
      // Not cached: the second collect recomputes the tasks from the lineage.
      assertEquals(List.of(driverIdentity, driverIdentity, driverIdentity, driverIdentity),
          identities.collect());
    }
  }

  private static int broadcastBlocks() {
    return SparkEnv.get().blockManager().getMatchingBlockIds(BlockId::isBroadcast).size();
  }
}
