package io.github.sparkufs.examples;

import io.github.sparkufs.eval.FeatureCountSuggestion;
import io.github.sparkufs.eval.StabilityCurve;
import io.github.sparkufs.ml.KMeansSilhouetteEvaluator;
import io.github.sparkufs.ml.SelectionStability;
import io.github.sparkufs.ml.UnsupervisedSelector;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code stability}: refits one method on resampled rows of a LIBSVM file and prints, for each
 * m, Nogueira's Φ with its 95% interval, Kuncheva's index, the silhouette of k-means on the
 * top m features of a fit on all rows, the median silhouette on m random features and the
 * gain of the first over the second; then the suggested m with the rule that chose it, and
 * the features most often kept at that m. {@code --chart} draws the evidence
 * ({@link NoLabelsCharts#stability}). The labels of the file are not used.
 */
@Command(name = "stability",
    header = "How stable a method's selection is, and how many features to keep, without labels.",
    description = "Refits a method on resampled rows and prints, for each m, the stability of"
        + " its top m features (Nogueira's Φ with a 95% interval, Kuncheva's index), the"
        + " silhouette of k-means on them and its gain over m random features (median of "
        + SelectionStability.DEFAULT_RANDOM_DRAWS + " draws); then a suggested m with the evidence: of the stable m, the largest gain."
        + " Labels are not used.")
final class StabilityCommand extends SparkCommand {

  /** The resampling options of {@code stability} and {@code compare}. */
  static final class Resampling {
    @Option(names = "--resamples", paramLabel = "B",
        description = "Refits on resampled rows (default: ${DEFAULT-VALUE}).")
    int resamples = 20;

    @Option(names = "--sample-fraction", paramLabel = "F",
        description = "Fraction of the rows in each subsample (default: ${DEFAULT-VALUE}).")
    double fraction = 0.8;

    @Option(names = "--bootstrap",
        description = "Bootstrap resamples (n rows with replacement) instead of subsamples.")
    boolean bootstrap;

    @Option(names = "--parallelism", paramLabel = "P",
        description = "Refits run at a time (default: ${DEFAULT-VALUE}).")
    int parallelism = 2;

    /** The resampling over {@code counts}, each below d, checked before any Spark work. */
    SelectionStability create(int[] counts, int d, long seed) {
      int largest = Arrays.stream(counts).max().orElse(0);
      if (largest >= d) {
        throw new UsageException("--select must stay below d = " + d + ", got " + largest);
      }
      return new SelectionStability().setNumResamples(resamples).setSampleFraction(fraction)
          .setBootstrap(bootstrap).setParallelism(parallelism).setNumFeatures(counts)
          .setSeed(seed);
    }
  }

  @Mixin
  SharedOptions.Method method;

  @Mixin
  SharedOptions.InputTable input;

  @Mixin
  SharedOptions.FeatureCounts featureCounts;

  @Mixin
  Resampling resampling;

  @Mixin
  SharedOptions.Params params;

  @Mixin
  SharedOptions.Seed seedOption;

  @Option(names = "--chart", paramLabel = "FILE",
      description = "Also draw the score, stability and silhouette curves to a PNG file.")
  Path chart;

  @Override
  void run(PrintWriter out) throws IOException {
    UnsupervisedSelector<?> selector = method.create();
    selector.setIfPresent("numClusters", input.clusters);
    params.applyTo(selector);
    KMeansSilhouetteEvaluator kmeans = new KMeansSilhouetteEvaluator().setK(input.clusters)
        .setSeed(seedOption.seed);
    try (SparkSession spark = session(method.name)) {
      LabeledData labeled = input.read(spark);
      SelectionStability stability = resampling.create(featureCounts.counts,
          labeled.numFeatures, seedOption.seed);
      FeatureCountSuggestion s = stability.suggestNumFeatures(selector, labeled.frame, kmeans);
      out.printf(Locale.ROOT, "%s on %s: %d %s of %.0f%% of the rows, d=%d, k-means c=%d%n",
          method.name, BenchCommand.datasetName(input.path), resampling.resamples,
          resampling.bootstrap ? "bootstrap resamples" : "subsamples",
          resampling.bootstrap ? 100.0 : 100 * resampling.fraction, labeled.numFeatures,
          input.clusters);
      out.println("     m   Nogueira Φ   95% interval        Kuncheva   silhouette   random m"
          + "     gain");
      double[] gains = s.silhouetteGains();
      for (int i = 0; i < s.stability().points().size(); i++) {
        StabilityCurve.Point p = s.stability().points().get(i);
        out.printf(Locale.ROOT, "%6d   %10.3f   [%6.3f, %6.3f]   %8.3f   %10.3f   %8.3f   %+6.3f%n",
            p.numFeatures(), p.nogueira().value(), p.nogueira().lower(), p.nogueira().upper(),
            p.kuncheva(), s.silhouettes()[i], s.randomSilhouettes()[i], gains[i]);
      }
      out.println("score curve elbow: m = " + s.scoreElbow());
      out.println("suggested m = " + s.numFeatures() + ": " + s.reason());
      StabilityCurve.Point chosen = s.stability().points().stream()
          .filter(p -> p.numFeatures() == s.numFeatures()).findFirst().orElseThrow();
      int[] frequent = chosen.mostFrequent();
      StringBuilder kept = new StringBuilder("most often kept at m = " + s.numFeatures()
          + " (feature: share of refits):");
      for (int r = 0; r < Math.min(10, frequent.length)
          && chosen.frequencies()[frequent[r]] > 0; r++) {
        kept.append(String.format(Locale.ROOT, " %d: %.2f", frequent[r],
            chosen.frequencies()[frequent[r]]));
      }
      out.println(kept);
      if (chart != null) {
        NoLabelsCharts.stability(s, method.name + " on " + BenchCommand.datasetName(input.path)
            + ": stability and the number of features", chart);
        out.println("wrote " + chart);
      }
    }
  }
}
