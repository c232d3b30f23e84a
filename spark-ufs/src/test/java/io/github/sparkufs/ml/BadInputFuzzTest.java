package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.fail;

import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.SparkException;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Random bad inputs, from a fixed seed, for every selector: each fit ends in an
 * IllegalArgumentException with a message, or in a model whose every non-constant feature has
 * a finite score; never another exception (NPE, index out of bounds, arithmetic, out of
 * memory) and never a NaN score. The budget: {@link #CASES_PER_METHOD} small frames per
 * method.
 */
@ExtendWith(SparkSessionExtension.class)
class BadInputFuzzTest {

  private static final long SEED = 20261125L;
  private static final int CASES_PER_METHOD = 8;
  private static final StructType SCHEMA =
      new StructType().add("features", SQLDataTypes.VectorType());

  /** The ways a frame is made bad; each case applies one or two. */
  private enum Flaw {
    NULL_ROW, NAN, INFINITY, MIXED_SIZES, EMPTY_PARTITIONS, HUGE_VALUE, LARGE_OUTLIER,
    LARGE_SCALE, TINY_SCALE, DUPLICATE_ROWS, SINGLE_ROW, CONSTANT_COLUMNS, SPARSE_ROWS
  }

  @Test
  void everySelectorFailsClearlyOrScoresFinitely(SparkSession spark) {
    SplittableRandom rnd = new SplittableRandom(SEED);
    List<String> failures = new ArrayList<>();
    for (String name : Selectors.names()) {
      for (int c = 0; c < CASES_PER_METHOD; c++) {
        List<Flaw> flaws = List.of(pick(rnd), pick(rnd));
        int n = 1 + rnd.nextInt(40);
        int d = 6 + rnd.nextInt(5);
        double[][] rows = new double[flaws.contains(Flaw.SINGLE_ROW) ? 1 : n][d];
        for (double[] r : rows) {
          for (int j = 0; j < d; j++) {
            r[j] = rnd.nextGaussian() + (j < 3 ? 3 * rnd.nextInt(3) : 0);
          }
        }
        List<Object> vectors = corrupt(rows, flaws, rnd);
        int partitions = flaws.contains(Flaw.EMPTY_PARTITIONS) ? vectors.size() + 5
            : 1 + rnd.nextInt(3);
        List<Row> frame = new ArrayList<>();
        vectors.forEach(v -> frame.add(RowFactory.create(v)));
        String what = name + " " + flaws + " n=" + rows.length + " d=" + d;
        try {
          UnsupervisedSelectorModel model = SelectorContractTest.configured(name)
              .setExecutionMode(rnd.nextBoolean() ? "driver" : "distributed")
              .fit(TestData.fromRows(spark, frame, SCHEMA, partitions));
          double[] scores = model.scores();
          for (int j = 0; j < scores.length; j++) {
            if (!Double.isFinite(scores[j]) && !constant(rows, j)) {
              failures.add(what + ": feature " + j + " scored " + scores[j]);
            }
          }
        } catch (Exception | Error e) {
          // A task's exception reaches the driver as the cause of Spark's job failure.
          Throwable cause = e instanceof SparkException ? e.getCause() : e;
          if (!(cause instanceof IllegalArgumentException) || cause.getMessage() == null
              || cause.getMessage().isBlank()) {
            failures.add(what + ": " + e);
          }
        }
      }
    }
    if (!failures.isEmpty()) {
      fail(failures.size() + " bad endings:\n" + String.join("\n", failures));
    }
  }

  private static Flaw pick(SplittableRandom rnd) {
    return Flaw.values()[rnd.nextInt(Flaw.values().length)];
  }

  /** The rows as vectors (or nulls), with the flaws applied. */
  private static List<Object> corrupt(double[][] rows, List<Flaw> flaws, SplittableRandom rnd) {
    int n = rows.length;
    int d = rows[0].length;
    for (Flaw f : flaws) {
      switch (f) {
        case NAN -> rows[rnd.nextInt(n)][rnd.nextInt(d)] = Double.NaN;
        case INFINITY -> rows[rnd.nextInt(n)][rnd.nextInt(d)] = Double.NEGATIVE_INFINITY;
        case HUGE_VALUE -> rows[rnd.nextInt(n)][rnd.nextInt(d)] = 1e300;
        case LARGE_OUTLIER -> rows[rnd.nextInt(n)][rnd.nextInt(d)] = -1e100;
        case LARGE_SCALE -> scale(rows, 1e12);
        case TINY_SCALE -> scale(rows, 1e-300);
        case DUPLICATE_ROWS -> {
          for (int i = 1; i < n; i++) {
            rows[i] = rows[rnd.nextInt(Math.min(i, 2))].clone();
          }
        }
        case CONSTANT_COLUMNS -> {
          for (double[] r : rows) {
            for (int j = 0; j < d; j += 2) {
              r[j] = 7;
            }
          }
        }
        default -> { }
      }
    }
    List<Object> vectors = new ArrayList<>();
    for (double[] r : rows) {
      vectors.add(flaws.contains(Flaw.SPARSE_ROWS) && rnd.nextBoolean()
          ? Vectors.dense(r).toSparse() : Vectors.dense(r));
    }
    if (flaws.contains(Flaw.NULL_ROW)) {
      vectors.set(rnd.nextInt(n), null);
    }
    if (flaws.contains(Flaw.MIXED_SIZES) && n > 1) {
      vectors.set(1 + rnd.nextInt(n - 1), Vectors.dense(Arrays.copyOf(rows[0], d + 1)));
    }
    return vectors;
  }

  private static void scale(double[][] rows, double factor) {
    for (double[] r : rows) {
      for (int j = 0; j < r.length; j++) {
        r[j] *= factor;
      }
    }
  }

  private static boolean constant(double[][] rows, int j) {
    for (double[] r : rows) {
      if (r[j] != rows[0][j]) {
        return false;
      }
    }
    return true;
  }
}
