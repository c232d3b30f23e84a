package io.github.sparkufs.examples;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.examples.bench.PaperProtocol;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.ml.Selectors;
import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code demo}: generated data with clusters planted on a few features among many noise
 * features of the same variance. Each method keeps as many features as were planted; the demo
 * prints how many planted features it found and k-means ACC/NMI with all features and with the
 * kept ones.
 */
@Command(name = "demo",
    header = "Select features of generated data with every method and score them.",
    description = "Selects features of generated data and prints how many planted features each"
        + " method found, and k-means ACC/NMI with all features and with the kept ones.")
final class DemoCommand extends SparkCommand {

  @Option(names = "--rows", paramLabel = "n", description = "Rows (default: ${DEFAULT-VALUE}).")
  int n = 2000;

  @Mixin
  SharedOptions.Planted plantedOptions = new SharedOptions.Planted(60, 4);

  @Mixin
  SharedOptions.Methods methodOptions = new SharedOptions.Methods(Selectors.names());

  @Mixin
  SharedOptions.KMeansRuns kmeansRuns = new SharedOptions.KMeansRuns(10);

  @Mixin
  SharedOptions.Seed seedOption;

  @Override
  void run(PrintWriter out) throws IOException {
    int d = plantedOptions.features;
    int informative = plantedOptions.informative;
    int c = plantedOptions.clusters;
    long seed = seedOption.seed;
    int runs = kmeansRuns.checked();
    List<String> methods = methodOptions.checked();
    PlantedClusters planted = plantedOptions.generator(seed);
    try (SparkSession spark = session("")) {
      DenseMatrix x = planted.matrix(n);
      int[] labels = planted.labels(n);
      Dataset<Row> data = Frames.features(spark, x).cache();
      data.count();
      PaperProtocol protocol = new PaperProtocol(c, runs, seed);
      int[] all = new int[d];
      for (int f = 0; f < d; f++) {
        all[f] = f;
      }
      PaperProtocol.Row baseline = protocol.evaluate(x, labels, all);
      out.printf("Planted: %d rows, %d clusters on %d of %d features (the rest: noise of equal "
          + "variance); %s BLAS, %s%n", n, c, informative, d, LinalgBackend.describe(),
          spark.sparkContext().master());
      out.printf("%-10s %8s %10s %16s %16s%n", "method", "fit s", "planted", "k-means ACC",
          "k-means NMI");
      out.printf("%-10s %8s %10s %8.3f ± %.3f %8.3f ± %.3f%n", "(all)", "-", "-",
          baseline.acc().mean(), baseline.acc().std(), baseline.nmi().mean(), baseline.nmi().std());
      for (String m : methods) {
        UnsupervisedSelector<?> selector = Selectors.create(m)
            .setIfPresent("numClusters", c).setNumTopFeatures(informative).setIfPresent("seed", seed);
        long start = System.nanoTime();
        UnsupervisedSelectorModel model = selector.fit(data);
        double seconds = (System.nanoTime() - start) / 1e9;
        int[] kept = model.selectedFeatures();
        PaperProtocol.Row r = protocol.evaluate(x, labels, kept);
        int found = (int) Math.round(planted.recall(model.ranking()) * informative);
        out.printf("%-10s %8.2f %7d/%-2d %8.3f ± %.3f %8.3f ± %.3f%n", m, seconds, found,
            informative, r.acc().mean(), r.acc().std(), r.nmi().mean(), r.nmi().std());
      }
    }
  }
}
