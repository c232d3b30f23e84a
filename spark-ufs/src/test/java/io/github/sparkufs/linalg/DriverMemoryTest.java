package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.ml.McfsSelector;
import io.github.sparkufs.ml.UfcmSelector;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A dense matrix too large for the driver, or for a Java array, is refused before it is
 * allocated, with its size, the bytes it needs and the ways out.
 */
@ExtendWith(SparkSessionExtension.class)
class DriverMemoryTest {

  @Test
  void aMatrixLargerThanTheHeapIsRefusedWithItsSizeAndTheWaysOut() {
    long side = (long) Math.sqrt(Runtime.getRuntime().maxMemory() / Double.BYTES) + 1000;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DriverMemory.require("the test matrix", side, side));
    assertTrue(e.getMessage().startsWith("the test matrix: a dense " + side + " x " + side
        + " matrix of doubles needs "), e.getMessage());
    assertTrue(e.getMessage().contains("spark.driver.memory")
        && e.getMessage().contains("MaxVarianceSelector"), e.getMessage());
    DriverMemory.require("a small matrix", 100, 100);
  }

  @Test
  void aDenseMatrixPastTheLargestArrayIsRefusedBeforeAllocation() {
    // 46,340² = 2,147,395,600 values fit an array; 46,341² = 2,147,488,281 do not.
    assertEquals(2_147_395_600, DriverMemory.checkedLength("m", 46_340, 46_340));
    IllegalArgumentException past = assertThrows(IllegalArgumentException.class,
        () -> DriverMemory.checkedLength("m", 46_341, 46_341));
    assertTrue(past.getMessage().startsWith("m: 46341 x 46341 values pass the 2147483639 a Java "
        + "array can hold; as doubles they need 17.2 GB (17179906248 bytes)."), past.getMessage());
    // Sparse counts: the kNN graph's n × k edges and a transpose's 2 · nnz.
    assertEquals(Integer.MAX_VALUE - 9, DriverMemory.checkedLength("e", 2, (Integer.MAX_VALUE - 9) / 2));
    assertThrows(IllegalArgumentException.class,
        () -> DriverMemory.checkedLength("e", 2, Integer.MAX_VALUE / 2 + 1));
    assertThrows(IllegalArgumentException.class,
        () -> DriverMemory.checkedLength("e", 1 << 24, 128));
    IllegalArgumentException gram = assertThrows(IllegalArgumentException.class,
        () -> new DenseMatrix(100_000, 100_000));
    assertTrue(gram.getMessage().contains("100000 x 100000 values pass"), gram.getMessage());
  }

  /** UFCM needs the d × d total scatter: d = 2,000 (32 MB) against a driver with 16 MB free. */
  @Test
  void aFitThatNeedsMoreThanTheDriverHasFailsBeforeTheGram(SparkSession spark) {
    Dataset<Row> data = TestData.vectors(spark, TestData.uniform(2000, 30, 3), 2);
    DriverMemory.freeBytesForTests = 16_000_000;
    try {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> new UfcmSelector().setNumClusters(2).fit(data));
      assertTrue(e.getMessage().startsWith("the d x d Gram matrix X Xᵀ (d = 2000): a dense "
          + "2000 x 2000 matrix of doubles needs 32.0 MB (32000000 bytes), but the driver has "
          + "16.0 MB (16000000 bytes) of heap free."), e.getMessage());
    } finally {
      DriverMemory.freeBytesForTests = -1;
    }
  }

  /**
   * MCFS with fewer samples than features reads its regressions' Gram columns from the d × n
   * samples: d = 2,000 and n = 30 (0.5 MB of samples, a 32 MB Gram) fit in 16 MB.
   */
  @Test
  void mcfsOnWideDataFitsWithoutTheGram(SparkSession spark) {
    Dataset<Row> data = TestData.vectors(spark, TestData.uniform(2000, 30, 3), 2);
    DriverMemory.freeBytesForTests = 16_000_000;
    try {
      double[] scores = new McfsSelector().setNumClusters(2).setNumNeighbors(5).fit(data)
          .scores();
      long scored = Arrays.stream(scores).filter(v -> v > 0).count();
      // Two regressions of at most 50 non-zeros (the default) each.
      assertTrue(scored >= 1 && scored <= 100, scored + " features scored");
    } finally {
      DriverMemory.freeBytesForTests = -1;
    }
  }

  /** Sparse d = 100,000 used to end in an integer overflow inside the Gram. */
  @Test
  void sparseDataOfHundredThousandFeaturesFailsWithTheMemoryMessage(SparkSession spark) {
    SplittableRandom rnd = new SplittableRandom(5);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      rows.add(RowFactory.create(Vectors.sparse(100_000, new int[] {rnd.nextInt(50_000),
          50_000 + rnd.nextInt(50_000)}, new double[] {rnd.nextDouble(), rnd.nextDouble()})));
    }
    Dataset<Row> data = TestData.fromRows(spark, rows,
        new StructType().add("features", SQLDataTypes.VectorType()), 2);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new UfcmSelector().setNumClusters(2).fit(data));
    assertTrue(e.getMessage().startsWith("the d x d Gram matrix X Xᵀ (d = 100000): 100000 x "
        + "100000 values pass the 2147483639 a Java array can hold; as doubles they need 80.0 GB"),
        e.getMessage());
  }
}
