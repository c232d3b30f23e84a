package io.github.sparkufs.examples;

import io.github.sparkufs.linalg.DenseMatrix;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.attribute.Attribute;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.attribute.NumericAttribute;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;

/**
 * The input of a command, read with Spark: a LIBSVM file or a table (csv with a header line,
 * parquet, orc, json; cached) as a frame of the id columns, the label column when there is
 * one, and a {@value #FEATURES} vector column whose ML attributes name the features when their
 * names are known (as {@code VectorAssembler} writes them, so that the model's summary and its
 * output column carry them). Mistakes are reported before any fitting. Also the driver-side copy
 * for the papers' k-means protocol.
 */
final class LabeledData {

  /** The formats {@code --format} takes. */
  static final List<String> FORMATS = List.of("libsvm", "csv", "parquet", "orc", "json");
  static final String FEATURES = "features";
  private static final String LIBSVM_LABEL = "label";
  /** The assembled vector's name before it is renamed to {@value #FEATURES}. */
  private static final String ASSEMBLED = "__sparkufs_features";

  final Dataset<Row> frame;
  final int numFeatures;
  /** The label column; null when there is none. */
  final String labelCol;
  final List<String> idCols;

  private LabeledData(Dataset<Row> frame, int numFeatures, String labelCol,
      List<String> idCols) {
    this.frame = frame;
    this.numFeatures = numFeatures;
    this.labelCol = labelCol;
    this.idCols = List.copyOf(idCols);
  }

  /** Reads {@code --data} as the options say, failing on the first mistake found. */
  static LabeledData read(SparkSession spark, SharedOptions.InputTable in) {
    String format = format(in.format, in.path);
    if (!in.path.contains("://") && !Files.exists(Path.of(in.path))) {
      throw new UsageException("data file not found: " + in.path);
    }
    List<String> names = in.featureNames == null ? null : names(in.featureNames);
    Dataset<Row> frame;
    String labelCol;
    if (format.equals("libsvm")) {
      if (in.numFeatures == null) {
        throw new UsageException("--num-features is required for LIBSVM data: pass its d");
      }
      if (in.featureCols != null || in.labelCol != null || !in.idCols.isEmpty()) {
        throw new UsageException("--feature-cols, --label-col and --id-cols name columns of a"
            + " table; " + in.path + " is LIBSVM (label and features only)");
      }
      frame = libsvm(spark, in.path, in.numFeatures);
      labelCol = LIBSVM_LABEL;
    } else {
      Dataset<Row> table = table(spark, in.path, format);
      labelCol = labelColumn(table, in);
      frame = features(table, in, labelCol).cache();
      frame.count();
    }
    int d = AttributeGroup.fromStructField(frame.schema().apply(FEATURES)).size();
    if (d < 0) {
      d = ((Vector) frame.select(FEATURES).first().get(0)).size();
    }
    if (names != null) {
      if (names.size() != d) {
        throw new UsageException("--feature-names " + in.featureNames + " has " + names.size()
            + " names but " + in.path + " has " + d + " features");
      }
      Attribute[] attributes = names.stream()
          .map(name -> NumericAttribute.defaultAttr().withName(name)).toArray(Attribute[]::new);
      frame = frame.withColumn(FEATURES, frame.col(FEATURES),
          new AttributeGroup(FEATURES, attributes).toMetadata());
    }
    return new LabeledData(frame, d, labelCol, in.idCols);
  }

  /**
   * The format named by {@code --format}, or when none is, the one of the path's extension
   * ({@code .gz} aside), LIBSVM for any other.
   */
  static String format(String named, String path) {
    if (named != null) {
      if (!FORMATS.contains(named)) {
        throw new UsageException("--format takes one of " + String.join(", ", FORMATS)
            + ", got '" + named + "'");
      }
      return named;
    }
    String name = path.replaceAll("/+$", "").replaceAll("\\.gz$", "");
    String extension = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    return FORMATS.contains(extension) ? extension : "libsvm";
  }

  private static List<String> names(Path file) {
    try {
      return Files.readAllLines(file).stream().map(String::strip).filter(l -> !l.isEmpty())
          .toList();
    } catch (IOException e) {
      throw new UsageException("cannot read --feature-names " + file + ": " + e.getMessage());
    }
  }

  private static Dataset<Row> table(SparkSession spark, String path, String format) {
    DataFrameReader reader = spark.read().format(format);
    if (format.equals("csv")) {
      reader = reader.option("header", true).option("inferSchema", true);
    }
    Dataset<Row> table = reader.load(path);
    if (table.isEmpty()) {
      throw new UsageException("no rows in " + path);
    }
    return table;
  }

  /** The named label column, else "label" when the table has it, else none (null). */
  private static String labelColumn(Dataset<Row> table, SharedOptions.InputTable in) {
    if (in.labelCol != null) {
      column(table, in.labelCol, in.path);
      return in.labelCol;
    }
    return Arrays.asList(table.columns()).contains(LIBSVM_LABEL) ? LIBSVM_LABEL : null;
  }

  /**
   * The table's id and label columns and its features as one vector column: the named columns
   * (numeric ones, or one vector column) or every numeric column that is not a label or an id.
   * An empty value becomes NaN, which the selector's {@code handleInvalid} reports or skips.
   */
  private static Dataset<Row> features(Dataset<Row> table, SharedOptions.InputTable in,
      String labelCol) {
    List<String> kept = new ArrayList<>(in.idCols);
    if (labelCol != null) {
      kept.add(labelCol);
    }
    kept.forEach(name -> column(table, name, in.path));
    List<String> features;
    if (in.featureCols != null) {
      features = in.featureCols;
      for (String name : features) {
        DataType type = column(table, name, in.path).dataType();
        if (kept.contains(name)) {
          throw new UsageException("column '" + name + "' is both a feature and a label or id");
        }
        if (type.equals(SQLDataTypes.VectorType()) ? features.size() > 1
            : !(type instanceof NumericType)) {
          throw new UsageException("column '" + name + "' of " + in.path + " is "
              + type.simpleString() + ": --feature-cols takes numeric columns or one vector"
              + " column");
        }
      }
    } else {
      features = Arrays.stream(table.schema().fields())
          .filter(f -> f.dataType() instanceof NumericType && !kept.contains(f.name()))
          .map(StructField::name).toList();
      if (features.isEmpty()) {
        throw new UsageException("no numeric column in " + in.path + " but the label and id"
            + " columns (" + columnList(table) + "): name the features with --feature-cols");
      }
    }
    Column[] columns = new Column[kept.size() + 1];
    for (int i = 0; i < kept.size(); i++) {
      columns[i] = table.col(kept.get(i));
    }
    Dataset<Row> assembled;
    if (table.schema().apply(features.get(0)).dataType().equals(SQLDataTypes.VectorType())) {
      assembled = table.withColumn(ASSEMBLED, table.col(features.get(0)));
    } else {
      assembled = new VectorAssembler().setInputCols(features.toArray(new String[0]))
          .setOutputCol(ASSEMBLED).setHandleInvalid("keep").transform(table);
    }
    columns[kept.size()] = assembled.col(ASSEMBLED).as(FEATURES);
    return assembled.select(columns);
  }

  private static StructField column(Dataset<Row> table, String name, String path) {
    if (!Arrays.asList(table.columns()).contains(name)) {
      throw new UsageException("no column '" + name + "' in " + path + " (columns: "
          + columnList(table) + ")");
    }
    return table.schema().apply(name);
  }

  private static String columnList(Dataset<Row> table) {
    return Arrays.stream(table.schema().fields())
        .map(f -> f.name() + " " + f.dataType().simpleString()).collect(Collectors.joining(", "));
  }

  /**
   * Reads a LIBSVM file (gzip allowed) with d features, in one pass over the file: columns
   * "label" and "features" (sparse vectors, their ML attributes giving d), as Spark's
   * {@code libsvm} source reads them. Indices beyond d and lines that are not LIBSVM are
   * reported, with their line numbers, before any fitting. The parsed lines stay persisted for
   * the session and the frame is made from them as it is read, not cached itself: a fit reads
   * its input once into its own blocks.
   */
  private static Dataset<Row> libsvm(SparkSession spark, String path, int numFeatures) {
    if (numFeatures < 1) {
      throw new UsageException("--num-features must be >= 1, got " + numFeatures);
    }
    // Read as an RDD of lines, not by Spark SQL's text source: no query to plan and compile.
    // At least 1 partition, not the default 2: a file within one block (and any gzip file) is
    // one partition, which zipWithIndex numbers without a job of its own to count the lines.
    JavaRDD<LibsvmLine> lines = JavaSparkContext.fromSparkContext(spark.sparkContext())
        .textFile(path, 1).zipWithIndex()
        .map(line -> LibsvmLine.parse(line._1(), line._2() + 1, numFeatures))
        .persist(StorageLevel.MEMORY_AND_DISK());
    try {
      check(lines.map(line -> line.scan).fold(Scan.EMPTY, Scan::merge), path, numFeatures);
    } catch (UsageException e) {
      lines.unpersist(false);
      throw e;
    }
    StructType schema = new StructType()
        .add(LIBSVM_LABEL, DataTypes.DoubleType, false)
        .add(FEATURES, SQLDataTypes.VectorType(), false,
            new AttributeGroup(FEATURES, numFeatures).toMetadata());
    return spark.createDataFrame(lines.filter(line -> line.row != null).map(line -> line.row),
        schema);
  }

  /** Fails on a file without rows, on its first wrong line, or on an index beyond d. */
  private static void check(Scan scan, String path, int numFeatures) {
    if (scan.rows == 0) {
      throw new UsageException("no rows in " + path);
    }
    if (scan.firstError != null) {
      throw new UsageException(path + ", " + scan.firstError);
    }
    if (scan.largestIndex > numFeatures) {
      throw new UsageException(path + " has feature index " + scan.largestIndex
          + " but --num-features is " + numFeatures + ": pass the dataset's d");
    }
  }

  /**
   * One line of a LIBSVM file ({@code label index:value ...}, indices ≥ 1 and increasing):
   * its row (none for a blank, comment or wrong line) and its part of the file's {@link Scan}.
   */
  static final class LibsvmLine implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final LibsvmLine BLANK = new LibsvmLine(null, Scan.EMPTY);

    /** label and features; null for a blank, comment or wrong line. */
    final Row row;
    final Scan scan;

    private LibsvmLine(Row row, Scan scan) {
      this.row = row;
      this.scan = scan;
    }

    static LibsvmLine parse(String line, long number, int numFeatures) {
      String trimmed = line.trim();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        return BLANK;
      }
      int labelEnd = tokenEnd(trimmed, 0);
      int features = 0;
      for (int at = tokenStart(trimmed, labelEnd); at < trimmed.length();
          at = tokenStart(trimmed, tokenEnd(trimmed, at))) {
        features++;
      }
      int[] indices = new int[features];
      double[] values = new double[features];
      double label;
      try {
        label = DecimalParser.parse(trimmed, 0, labelEnd);
      } catch (NumberFormatException e) {
        return error(number, trimmed.substring(0, labelEnd), "a label must be a number");
      }
      int start = tokenStart(trimmed, labelEnd);
      for (int i = 0; i < features; i++) {
        int end = tokenEnd(trimmed, start);
        int colon = trimmed.indexOf(':', start);
        // A token without ':' has an empty index, which Integer.parseInt refuses.
        int indexEnd = colon >= 0 && colon < end ? colon : start;
        try {
          indices[i] = Integer.parseInt(trimmed, start, indexEnd, 10);
          values[i] = DecimalParser.parse(trimmed, indexEnd + 1, end);
        } catch (NumberFormatException e) {
          return error(number, trimmed.substring(start, end), "a feature must be index:value");
        }
        if (indices[i] < 1) {
          return error(number, trimmed.substring(start, end), "feature indices start at 1");
        }
        if (i > 0 && indices[i] <= indices[i - 1]) {
          return error(number, trimmed.substring(start, end),
              "feature indices must increase along a line");
        }
        start = tokenStart(trimmed, end);
      }
      int largest = indices.length == 0 ? 0 : indices[indices.length - 1];
      Scan scan = new Scan(1, largest, Long.MAX_VALUE, null);
      if (largest > numFeatures) {
        return new LibsvmLine(null, scan);
      }
      for (int i = 0; i < indices.length; i++) {
        indices[i]--;
      }
      return new LibsvmLine(
          RowFactory.create(label, Vectors.sparse(numFeatures, indices, values)), scan);
    }

    /** Where the token at or after {@code from} starts; the line's length when none does. */
    private static int tokenStart(String line, int from) {
      int at = from;
      while (at < line.length() && isSeparator(line.charAt(at))) {
        at++;
      }
      return at;
    }

    /** Where the token that starts at {@code from} ends (exclusive). */
    private static int tokenEnd(String line, int from) {
      int at = from;
      while (at < line.length() && !isSeparator(line.charAt(at))) {
        at++;
      }
      return at;
    }

    /**
     * Whether {@code c} separates a line's tokens: a character of the regular expression
     * {@code \s}, the space or one of \t, \n, \u000B, \f and \r.
     */
    private static boolean isSeparator(char c) {
      return c == ' ' || c >= '\t' && c <= '\r';
    }

    private static LibsvmLine error(long number, String token, String rule) {
      return new LibsvmLine(null,
          new Scan(1, 0, number, "line " + number + ": '" + token + "' (" + rule + ")"));
    }
  }

  /** A file's lines summed up: rows, the largest feature index, and the first mistake. */
  static final class Scan implements Serializable {
    private static final long serialVersionUID = 2L;
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

    Scan merge(Scan other) {
      Scan first = errorLine <= other.errorLine ? this : other;
      return new Scan(rows + other.rows, Math.max(largestIndex, other.largestIndex),
          first.errorLine, first.firstError);
    }
  }

  /**
   * The features as the papers' X (d × n) on the driver, and the labels, in row order; the
   * label column must be numeric.
   */
  DriverCopy collect() {
    if (labelCol == null) {
      throw new UsageException("no label column to evaluate with: name it with --label-col");
    }
    DataType type = frame.schema().apply(labelCol).dataType();
    if (!(type instanceof NumericType)) {
      throw new UsageException("label column '" + labelCol + "' is " + type.simpleString()
          + ": evaluating needs numeric labels");
    }
    List<Row> rows = frame.select(frame.col(labelCol).cast("double"), frame.col(FEATURES))
        .collectAsList();
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
