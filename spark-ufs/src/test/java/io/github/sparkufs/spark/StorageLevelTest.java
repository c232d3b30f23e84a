package io.github.sparkufs.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Where a fit's distributed blocks are cached: the param's level, or the automatic choice. */
@ExtendWith(SparkSessionExtension.class)
class StorageLevelTest {

  @Test
  void autoKeepsBlocksOnDiskOnlyWhenTheInputExceedsHalfTheStorageMemory() {
    long storage = 1_000_000;
    assertEquals(StorageLevel.MEMORY_AND_DISK(),
        VectorBlocks.storageLevel(VectorBlocks.AUTO_STORAGE, storage / 2, storage));
    assertEquals(StorageLevel.DISK_ONLY(),
        VectorBlocks.storageLevel(VectorBlocks.AUTO_STORAGE, storage / 2 + 1, storage));
    // No executor registered yet on a cluster: nothing is known to fit in memory.
    assertEquals(StorageLevel.DISK_ONLY(),
        VectorBlocks.storageLevel(VectorBlocks.AUTO_STORAGE, 1, 0));
    assertEquals(StorageLevel.MEMORY_AND_DISK_SER(),
        VectorBlocks.storageLevel("MEMORY_AND_DISK_SER", 1, storage));
  }

  @Test
  void theInputAndEveryBlockDerivedFromItAreCachedAtTheChosenLevel(SparkSession spark) {
    for (String level : new String[] {"MEMORY_AND_DISK_SER", "DISK_ONLY", "auto"}) {
      try (SparkExecution execution = new SparkExecution(
          JavaSparkContext.fromSparkContext(spark.sparkContext()), "test");
          RowBlockMatrix x = VectorBlocks.read(TestData.vectors(spark,
              new PlantedClusters(10, 2, 2, 3.0, 1).matrix(40), 2), "features",
              VectorBlocks.Placement.DISTRIBUTED, execution, false, level, false, null,
              (n, d) -> null)) {
        // 40 rows of 10 doubles are far below half of any heap's storage memory.
        StorageLevel expected = level.equals("auto") ? StorageLevel.MEMORY_AND_DISK()
            : StorageLevel.fromString(level);
        Partitioned<Integer> derived = x.blocks().map(RowBlock::numRows);
        try {
          assertEquals(expected, ((SparkPartitioned<RowBlock>) x.blocks()).rdd().getStorageLevel(),
              level);
          assertEquals(expected, ((SparkPartitioned<Integer>) derived).rdd().getStorageLevel(),
              level);
        } finally {
          derived.release();
        }
      }
    }
  }
}
