package io.github.sparkufs.examples;

import io.github.sparkufs.eval.PaperProtocol;
import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.ml.Selectors;
import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import java.io.PrintStream;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * {@code demo}: generated data with clusters planted on a few features among many noise
 * features of the same variance. Each method keeps as many features as were planted; the demo
 * prints how many planted features it found and k-means ACC/NMI with all features and with the
 * kept ones.
 */
final class DemoCommand {

  static final Set<String> OPTIONS = Set.of("rows", "features", "informative", "clusters",
      "separation", "methods", "seed", "master", "kmeans-runs");

  private DemoCommand() {}

  static void run(Arguments args, PrintStream out) throws java.io.IOException {
    int n = args.integer("rows", 2000);
    int d = args.integer("features", 60);
    int informative = args.integer("informative", 10);
    int c = args.integer("clusters", 4);
    double separation = args.decimal("separation", 2.0);
    long seed = args.longValue("seed", 1L);
    int runs = args.integer("kmeans-runs", 10);
    String[] methods = args.string("methods", String.join(",", Selectors.names())).split(",");
    PlantedClusters planted;
    try {
      planted = new PlantedClusters(d, informative, c, separation, seed);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    for (String m : methods) {
      Selectors.create(m.trim());
    }
    try (SparkSession spark = Sessions.create("spark-ufs demo", args.string("master", "local[*]"))) {
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
        UnsupervisedSelector<?> selector = Selectors.create(m.trim())
            .setIfPresent("numClusters", c).setNumTopFeatures(informative).setIfPresent("seed", seed);
        long start = System.nanoTime();
        UnsupervisedSelectorModel model = selector.fit(data);
        double seconds = (System.nanoTime() - start) / 1e9;
        int[] kept = model.selectedFeatures();
        PaperProtocol.Row r = protocol.evaluate(x, labels, kept);
        int found = (int) Math.round(planted.recall(model.ranking()) * informative);
        out.printf("%-10s %8.2f %7d/%-2d %8.3f ± %.3f %8.3f ± %.3f%n", m.trim(), seconds, found,
            informative, r.acc().mean(), r.acc().std(), r.nmi().mean(), r.nmi().std());
      }
    }
  }
}
