package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.ml.LaplacianScoreSelector;
import io.github.sparkufs.ml.MaxVarianceSelector;
import io.github.sparkufs.ml.NdfsSelector;
import io.github.sparkufs.ml.UfcmSelector;
import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.spark.VectorBlocks;
import io.github.sparkufs.testing.LogCapture;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sparse input of many features (n = 2,000, d = 50,000, 20 non-zeros per row: 800 MB dense,
 * 0.5 MB sparse) in a driver with 64 MB free: the methods that run on sparse row blocks fit
 * without ever holding the dense X, and a method that needs a d × d or n × n matrix is refused by
 * {@link DriverMemory} with its size before the input is densified.
 */
@ExtendWith(SparkSessionExtension.class)
class SparseMemoryTest {

  private static final int N = 2000;
  private static final int D = 50_000;
  private static final long DENSE_BYTES = (long) N * D * Double.BYTES;

  @BeforeEach
  void smallDriver() {
    DriverMemory.freeBytesForTests = 64_000_000;
  }

  @AfterEach
  void wholeDriver() {
    DriverMemory.freeBytesForTests = -1;
  }

  private static Dataset<Row> wide(SparkSession spark) {
    SplittableRandom rnd = new SplittableRandom(11);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      int[] idx = rnd.ints(0, D).distinct().limit(20).sorted().toArray();
      rows.add(RowFactory.create(Vectors.sparse(D, idx, rnd.doubles(20, 1, 2).toArray())));
    }
    return TestData.fromRows(spark, rows, new StructType().add("features",
        SQLDataTypes.VectorType()), 2);
  }

  /**
   * The fit's own thread (the solver runs in it, on the driver) allocates less than a quarter
   * of the dense X, and the blocks stay sparse (the read path logs it).
   */
  @Test
  void maxVarianceAndLaplacianScoreFitWithoutTheDenseMatrix(SparkSession spark) {
    Dataset<Row> data = wide(spark).cache();
    data.count();
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    for (UnsupervisedSelector<?> selector : List.<UnsupervisedSelector<?>>of(
        new MaxVarianceSelector(), new LaplacianScoreSelector())) {
      double[][] scores = new double[1][];
      long before = threads.getCurrentThreadAllocatedBytes();
      List<String> lines = LogCapture.infoLines(VectorBlocks.class,
          () -> scores[0] = selector.fit(data).scores());
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      assertEquals(List.of(selector.methodName() + ": keeping 2000 x 50000 input sparse (40000 "
          + "stored values, density 0.000400): 0.5 MB"), lines);
      assertEquals(D, scores[0].length);
      assertTrue(allocated < DENSE_BYTES / 4, selector.methodName() + " allocated " + allocated
          + " bytes on the driver thread, against " + DENSE_BYTES + " for the dense X");
    }
  }

  /** The d x d Gram of UFCM is refused once the input's shape is read, before it is densified. */
  @Test
  void aMethodThatNeedsTheGramIsRefusedWithItsSizeBeforeDensifying(SparkSession spark) {
    String message = refusedWithoutReadLog(new UfcmSelector().setNumClusters(2), wide(spark));
    assertTrue(message.startsWith("the d x d Gram matrix X Xᵀ (d = 50000): 50000 x 50000 "
        + "values pass the 2147483639 a Java array can hold"), message);
  }

  /**
   * NDFS works in the n-space when d > n: its n x n kernel (32 MB), not the d x d Gram, is
   * what a driver with 16 MB free refuses, before the input is densified.
   */
  @Test
  void aSampleSpaceMethodIsRefusedForItsKernelBeforeDensifying(SparkSession spark) {
    DriverMemory.freeBytesForTests = 16_000_000;
    String message = refusedWithoutReadLog(new NdfsSelector().setNumClusters(2), wide(spark));
    assertTrue(message.startsWith("the n x n kernel Xᵀ D⁻¹ X of the ridge solve (n = 2000): a "
        + "dense 2000 x 2000 matrix of doubles needs 32.0 MB (32000000 bytes), but the driver has "
        + "16.0 MB"),
        message);
  }

  /**
   * The message of the fit's failure, asserting that the read logged nothing: it logs its
   * decision to densify (or to keep the input sparse) before making any block.
   */
  private static String refusedWithoutReadLog(UnsupervisedSelector<?> selector,
      Dataset<Row> data) {
    IllegalArgumentException[] refused = new IllegalArgumentException[1];
    List<String> lines = LogCapture.infoLines(VectorBlocks.class,
        () -> refused[0] = assertThrows(IllegalArgumentException.class, () -> selector.fit(data)));
    assertEquals(List.of(), lines);
    return refused[0].getMessage();
  }
}
