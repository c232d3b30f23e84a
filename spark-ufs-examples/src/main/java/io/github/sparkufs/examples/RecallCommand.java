package io.github.sparkufs.examples;

import io.github.sparkufs.examples.bench.GroundTruthFamily;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.ml.Selectors;
import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code recall}: the ground-truth table. Every method at its default params (or those
 * {@code --param} sets) on every {@link GroundTruthFamily}, a few draws each, keeping as many features as were planted; prints
 * the mean share of the planted features found per family and overall, and writes one CSV row
 * per fit. {@code docs/recall.md} is this command's output.
 */
@Command(name = "recall",
    header = "Share of planted features each method finds, per data family.",
    description = "The ground-truth table: every method at its default params on every family"
        + " of planted data, a few draws each, keeping as many features as were planted; prints"
        + " the mean share of the planted features found, per family and overall. --param"
        + " changes a default, to see how a param moves the table.")
final class RecallCommand extends SparkCommand {

  @Mixin
  SharedOptions.Methods methodOptions = new SharedOptions.Methods(Selectors.names());

  @Mixin
  SharedOptions.Params params;

  @Option(names = "--families", split = ",", paramLabel = "F", converter = FamilyByLabel.class,
      completionCandidates = FamilyLabels.class,
      description = "Families of planted data, of ${COMPLETION-CANDIDATES} (default: all).")
  List<GroundTruthFamily> families = new ArrayList<>(List.of(GroundTruthFamily.values()));

  @Option(names = "--seeds", paramLabel = "N",
      description = "Draws per family, seeds 1..N (default: ${DEFAULT-VALUE}).")
  int seeds = 3;

  @Option(names = "--csv", paramLabel = "FILE", description = "Also write one CSV row per fit.")
  String csv;

  @Option(names = "--write-data", paramLabel = "DIR",
      description = "Also write each draw to DIR (new or empty), for other implementations to"
          + " run on: DIR/<family>-<seed>.libsvm.gz (labels 1..c) and"
          + " DIR/<family>-<seed>.planted.txt (the planted features' 1-based LIBSVM indices,"
          + " one a line).")
  Path writeData;

  /** The family labels for help texts and shell completion. */
  static final class FamilyLabels implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(GroundTruthFamily.values()).map(GroundTruthFamily::label).iterator();
    }
  }

  /** A family by its label, e.g. {@code many-noise}. */
  static final class FamilyByLabel implements ITypeConverter<GroundTruthFamily> {
    @Override
    public GroundTruthFamily convert(String label) {
      for (GroundTruthFamily f : GroundTruthFamily.values()) {
        if (f.label().equals(label)) {
          return f;
        }
      }
      throw new TypeConversionException("unknown family '" + label + "'");
    }
  }

  @Override
  void run(PrintWriter out) throws IOException {
    List<String> methods = methodOptions.checked();
    if (seeds < 1) {
      throw new UsageException("--seeds must be >= 1, got " + seeds);
    }
    if (writeData != null) {
      if (Files.exists(writeData) && !isEmptyDirectory(writeData)) {
        throw new UsageException(
            "--write-data " + writeData + " exists and is not an empty folder");
      }
      OutputFiles.replace(writeData, this::writeDraws);
      out.println("wrote " + families.size() * seeds + " draws to " + writeData);
    }
    double[][] recall = new double[methods.size()][families.size()];
    StringBuilder rows = new StringBuilder("family,method,seed,recall,fit_seconds\n");
    try (SparkSession spark = session("")) {
      out.printf("Planted-feature recall at m = %d, %s, mean of %d draws; %s BLAS%n",
          GroundTruthFamily.INFORMATIVE,
          params.values.isEmpty() ? "default params" : "params " + params.values, seeds,
          LinalgBackend.describe());
      for (int fi = 0; fi < families.size(); fi++) {
        GroundTruthFamily family = families.get(fi);
        for (long seed = 1; seed <= seeds; seed++) {
          GroundTruthFamily.Draw draw = family.draw(seed);
          Dataset<Row> data = Frames.features(spark, draw.x()).cache();
          data.count();
          for (int mi = 0; mi < methods.size(); mi++) {
            long start = System.nanoTime();
            UnsupervisedSelector<?> selector = Selectors.create(methods.get(mi))
                .setIfPresent("numClusters", family.clusters())
                .setNumTopFeatures(GroundTruthFamily.INFORMATIVE).setIfPresent("seed", seed);
            params.applyTo(selector, methods.get(mi));
            UnsupervisedSelectorModel model = selector.fit(data);
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

  private static boolean isEmptyDirectory(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.findAny().isEmpty();
    }
  }

  /** Every draw the table fits, in a new folder {@code dir}. */
  private void writeDraws(Path dir) throws IOException {
    Files.createDirectory(dir);
    for (GroundTruthFamily family : families) {
      for (long seed = 1; seed <= seeds; seed++) {
        GroundTruthFamily.Draw draw = family.draw(seed);
        String name = family.label() + "-" + seed;
        writeLibsvm(draw, dir.resolve(name + ".libsvm.gz"));
        StringBuilder planted = new StringBuilder();
        for (int f : draw.informative()) {
          planted.append(f + 1).append('\n');
        }
        Files.writeString(dir.resolve(name + ".planted.txt"), planted, StandardCharsets.UTF_8);
      }
    }
  }

  /**
   * A draw as gzip LIBSVM: a line per sample, its cluster 1..c as the label, then every non-zero
   * feature as {@code index:value} (index 1-based, value as {@link Double#toString}, which reads
   * back to the same double).
   */
  private static void writeLibsvm(GroundTruthFamily.Draw draw, Path file) throws IOException {
    DenseMatrix x = draw.x();
    int[] labels = draw.labels();
    try (Writer w = new OutputStreamWriter(
        new GZIPOutputStream(Files.newOutputStream(file)), StandardCharsets.US_ASCII)) {
      for (int i = 0; i < x.cols(); i++) {
        StringBuilder line = new StringBuilder().append(labels[i] + 1);
        for (int f = 0; f < x.rows(); f++) {
          double v = x.get(f, i);
          if (v != 0) {
            line.append(' ').append(f + 1).append(':').append(v);
          }
        }
        w.write(line.append('\n').toString());
      }
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
}
