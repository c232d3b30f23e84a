package io.github.sparkufs.examples;

import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code select}: fit a method on a LIBSVM file and write the model ({@code DIR/model},
 * loadable with {@code UnsupervisedSelectorModel.load}) and the scores
 * ({@code DIR/scores.csv}: feature, score, rank, selected; features 0-based).
 */
@Command(name = "select",
    header = "Fit a method on a LIBSVM file; write the model and the feature scores.",
    description = "Fits a method on a LIBSVM file and writes the model (DIR/model) and every"
        + " feature's score, rank and whether it was kept (DIR/scores.csv, features 0-based).")
final class SelectCommand extends SparkCommand {

  @Mixin
  SharedOptions.Method method;

  @Mixin
  SharedOptions.LabeledFile input;

  @Option(names = "--top", required = true, paramLabel = "m",
      description = "Number of top features to keep.")
  int top;

  @Mixin
  SharedOptions.Params params;

  @Option(names = "--output", required = true, paramLabel = "DIR",
      description = "Folder to create for the model and the scores.")
  Path output;

  @Override
  void run(PrintWriter out) throws IOException {
    UnsupervisedSelector<?> selector = method.create();
    if (Files.exists(output)) {
      throw new UsageException("output folder already exists: " + output);
    }
    selector.setIfPresent("numClusters", input.clusters).setNumTopFeatures(top);
    params.applyTo(selector);
    selector.validateSelection();
    int d = input.numFeatures;
    try (SparkSession spark = session(method.name)) {
      LabeledData labeled = input.read(spark);
      UnsupervisedSelectorModel model = selector.fit(labeled.frame);
      OutputFiles.replace(output, dir -> write(model, dir));
      int[] ranking = model.ranking();
      out.printf("%s: kept %d of %d features (best first: %s)%n", method.name,
          model.selectedFeatures().length, d,
          Arrays.toString(Arrays.copyOf(ranking, Math.min(10, ranking.length))));
      out.println("wrote " + output.resolve("model") + " and " + output.resolve("scores.csv"));
    }
  }

  /** The model and a CSV of every feature's score, rank and whether it was kept. */
  private static void write(UnsupervisedSelectorModel model, Path dir) throws IOException {
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
      w.println("feature,score,rank,selected");
      for (int f = 0; f < scores.length; f++) {
        w.println(f + "," + scores[f] + "," + rank[f] + "," + (Arrays.binarySearch(kept, f) >= 0));
      }
    }
  }
}
