package io.github.sparkufs.examples;

import io.github.sparkufs.eval.Occlusion;
import io.github.sparkufs.eval.PaperProtocol;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.ml.Selectors;
import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * {@code occlusion}: the robustness experiment of the RSFS paper (§IV-D). A fraction of the
 * images gets a random square block (seeded, {@code --block} pixels, black); for each of
 * {@code --draws} draws every method of {@code --methods} (default {@value #DEFAULT_METHODS}, the
 * comparison of the paper's Fig. 2 that this library implements) is fitted on the same occluded
 * data and evaluated with the papers' protocol; the table shows ACC and NMI averaged over the
 * values of m and the draws. {@code --param key=value} applies to every method,
 * {@code --param method.key=value} to that method only.
 */
final class OcclusionCommand {

  static final Set<String> OPTIONS = Set.of("data", "num-features", "clusters", "image",
      "block", "fractions", "draws", "methods", "select", "kmeans-runs", "seed", "master", "param");

  /** The methods compared when {@code --methods} is not given. */
  static final String DEFAULT_METHODS = "rsfs,ndfs,lapscore,maxvar";

  private OcclusionCommand() {}

  static void run(Arguments args, PrintStream out) throws java.io.IOException {
    String data = args.required("data");
    int d = args.requiredInteger("num-features");
    int c = args.requiredInteger("clusters");
    String[] size = args.string("image", "32x32").split("x");
    if (size.length != 2) {
      throw new UsageException("--image takes WIDTHxHEIGHT, got '" + args.string("image", "") + "'");
    }
    int width = Integer.parseInt(size[0]);
    int height = Integer.parseInt(size[1]);
    if (width * height != d) {
      throw new UsageException("--image " + width + "x" + height + " has " + width * height
          + " pixels but --num-features is " + d);
    }
    int block = args.integer("block", Occlusion.DEFAULT_BLOCK_SIZE);
    double[] fractions = fractions(args.string("fractions", "0.2,0.3"));
    int draws = args.integer("draws", 10);
    String[] methods = args.string("methods", DEFAULT_METHODS).split(",");
    int[] ms = args.integers("select", "50,100,150,200,250,300");
    int runs = args.integer("kmeans-runs", 20);
    long seed = args.longValue("seed", 1L);
    for (String m : methods) {
      Selectors.create(m.trim());
    }
    Occlusion occlusion;
    try {
      occlusion = new Occlusion(width, height, block, 0.0);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    try (SparkSession spark = Sessions.create("spark-ufs occlusion",
        args.string("master", "local[*]"))) {
      LabeledData.DriverCopy clean = LabeledData.libsvm(spark, data, d).collect();
      PaperProtocol protocol = new PaperProtocol(c, runs, seed);
      out.printf("Occlusion of %s: %dx%d images, %dx%d black block, %d draws, ACC/NMI averaged "
          + "over m = %s%n", BenchCommand.datasetName(data), width, height, block, block, draws,
          args.string("select", "50,100,150,200,250,300"));
      out.printf("%-9s %-10s %-17s %-17s%n", "fraction", "method", "ACC mean ± std",
          "NMI mean ± std");
      for (double fraction : fractions) {
        double[][] acc = new double[methods.length][draws];
        double[][] nmi = new double[methods.length][draws];
        for (int draw = 0; draw < draws; draw++) {
          DenseMatrix occluded = occlusion.apply(clean.x, fraction, seed + draw).data();
          Dataset<Row> frame = Frames.features(spark, occluded).cache();
          for (int k = 0; k < methods.length; k++) {
            String method = methods[k].trim();
            UnsupervisedSelector<?> selector = Selectors.create(method).setIfPresent("numClusters", c)
                .setIfPresent("seed", seed);
            MethodParams.applyScoped(selector, method, args.params());
            UnsupervisedSelectorModel model = selector.fit(frame);
            List<PaperProtocol.Row> rows = protocol.evaluate(occluded, clean.labels,
                model.scores(), model.isLargerBetter(), ms);
            acc[k][draw] = rows.stream().mapToDouble(r -> r.acc().mean()).average().orElse(0);
            nmi[k][draw] = rows.stream().mapToDouble(r -> r.nmi().mean()).average().orElse(0);
          }
          frame.unpersist();
        }
        for (int k = 0; k < methods.length; k++) {
          out.printf("%-9.2f %-10s %.4f ± %.4f   %.4f ± %.4f%n", fraction,
              methods[k].trim(), mean(acc[k]), std(acc[k]), mean(nmi[k]), std(nmi[k]));
        }
      }
    }
  }

  private static double[] fractions(String text) {
    String[] parts = text.split(",");
    double[] out = new double[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        double f = Double.parseDouble(parts[i].trim());
        if (!(f > 0 && f <= 1)) {
          throw new NumberFormatException();
        }
        out[i] = f;
      } catch (NumberFormatException e) {
        throw new UsageException("--fractions takes numbers in (0, 1], got '" + parts[i] + "'");
      }
    }
    return out;
  }

  private static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
  }

  private static double std(double[] v) {
    double m = mean(v);
    double s = 0;
    for (double x : v) {
      s += (x - m) * (x - m);
    }
    return Math.sqrt(s / v.length);
  }
}
