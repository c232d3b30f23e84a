package io.github.sparkufs.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.ml.LaplacianScoreSelector;
import io.github.sparkufs.ml.MaxVarianceSelector;
import io.github.sparkufs.ml.McfsSelector;
import io.github.sparkufs.ml.SpecSelector;
import io.github.sparkufs.ml.UfcmSelector;
import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.testing.LogCapture;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sparse vectors stay sparse for the methods that run on sparse row blocks (MaxVar, Laplacian
 * Score, SPEC, MCFS), with the scores of the same data given dense; the other methods densify
 * them and the fit says why, once, with the size.
 */
@ExtendWith(SparkSessionExtension.class)
class SparseInputTest {

  private static final StructType SCHEMA = new StructType().add("features",
      SQLDataTypes.VectorType());

  /** 40 rows of 4 features: 10 dense, 30 storing 2 values (density 100 / 160). */
  private static Dataset<Row> mixed(SparkSession spark) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      rows.add(RowFactory.create(i % 4 == 0 ? Vectors.dense(i, 1, 0, i % 3)
          : Vectors.sparse(4, new int[] {0, 3}, new double[] {i, i % 3})));
    }
    return TestData.fromRows(spark, rows, SCHEMA, 3);
  }

  @Test
  void aDenseMethodDensifiesSparseInputAndSaysWhyOnceWithTheSize(SparkSession spark) {
    Dataset<Row> data = mixed(spark);
    List<String> lines = logged(() -> new UfcmSelector().setNumClusters(2).fit(data));
    assertEquals(List.of("ufcm needs the dense d x d scatter S_t = X Xᵀ (Eq. 2) and the "
        + "projection Wᵀ X: densifying 40 x 4 input (30 of the rows sparse, density 0.625): "
        + "0.0 MB"), lines);
  }

  @Test
  void inputDenserThanTheLimitIsDensifiedEvenForASparseMethod(SparkSession spark) {
    Dataset<Row> data = mixed(spark);
    List<String> lines = logged(() -> new MaxVarianceSelector().fit(data));
    assertEquals(List.of("maxvar: densifying 40 x 4 input (30 of the rows sparse, density "
        + "0.625): 0.0 MB"), lines);
  }

  @Test
  void sparseInputStaysSparseInEveryBlock(SparkSession spark) {
    DenseMatrix x = sparseData(120, 300, 8, 1);
    for (VectorBlocks.Placement placement : List.of(VectorBlocks.Placement.DRIVER,
        VectorBlocks.Placement.DISTRIBUTED)) {
      List<String> lines = new ArrayList<>();
      List<RowBlock> blocks = new ArrayList<>();
      lines.addAll(logged(() -> {
        try (SparkExecution execution = new SparkExecution(
            JavaSparkContext.fromSparkContext(spark.sparkContext()), "test");
            RowBlockMatrix read = VectorBlocks.read(sparseRows(spark, x, 4), "features",
                placement, execution, false, VectorBlocks.AUTO_STORAGE, false, null,
                (n, d) -> null)) {
          assertTrue(read.isSparse(), placement.toString());
          blocks.addAll(read.blocks().collect(b -> b));
        }
        return null;
      }));
      assertTrue(blocks.stream().allMatch(RowBlock::isSparse), placement.toString());
      assertEquals(120 * 8, blocks.stream().mapToLong(RowBlock::storedValues).sum());
      assertEquals(List.of("test: keeping 120 x 300 input sparse (960 stored values, density "
          + "0.0267): 0.0 MB"), lines);
      for (RowBlock b : blocks) {
        for (int i = 0; i < b.numRows(); i++) {
          for (int j = 0; j < x.rows(); j++) {
            assertEquals(x.get(j, b.offset() + i), b.get(i, j));
          }
        }
      }
    }
  }

  /**
   * The sparse kernels add the same non-zero products as the dense ones, in another order at
   * most: the scores agree to rounding, on the driver and over blocks of several partitions.
   */
  @Test
  void sparseAndDenseInputGiveTheSameScores(SparkSession spark) {
    DenseMatrix x = sparseData(150, 400, 12, 2);
    List<Supplier<UnsupervisedSelector<?>>> selectors = List.of(MaxVarianceSelector::new,
        LaplacianScoreSelector::new,
        () -> new LaplacianScoreSelector().setLocalScaling(false).setSelfConnected(true),
        () -> new SpecSelector().setScoreType(1), () -> new SpecSelector().setScoreType(2),
        () -> new SpecSelector().setScoreType(3).setNumClusters(3),
        () -> new McfsSelector().setNumClusters(3).setNumNonZeros(20));
    for (String mode : List.of("driver", "distributed")) {
      Dataset<Row> dense = TestData.vectors(spark, x, 3);
      Dataset<Row> sparse = sparseRows(spark, x, 3);
      for (Supplier<UnsupervisedSelector<?>> selector : selectors) {
        UnsupervisedSelector<?> s = selector.get();
        s.setExecutionMode(mode);
        String what = s.methodName() + " " + mode;
        List<String> lines = new ArrayList<>();
        double[][] scores = new double[2][];
        lines.addAll(logged(() -> scores[0] = s.fit(sparse).scores()));
        assertTrue(lines.size() == 1 && lines.get(0).contains(": keeping 150 x 400 input sparse"),
            what + ": " + lines);
        scores[1] = s.fit(dense).scores();
        TestData.assertClose(scores[1], scores[0], 1e-12, what);
      }
    }
  }

  /**
   * A partition storing a third of its values or more is blocked dense as it is read, and the
   * input, sparse overall, is stacked sparse from dense and sparse blocks alike: the scores are
   * those of the same data given dense.
   */
  @Test
  void aDensePartitionOfSparseInputIsBlockedDenseAndStackedWithTheRest(SparkSession spark) {
    // 6 partitions of 25 samples, d = 400: the first 25 samples have 150 values each (density
    // .375 in their partition), the other 125 have 12 (.03); overall .0875, kept sparse.
    DenseMatrix x = sparseData(150, 400, 12, 3);
    DenseMatrix busy = sparseData(25, 400, 150, 4);
    System.arraycopy(busy.data(), 0, x.data(), 0, busy.data().length);
    Dataset<Row> sparse = sparseRows(spark, x, 6);
    List<Boolean> blockedSparse = sparse.select("features").queryExecution().toRdd().toJavaRDD()
        .mapPartitions(it -> VectorBlocks.PartitionBlock.of(it, false, true).rows().stream()
            .map(RowBlock::isSparse).iterator())
        .collect();
    assertEquals(List.of(false, true, true, true, true, true), blockedSparse);
    for (String mode : List.of("driver", "distributed")) {
      UnsupervisedSelector<?> s = new LaplacianScoreSelector().setExecutionMode(mode);
      List<String> lines = new ArrayList<>();
      double[][] scores = new double[2][];
      lines.addAll(logged(() -> scores[0] = s.fit(sparse).scores()));
      assertTrue(lines.size() == 1 && lines.get(0).contains(": keeping 150 x 400 input sparse"),
          mode + ": " + lines);
      scores[1] = s.fit(TestData.vectors(spark, x, 6)).scores();
      TestData.assertClose(scores[1], scores[0], 1e-12, mode);
    }
  }

  /**
   * Vectors are read from their stored form, not through Spark's vector constructor, so a
   * sparse vector whose indices do not increase (which that constructor refuses) is refused
   * here, with its row.
   */
  @Test
  void aSparseVectorWithIndicesOutOfOrderIsRefusedWithItsRow() {
    InternalRow good = vectorRow(new int[] {0, 2}, new double[] {1, 2});
    InternalRow unordered = vectorRow(new int[] {2, 1}, new double[] {1, 2});
    InternalRow outside = vectorRow(new int[] {1, 4}, new double[] {1, 2});
    VectorBlocks.PartitionBlock.Summary s = VectorBlocks.PartitionBlock.of(
        List.of(good, unordered).iterator(), true, true).summary;
    assertEquals(1, s.problemRow);
    assertEquals("is a sparse vector whose index 1 follows 2: indices must increase", s.problem);
    assertEquals("is a sparse vector whose index 4 is outside [0, 4)", VectorBlocks.PartitionBlock
        .of(List.of(good, outside).iterator(), false, false).summary.problem);
  }

  /** A row of one vector column holding the sparse vector (4, indices, values) as stored. */
  private static InternalRow vectorRow(int[] indices, double[] values) {
    return new GenericInternalRow(new Object[] {new GenericInternalRow(new Object[] {(byte) 0, 4,
        new GenericArrayData(indices), new GenericArrayData(values)})});
  }

  /** d × n data whose every sample has {@code nonZeros} values in [1, 2) at random features. */
  private static DenseMatrix sparseData(int n, int d, int nonZeros, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix x = new DenseMatrix(d, n);
    for (int i = 0; i < n; i++) {
      for (int t = 0; t < nonZeros; t++) {
        int j;
        do {
          j = rnd.nextInt(d);
        } while (x.get(j, i) != 0);
        x.set(j, i, 1 + rnd.nextDouble());
      }
    }
    return x;
  }

  /** The samples of {@code x} as sparse vectors. */
  private static Dataset<Row> sparseRows(SparkSession spark, DenseMatrix x, int partitions) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < x.cols(); i++) {
      rows.add(RowFactory.create(TestData.column(x, i).toSparse()));
    }
    return TestData.fromRows(spark, rows, SCHEMA, partitions);
  }

  /** The lines {@link VectorBlocks} logs at INFO while {@code action} runs. */
  private static List<String> logged(Supplier<?> action) {
    return LogCapture.infoLines(VectorBlocks.class, action);
  }
}
