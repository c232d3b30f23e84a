package io.github.sparkufs.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.ml.LaplacianScoreSelector;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Fits of the same Dataset plan its column's scan once, until the Dataset is cached. */
@ExtendWith(SparkSessionExtension.class)
class PlannedScanTest {

  @Test
  void refitsReuseTheScanUntilTheStorageLevelChanges(SparkSession spark) {
    Dataset<Row> data = TestData.vectors(spark,
        new PlantedClusters(20, 4, 3, 3.0, 7).matrix(120), 3);
    LaplacianScoreSelector selector = new LaplacianScoreSelector().setNumTopFeatures(4);
    double[] first = selector.fit(data).scores();
    JavaRDD<InternalRow> planned = VectorBlocks.scan(data, "features");
    assertSame(planned, VectorBlocks.scan(data, "features"));
    assertArrayEquals(first, selector.fit(data).scores(), 0.0);

    data.cache();
    try {
      JavaRDD<InternalRow> cached = VectorBlocks.scan(data, "features");
      assertNotSame(planned, cached);
      assertSame(cached, VectorBlocks.scan(data, "features"));
      assertArrayEquals(first, selector.fit(data).scores(), 0.0);
    } finally {
      data.unpersist();
    }
    assertNotSame(planned, VectorBlocks.scan(data.select("features"), "features"));
  }
}
