package io.github.sparkufs.examples;

import io.github.sparkufs.linalg.DenseMatrix;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** A LIBSVM file read with Spark, and its driver-side copy for the papers' k-means protocol. */
final class LabeledData {

  final Dataset<Row> frame;
  final int numFeatures;

  private LabeledData(Dataset<Row> frame, int numFeatures) {
    this.frame = frame;
    this.numFeatures = numFeatures;
  }

  /**
   * Reads a LIBSVM file (gzip allowed) with d features: columns "label" and "features". A local
   * path must exist; indices beyond d are reported before any fitting.
   */
  static LabeledData libsvm(SparkSession spark, String path, int numFeatures) {
    if (numFeatures < 1) {
      throw new UsageException("--num-features must be >= 1, got " + numFeatures);
    }
    if (!path.contains("://") && !Files.exists(Path.of(path))) {
      throw new UsageException("data file not found: " + path);
    }
    Scan scan = spark.read().textFile(path).javaRDD().zipWithIndex()
        .map(line -> Scan.of(line._1(), line._2() + 1))
        .fold(Scan.EMPTY, Scan::merge);
    if (scan.rows == 0) {
      throw new UsageException("no rows in " + path);
    }
    if (scan.firstError != null) {
      throw new UsageException(path + ", " + scan.firstError);
    }
    int largest = scan.largestIndex;
    if (largest > numFeatures) {
      throw new UsageException(path + " has feature index " + largest
          + " but --num-features is " + numFeatures + ": pass the dataset's d");
    }
    Dataset<Row> frame = spark.read().format("libsvm").option("numFeatures", numFeatures)
        .load(path).cache();
    frame.count();
    return new LabeledData(frame, numFeatures);
  }

  /**
   * One pass over the file's lines: rows, the largest feature index, and the first line that
   * is not LIBSVM ({@code label index:value ...}, indices ≥ 1), named with its number.
   */
  static final class Scan implements Serializable {
    private static final long serialVersionUID = 1L;
    static final Scan EMPTY = new Scan(0, 0, Long.MAX_VALUE, null);

    final long rows;
    final int largestIndex;
    final long errorLine;
    final String firstError;

    private Scan(long rows, int largestIndex, long errorLine, String firstError) {
      this.rows = rows;
      this.largestIndex = largestIndex;
      this.errorLine = errorLine;
      this.firstError = firstError;
    }

    static Scan of(String line, long number) {
      String trimmed = line.trim();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        return EMPTY;
      }
      String[] tokens = trimmed.split("\\s+");
      int largest = 0;
      for (int i = 0; i < tokens.length; i++) {
        String token = tokens[i];
        int colon = token.indexOf(':');
        try {
          if (i == 0) {
            Double.parseDouble(token);
            continue;
          }
          int index = Integer.parseInt(token.substring(0, Math.max(colon, 0)));
          Double.parseDouble(token.substring(colon + 1));
          if (index < 1) {
            return error(number, token, "feature indices start at 1");
          }
          largest = Math.max(largest, index);
        } catch (NumberFormatException e) {
          return error(number, token, i == 0 ? "a label must be a number"
              : "a feature must be index:value");
        }
      }
      return new Scan(1, largest, Long.MAX_VALUE, null);
    }

    private static Scan error(long number, String token, String rule) {
      return new Scan(1, 0, number, "line " + number + ": '" + token + "' (" + rule + ")");
    }

    Scan merge(Scan other) {
      Scan first = errorLine <= other.errorLine ? this : other;
      return new Scan(rows + other.rows, Math.max(largestIndex, other.largestIndex),
          first.errorLine, first.firstError);
    }
  }

  /** The features as the papers' X (d × n) on the driver, and the labels, in row order. */
  DriverCopy collect() {
    List<Row> rows = frame.select("label", "features").collectAsList();
    DenseMatrix x = new DenseMatrix(numFeatures, rows.size());
    int[] labels = new int[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      labels[i] = (int) rows.get(i).getDouble(0);
      double[] v = ((Vector) rows.get(i).get(1)).toArray();
      System.arraycopy(v, 0, x.data(), i * numFeatures, numFeatures);
    }
    return new DriverCopy(x, labels);
  }

  /** Data and labels on the driver. */
  static final class DriverCopy {
    final DenseMatrix x;
    final int[] labels;

    DriverCopy(DenseMatrix x, int[] labels) {
      this.x = x;
      this.labels = labels;
    }
  }
}
