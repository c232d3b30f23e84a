package io.github.sparkufs.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.solver.CommonOptions;
import io.github.sparkufs.solver.FeatureRanking;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.ParamSpec;
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

  /**
   * Skips the test on the pure-Java LAPACK (however it came to be loaded: {@code mvn test
   * -Pjava-blas}, netlib's {@code nativeLib=none} properties, or no OpenBLAS on the machine),
   * where its repeated dense factorisations take minutes against seconds natively; a test calls
   * this only where another test runs the same code on both backends.
   */
  public static void assumeNativeLapack(String why) {
    assumeTrue("native".equals(LinalgBackend.describe()), why + ": run with native LAPACK only");
  }

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
   * The share of the 8 informative features among the solver's top 8 on the planted sets the
   * solver tests use, one per data seed 1–10: d = 40, 4 clusters at separation 3, n samples,
   * one block. Ten draws, because one draw says little: a method that finds every feature on
   * most draws still misses one or two on some (NDFS at n = 300: .625 at seed 8).
   */
  public static double[] plantedRecalls(FeatureSelectionSolver solver, int n) {
    double[] recalls = new double[10];
    for (int seed = 1; seed <= recalls.length; seed++) {
      PlantedClusters planted = new PlantedClusters(40, 8, 4, 3.0, seed);
      SelectionResult r = solver.fit(RowBlockMatrix.local(planted.matrix(n)));
      recalls[seed - 1] = planted.recall(FeatureRanking.rank(r.scores(), r.largerIsBetter()));
    }
    return recalls;
  }

  /**
   * Asserts the mean of {@link #plantedRecalls} reaches {@code minMean}. Each test states the
   * mean it measured and so the margin: one feature missed on one draw costs .0125.
   */
  public static void assertMeanRecall(double[] recalls, double minMean, String what) {
    double mean = Arrays.stream(recalls).average().orElse(0);
    if (mean < minMean) {
      fail(what + ": mean recall " + mean + " below " + minMean + ", per seed "
          + Arrays.toString(recalls));
    }
  }

  /**
   * {@code n} samples of {@code planted} (separation 3) with its first 8 noise features shrunk
   * to standard deviation 0.05, about a sixtieth of the others': quiet columns without
   * structure, which a method pricing features in raw units prefers.
   */
  public static DenseMatrix withQuietNoise(PlantedClusters planted, int n) {
    DenseMatrix x = planted.matrix(n);
    int[] informative = planted.informativeFeatures();
    for (int j = 0, shrunk = 0; j < x.rows() && shrunk < 8; j++) {
      if (Arrays.binarySearch(informative, j) < 0) {
        for (int i = 0; i < x.cols(); i++) {
          x.set(j, i, x.get(j, i) * 0.05 / Math.sqrt(1 + 3.0 * 3.0));
        }
        shrunk++;
      }
    }
    return x;
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

  /**
   * Asserts two k-nearest-neighbour lists of the samples (columns) of x, row-major as
   * {@code lists[row * k + r]}, hold samples at the same distances: sorted by their distances
   * computed here in double precision, the r-th neighbours of each row lie within
   * {@code relTol} of each other. Lists from different arithmetic (float or double, another
   * summation order) may order near-equal distances differently and so break a tie at the k-th
   * neighbour another way; this accepts exactly that and nothing else.
   */
  public static void assertSameNeighbourDistances(DenseMatrix x, int[] expected, int[] actual,
      int k, double relTol) {
    assertEquals(expected.length, actual.length, "list lengths");
    for (int row = 0; row < expected.length / k; row++) {
      int[] found = Arrays.copyOfRange(actual, row * k, row * k + k);
      int finalRow = row;
      assertEquals(k, Arrays.stream(found).filter(j -> j != finalRow).distinct().count(),
          "row " + row + ": a neighbour twice, or the sample itself: " + Arrays.toString(found));
      double[] want = sortedDistances(x, row, expected, k);
      double[] got = sortedDistances(x, row, actual, k);
      for (int r = 0; r < k; r++) {
        if (Math.abs(want[r] - got[r]) > relTol * (want[k - 1] + Double.MIN_NORMAL)) {
          fail("row " + row + ": neighbour " + r + " at squared distance " + got[r]
              + " where the expected list has " + want[r] + " (expected "
              + Arrays.toString(Arrays.copyOfRange(expected, row * k, row * k + k)) + ", was "
              + Arrays.toString(found) + ")");
        }
      }
    }
  }

  private static double[] sortedDistances(DenseMatrix x, int row, int[] lists, int k) {
    double[] out = new double[k];
    for (int r = 0; r < k; r++) {
      out[r] = squaredDistance(x, row, lists[row * k + r]);
    }
    Arrays.sort(out);
    return out;
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

  /**
   * A solver's options with those of the shared params c, k, maxIter, tol and seed that it
   * declares set (and knnAlgorithm auto unless given), as the tests construct their solvers.
   */
  public static MethodOptions shared(List<ParamSpec<?>> params, int numClusters,
      int numNeighbors, int maxIter, double tol, long seed) {
    return shared(params, numClusters, numNeighbors, maxIter, tol, seed, "auto");
  }

  public static MethodOptions shared(List<ParamSpec<?>> params, int numClusters,
      int numNeighbors, int maxIter, double tol, long seed, String knnAlgorithm) {
    MethodOptions o = MethodOptions.of(params);
    o = params.contains(CommonOptions.NUM_CLUSTERS)
        ? o.with(CommonOptions.NUM_CLUSTERS, numClusters) : o;
    o = params.contains(CommonOptions.NUM_NEIGHBORS)
        ? o.with(CommonOptions.NUM_NEIGHBORS, numNeighbors) : o;
    o = params.contains(CommonOptions.MAX_ITER) ? o.with(CommonOptions.MAX_ITER, maxIter) : o;
    o = params.contains(CommonOptions.TOL) ? o.with(CommonOptions.TOL, tol) : o;
    o = params.contains(CommonOptions.SEED) ? o.with(CommonOptions.SEED, seed) : o;
    return params.contains(CommonOptions.KNN_ALGORITHM)
        ? o.with(CommonOptions.KNN_ALGORITHM, knnAlgorithm) : o;
  }
}
