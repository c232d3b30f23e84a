package io.github.sparkufs.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.spark.SparkExecution;
import io.github.sparkufs.spark.VectorBlocks;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The approximate search on RDD blocks ({@code crossMergeOnce} as Spark jobs) and on the driver agree. */
@ExtendWith(SparkSessionExtension.class)
class CellProbeKnnSparkTest {

  @Test
  void rddBlocksGiveTheDriverBlocksLists(SparkSession spark) {
    DenseMatrix x = new PlantedClusters(12, 4, 3, 2.0, 5).matrix(1500);
    CellProbeKnn search = new CellProbeKnn(9, 30, 5);
    int[] driver = CellProbeKnnTest.indices(search.searchAll(TestData.blocks(x, 1), 7));
    int[] rdd = CellProbeKnnTest.indices(search.searchAll(VectorBlocks.read(
        TestData.vectors(spark, x, 3), "features", VectorBlocks.Placement.DISTRIBUTED, "test",
        false), 7));
    // Same search, other blocks: the same lists up to a tie broken another way.
    TestData.assertSameNeighbourDistances(x, driver, rdd, 7, 1e-5);
    // The same blocks cached on disk only (as large input is, VectorBlocks.storageLevel): every
    // block the search keeps survives Kryo's round trip, so the lists are the same to the bit.
    try (SparkExecution execution = new SparkExecution(
        JavaSparkContext.fromSparkContext(spark.sparkContext()), "test")) {
      int[] serialized = CellProbeKnnTest.indices(search.searchAll(VectorBlocks.read(
          TestData.vectors(spark, x, 3), "features", VectorBlocks.Placement.DISTRIBUTED,
          execution, false, "DISK_ONLY", false, null, (n, d) -> null), 7));
      assertArrayEquals(rdd, serialized);
    }
  }
}
