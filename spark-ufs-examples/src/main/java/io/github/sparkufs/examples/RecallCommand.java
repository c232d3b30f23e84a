package io.github.sparkufs.examples;

import io.github.sparkufs.eval.GroundTruthFamily;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.ml.Selectors;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * {@code recall}: the ground-truth table. Every method at its default params on every
 * {@link GroundTruthFamily}, a few draws each, keeping as many features as were planted; prints
 * the mean share of the planted features found per family and overall, and writes one CSV row
 * per fit. {@code docs/recall.md} is this command's output.
 */
final class RecallCommand {

  static final Set<String> OPTIONS = Set.of("methods", "families", "seeds", "csv", "master");

  private RecallCommand() {}

  static void run(Arguments args, PrintStream out) throws IOException {
    List<String> methods = list(args.string("methods", String.join(",", Selectors.names())));
    for (String m : methods) {
      Selectors.create(m);
    }
    List<GroundTruthFamily> families = new ArrayList<>();
    for (String f : list(args.string("families", ""))) {
      families.add(family(f));
    }
    if (families.isEmpty()) {
      families.addAll(Arrays.asList(GroundTruthFamily.values()));
    }
    int seeds = args.integer("seeds", 3);
    if (seeds < 1) {
      throw new UsageException("--seeds must be >= 1, got " + seeds);
    }
    String csv = args.string("csv", null);
    double[][] recall = new double[methods.size()][families.size()];
    StringBuilder rows = new StringBuilder("family,method,seed,recall,fit_seconds\n");
    try (SparkSession spark = Sessions.create("spark-ufs recall", args.string("master", "local[*]"))) {
      out.printf("Planted-feature recall at m = %d, default params, mean of %d draws; %s BLAS%n",
          GroundTruthFamily.INFORMATIVE, seeds, LinalgBackend.describe());
      for (int fi = 0; fi < families.size(); fi++) {
        GroundTruthFamily family = families.get(fi);
        for (long seed = 1; seed <= seeds; seed++) {
          GroundTruthFamily.Draw draw = family.draw(seed);
          Dataset<Row> data = Frames.features(spark, draw.x()).cache();
          data.count();
          for (int mi = 0; mi < methods.size(); mi++) {
            long start = System.nanoTime();
            UnsupervisedSelectorModel model = Selectors.create(methods.get(mi))
                .setIfPresent("numClusters", family.clusters())
                .setNumTopFeatures(GroundTruthFamily.INFORMATIVE).setIfPresent("seed", seed).fit(data);
            double seconds = (System.nanoTime() - start) / 1e9;
            double r = draw.recall(model.ranking());
            recall[mi][fi] += r / seeds;
            rows.append(String.format(Locale.ROOT, "%s,%s,%d,%.4f,%.3f%n", family.label(),
                methods.get(mi), seed, r, seconds));
          }
          data.unpersist();
        }
      }
    }
    out.print(table(methods, families, recall));
    if (csv != null) {
      OutputFiles.replace(Path.of(csv), path -> Files.writeString(path, rows, StandardCharsets.UTF_8));
      out.println("wrote " + csv);
    }
  }

  /** A Markdown table: a row per method, a column per family, and the mean over families. */
  static String table(List<String> methods, List<GroundTruthFamily> families, double[][] recall) {
    StringBuilder t = new StringBuilder("| method |");
    StringBuilder rule = new StringBuilder("|---|");
    for (GroundTruthFamily f : families) {
      t.append(' ').append(f.label()).append(" |");
      rule.append("---|");
    }
    t.append(" overall |\n").append(rule).append("---|\n");
    for (int mi = 0; mi < methods.size(); mi++) {
      t.append("| ").append(methods.get(mi)).append(" |");
      for (double r : recall[mi]) {
        t.append(String.format(Locale.ROOT, " %.2f |", r));
      }
      t.append(String.format(Locale.ROOT, " **%.2f** |%n",
          Arrays.stream(recall[mi]).average().orElse(Double.NaN)));
    }
    return t.toString();
  }

  private static GroundTruthFamily family(String label) {
    for (GroundTruthFamily f : GroundTruthFamily.values()) {
      if (f.label().equals(label)) {
        return f;
      }
    }
    throw new UsageException("unknown family '" + label + "'; known: "
        + String.join(", ", Arrays.stream(GroundTruthFamily.values())
            .map(GroundTruthFamily::label).toArray(String[]::new)));
  }

  private static List<String> list(String csv) {
    List<String> out = new ArrayList<>();
    for (String s : csv.split(",")) {
      if (!s.isBlank()) {
        out.add(s.trim());
      }
    }
    return out;
  }
}
