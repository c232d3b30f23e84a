package io.github.sparkufs.examples;

import io.github.sparkufs.ml.Selectors;
import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import org.apache.spark.sql.SparkSession;

/**
 * {@code select}: fit a method on a LIBSVM file and write the model ({@code DIR/model},
 * loadable with {@code UnsupervisedSelectorModel.load}) and the scores
 * ({@code DIR/scores.csv}: feature, score, rank, selected; features 0-based).
 */
final class SelectCommand {

  static final Set<String> OPTIONS = Set.of("method", "data", "num-features", "clusters", "top",
      "param", "output", "master");

  private SelectCommand() {}

  static void run(Arguments args, PrintStream out) throws IOException {
    String method = args.required("method");
    UnsupervisedSelector<?> selector = Selectors.create(method);
    String data = args.required("data");
    int d = args.requiredInteger("num-features");
    int top = args.requiredInteger("top");
    Path output = Path.of(args.required("output"));
    if (Files.exists(output)) {
      throw new UsageException("output folder already exists: " + output);
    }
    selector.setIfPresent("numClusters", args.requiredInteger("clusters")).setNumTopFeatures(top);
    MethodParams.apply(selector, args.params());
    selector.validateSelection();
    try (SparkSession spark = Sessions.create("spark-ufs select " + method,
        args.string("master", "local[*]"))) {
      LabeledData labeled = LabeledData.libsvm(spark, data, d);
      UnsupervisedSelectorModel model = selector.fit(labeled.frame);
      OutputFiles.replace(output, dir -> write(model, dir));
      int[] ranking = model.ranking();
      out.printf("%s: kept %d of %d features (best first: %s)%n", method,
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
