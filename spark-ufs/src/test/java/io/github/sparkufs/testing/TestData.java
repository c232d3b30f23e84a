package io.github.sparkufs.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.solver.FeatureRanking;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.SelectionResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** Builds test Datasets and driver matrices, and compares vectors with tolerances. */
public final class TestData {

  private TestData() {}

  /** The samples (columns) of {@code x} as a "features" column, in order, in {@code partitions} slices. */
  public static Dataset<Row> vectors(SparkSession spark, DenseMatrix x, int partitions) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < x.cols(); i++) {
      rows.add(RowFactory.create(column(x, i)));
    }
    return fromRows(spark, rows, new StructType().add("features", SQLDataTypes.VectorType()),
        partitions);
  }

  /** Like {@link #vectors} with an integer "label" column. */
  public static Dataset<Row> labeled(SparkSession spark, DenseMatrix x, int[] labels,
      int partitions) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < x.cols(); i++) {
      rows.add(RowFactory.create(column(x, i), labels[i]));
    }
    return fromRows(spark, rows, new StructType().add("features", SQLDataTypes.VectorType())
        .add("label", DataTypes.IntegerType), partitions);
  }

  /** Rows in order, split into {@code partitions} contiguous slices. */
  public static Dataset<Row> fromRows(SparkSession spark, List<Row> rows, StructType schema,
      int partitions) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    return spark.createDataFrame(jsc.parallelize(rows, partitions), schema);
  }

  /** Sample i of {@code x} as a dense vector. */
  public static Vector column(DenseMatrix x, int i) {
    return Vectors.dense(Arrays.copyOfRange(x.data(), i * x.rows(), (i + 1) * x.rows()));
  }

  /** A rows × cols matrix of independent entries uniform in [-1, 1), from the seed. */
  public static DenseMatrix uniform(int rows, int cols, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix a = new DenseMatrix(rows, cols);
    for (int i = 0; i < a.data().length; i++) {
      a.data()[i] = rnd.nextDouble() * 2 - 1;
    }
    return a;
  }

  /**
   * The share of the 8 informative features among the solver's top 8 on the planted set every
   * solver test uses: d = 40, 4 clusters at separation 3, seed 5, 400 samples, one block.
   */
  public static double plantedRecall(FeatureSelectionSolver solver) {
    PlantedClusters planted = new PlantedClusters(40, 8, 4, 3.0, 5);
    SelectionResult r = solver.fit(RowBlockMatrix.local(planted.matrix(400)));
    return planted.recall(FeatureRanking.rank(r.scores(), r.largerIsBetter()));
  }

  /** {@code x} split into {@code blocks} driver blocks of consecutive samples. */
  public static RowBlockMatrix blocks(DenseMatrix x, int blocks) {
    List<RowBlock> out = new ArrayList<>();
    int n = x.cols();
    for (int b = 0; b < blocks; b++) {
      int from = (int) ((long) n * b / blocks);
      int to = (int) ((long) n * (b + 1) / blocks);
      out.add(new RowBlock(from, x.columns(from, to - from)));
    }
    return RowBlockMatrix.local(out);
  }

  /** Asserts each entry agrees to {@code relTol} relative to the largest magnitude in expected. */
  public static void assertClose(double[] expected, double[] actual, double relTol, String what) {
    assertEquals(expected.length, actual.length, what + ": lengths");
    double scale = 0;
    for (double v : expected) {
      if (Double.isFinite(v)) {
        scale = Math.max(scale, Math.abs(v));
      }
    }
    for (int i = 0; i < expected.length; i++) {
      if (Double.isInfinite(expected[i]) || Double.isInfinite(actual[i])) {
        assertEquals(expected[i], actual[i], what + " at " + i);
        continue;
      }
      if (Math.abs(expected[i] - actual[i]) > relTol * Math.max(scale, Double.MIN_NORMAL)) {
        fail(what + " differ at " + i + ": expected " + expected[i] + " but was " + actual[i]
            + " (relative tolerance " + relTol + " of " + scale + ")");
      }
    }
  }

  /** The k samples nearest column i of x (columns are samples), ties to the lower index. */
  public static int[] bruteForceNearest(DenseMatrix x, int i, int k) {
    Integer[] order = new Integer[x.cols()];
    for (int j = 0; j < order.length; j++) {
      order[j] = j;
    }
    Arrays.sort(order, (a, b) -> {
      int c = Double.compare(squaredDistance(x, i, a), squaredDistance(x, i, b));
      return c != 0 ? c : Integer.compare(a, b);
    });
    return Arrays.stream(order).filter(j -> j != i).limit(k).mapToInt(Integer::intValue)
        .toArray();
  }

  /** The squared distance of columns i and j of x. */
  public static double squaredDistance(DenseMatrix x, int i, int j) {
    double s = 0;
    for (int f = 0; f < x.rows(); f++) {
      double diff = x.get(f, i) - x.get(f, j);
      s += diff * diff;
    }
    return s;
  }
}
