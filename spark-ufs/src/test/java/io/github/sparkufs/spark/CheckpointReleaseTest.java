package io.github.sparkufs.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.ml.NdfsSelector;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpointed blocks delete their checkpoint when released, so that a distributed fit leaves
 * no copy of its input in the checkpoint directory (Spark keeps a checkpoint past the
 * application's end unless its RDD is garbage-collected first).
 */
@ExtendWith(SparkSessionExtension.class)
class CheckpointReleaseTest {

  @Test
  void releasedBlocksDeleteTheirCheckpoint(SparkSession spark, @TempDir Path dir) {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    sc.setCheckpointDir(dir.toString());
    try {
      SparkPartitioned<Integer> blocks = SparkPartitioned.computed(
          sc.parallelize(List.of(1, 2, 3), 3), new SparkExecution(sc, "test"), true);
      Path file = Paths.get(URI.create(blocks.rdd().getCheckpointFile().get()));
      assertTrue(Files.isDirectory(file), "no checkpoint written at " + file);
      blocks.release();
      assertTrue(Files.notExists(file), file + " is left after release");
    } finally {
      sc.setCheckpointDir(null);
    }
  }

  @Test
  void aDistributedFitLeavesNoCheckpoint(SparkSession spark, @TempDir Path dir)
      throws IOException {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    sc.setCheckpointDir(dir.toString());
    try {
      new NdfsSelector().setNumClusters(3).setMaxIter(2).setExecutionMode("distributed")
          .setCheckpointInterval(1)
          .fit(TestData.vectors(spark, new PlantedClusters(20, 4, 3, 3.0, 7).matrix(90), 3));
      try (Stream<Path> files = Files.walk(dir)) {
        assertEquals(List.of(), files.filter(Files::isRegularFile).collect(Collectors.toList()));
      }
    } finally {
      sc.setCheckpointDir(null);
    }
  }
}
