package io.github.sparkufs.examples;

import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.ml.functions;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.stat.Summarizer;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code select}: fit a method on a LIBSVM file or a table and write the model
 * ({@code DIR/model}, loadable with {@code UnsupervisedSelectorModel.load}) and the scores
 * ({@code DIR/scores.csv}: feature, name, score, rank, selected; features 0-based). The kept
 * features are printed by name when the input names them. {@code --write-selected} also writes
 * the kept features as a table with the id and label columns; {@code --image-shape} draws the
 * kept pixels and the score map ({@link PixelMaps}) into DIR.
 */
@Command(name = "select",
    header = "Fit a method on a LIBSVM file or a table; write the model and the feature scores.",
    description = "Fits a method on a LIBSVM file or a table and writes the model (DIR/model)"
        + " and every feature's name, score, rank and whether it was kept (DIR/scores.csv,"
        + " features 0-based); prints the kept features by name.")
final class SelectCommand extends SparkCommand {

  /** Kept features printed by name; the rest are in scores.csv. */
  private static final int PRINTED = 20;

  @Mixin
  SharedOptions.Method method;

  @Mixin
  SharedOptions.InputTable input;

  @Option(names = "--top", required = true, paramLabel = "m",
      description = "Number of top features to keep.")
  int top;

  @Mixin
  SharedOptions.Params params;

  @Option(names = "--output", required = true, paramLabel = "DIR",
      description = "Folder to create for the model and the scores.")
  Path output;

  @Option(names = "--write-selected", paramLabel = "PATH",
      description = "Also write the kept features, with the id and label columns, as a table"
          + " (format from the extension: parquet, csv, orc or json; parquet for any other)."
          + " Written to a hidden sibling, then renamed; on s3a:// that rename is a copy, not"
          + " atomic.")
  String selectedTable;

  @Mixin
  SharedOptions.ImageShape image = new SharedOptions.ImageShape(null);

  @Override
  void run(PrintWriter out) throws IOException {
    UnsupervisedSelector<?> selector = method.create();
    if (Files.exists(output)) {
      throw new UsageException("output folder already exists: " + output);
    }
    String tableFormat = selectedTable == null ? null : tableFormat(selectedTable);
    selector.setIfPresent("numClusters", input.clusters).setNumTopFeatures(top);
    params.applyTo(selector);
    selector.validateSelection();
    try (SparkSession spark = session(method.name)) {
      if (selectedTable != null && OutputFiles.tableExists(spark, selectedTable)) {
        throw new UsageException("--write-selected " + selectedTable + " already exists");
      }
      LabeledData data = input.read(spark);
      SharedOptions.ImageSize shape = image.checked(data.numFeatures);
      UnsupervisedSelectorModel model = selector.fit(data.frame);
      List<String> names = names(model);
      double[] mean = shape == null ? null : mean(data.frame);
      OutputFiles.replace(output, dir -> {
        write(model, names, dir);
        if (shape != null) {
          drawPixels(new PixelMaps(shape), model, mean, dir);
        }
      });
      if (selectedTable != null) {
        OutputFiles.writeTable(selectedColumns(model, data, names), tableFormat, selectedTable);
      }
      int[] ranking = model.ranking();
      int kept = model.selectedFeatures().length;
      out.printf("%s: kept %d of %d features%n", method.name, kept, data.numFeatures);
      out.println("kept, best first: " + Arrays.stream(ranking).limit(Math.min(kept, PRINTED))
          .mapToObj(names::get).collect(Collectors.joining(", "))
          + (kept > PRINTED ? ", ... (" + (kept - PRINTED) + " more in scores.csv)" : ""));
      out.println("wrote " + output.resolve("model") + " and " + output.resolve("scores.csv")
          + (shape == null ? "" : ", " + PixelMaps.KEPT + ", " + PixelMaps.SCORES));
      if (selectedTable != null) {
        out.println("wrote " + selectedTable);
      }
    }
  }

  /** The format of the table --write-selected writes, from its extension. */
  private static String tableFormat(String path) {
    String format = LabeledData.format(null, path);
    return format.equals("libsvm") ? "parquet" : format;
  }

  /** The features' names the model keeps, or "feature<j>" (0-based) where it has none. */
  private static List<String> names(UnsupervisedSelectorModel model) {
    List<String> names = model.summary().featureNames();
    return names.isEmpty()
        ? IntStream.range(0, model.numFeatures()).mapToObj(j -> "feature" + j).toList()
        : names;
  }

  private static double[] mean(Dataset<Row> frame) {
    Row row = frame.select(Summarizer.mean(frame.col(LabeledData.FEATURES))).first();
    return ((Vector) row.get(0)).toArray();
  }

  private void drawPixels(PixelMaps maps, UnsupervisedSelectorModel model, double[] mean,
      Path dir) throws IOException {
    int[] kept = model.selectedFeatures();
    maps.writeKept(dir, method.name + ": " + kept.length + " kept pixels", mean, kept);
    maps.writeScores(dir, method.name + " scores", model.scores(), model.isLargerBetter());
  }

  /** The id and label columns, then each kept feature as a column of its name. */
  private static Dataset<Row> selectedColumns(UnsupervisedSelectorModel model, LabeledData data,
      List<String> names) {
    Dataset<Row> selected = model.transform(data.frame);
    List<Column> columns = new ArrayList<>();
    data.idCols.forEach(id -> columns.add(selected.col(id)));
    if (data.labelCol != null) {
      columns.add(selected.col(data.labelCol));
    }
    Column values = functions.vector_to_array(selected.col(model.getOutputCol()), "float64");
    int[] kept = model.selectedFeatures();
    for (int q = 0; q < kept.length; q++) {
      columns.add(values.getItem(q).as(names.get(kept[q])));
    }
    return selected.select(columns.toArray(new Column[0]));
  }

  /** The model and a CSV of every feature's name, score, rank and whether it was kept. */
  private static void write(UnsupervisedSelectorModel model, List<String> names, Path dir)
      throws IOException {
    Files.createDirectories(dir);
    model.write().save(dir.resolve("model").toString());
    int[] ranking = model.ranking();
    int[] rank = new int[ranking.length];
    for (int r = 0; r < ranking.length; r++) {
      rank[ranking[r]] = r + 1;
    }
    int[] kept = model.selectedFeatures();
    double[] scores = model.scores();
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve("scores.csv")))) {
      w.println("feature,name,score,rank,selected");
      for (int f = 0; f < scores.length; f++) {
        w.println(f + "," + csvField(names.get(f)) + "," + scores[f] + "," + rank[f] + ","
            + (Arrays.binarySearch(kept, f) >= 0));
      }
    }
  }

  /** A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
  private static String csvField(String text) {
    return text.matches("[^,\"\\r\\n]*") ? text : "\"" + text.replace("\"", "\"\"") + "\"";
  }
}
