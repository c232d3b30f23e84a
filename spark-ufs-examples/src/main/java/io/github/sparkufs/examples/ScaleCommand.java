package io.github.sparkufs.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import io.github.sparkufs.spark.VectorBlocks;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code scale}: how one method's fit grows with the number of rows, on {@link PlantedClusters}
 * data generated on the executors ({@link PlantedFrame}). For each n it prints the time to
 * generate the rows once (the fit reads them from the generator, so its time includes this
 * much), the time to build the kNN graph over samples (the model summary's
 * {@code graphSeconds}; "-" for methods without one), the fit's wall time, the iterations, the
 * peak heap during the fit ({@link HeapWatch}: in use, and left after a collection), the
 * recall of the planted features among the top |informative| features and the load average.
 * The blocks are distributed ({@code executionMode=distributed}) unless {@code --param
 * executionMode=...} says otherwise, so the path that scales is the one measured. With
 * {@code --json} the rows are written after each n, so a later failure keeps the earlier ones.
 */
@Command(name = "scale",
    header = "Time a method's fit as the number of rows grows.",
    description = "How one method's fit grows with the number of rows, on planted-cluster data"
        + " generated on the executors: per n, the generation, kNN-graph and fit times, the"
        + " iterations, the peak heap and the recall of the planted features. The blocks are"
        + " distributed unless --param executionMode=... says otherwise.")
final class ScaleCommand extends SparkCommand {

  private static final double MB = 1024.0 * 1024.0;

  @Mixin
  SharedOptions.Method method;

  @Mixin
  SharedOptions.GeneratedRows rows;

  @Mixin
  SharedOptions.Planted plantedOptions = new SharedOptions.Planted(100, 5);

  @Mixin
  SharedOptions.Params params;

  @Mixin
  SharedOptions.JsonOutput json;

  @Mixin
  SharedOptions.Seed seedOption;

  @Override
  void run(PrintWriter out) throws IOException {
    int[] sizes = rows.checkedSizes();
    int d = plantedOptions.features;
    int informative = plantedOptions.informative;
    int c = plantedOptions.clusters;
    double separation = plantedOptions.separation;
    long seed = seedOption.seed;
    PlantedClusters planted = plantedOptions.generator(seed);
    UnsupervisedSelector<?> selector = method.create().setIfPresent("numClusters", c)
        .setNumTopFeatures(informative).setIfPresent("seed", seed).setExecutionMode("distributed");
    params.applyTo(selector);
    try (SparkSession spark = session(method.name)) {
      int partitions = rows.partitions(spark);
      String mode = selector.getExecutionMode();
      out.printf("scale %s: d=%d (%d planted), c=%d, separation %s, %d partitions, "
          + "executionMode %s; heap max %.0f MB, %s BLAS, %s%n", method.name, d, informative,
          c, separation, partitions, mode, Runtime.getRuntime().maxMemory() / MB,
          LinalgBackend.describe(), spark.sparkContext().master());
      out.printf("%8s %-9s %7s %8s %8s %5s %9s %9s %7s %5s%n", "n", "blocks", "gen s",
          "graph s", "fit s", "iter", "peak MB", "live MB", "recall", "load");
      ObjectNode report = header(method.name, d, informative, c, separation, partitions,
          selector, spark.sparkContext().master());
      ArrayNode results = report.putArray("results");
      for (int n : sizes) {
        Dataset<Row> data = PlantedFrame.generate(spark, planted, n, partitions);
        long start = System.nanoTime();
        data.javaRDD().count();
        double generateSeconds = (System.nanoTime() - start) / 1e9;
        System.gc();
        UnsupervisedSelectorModel model;
        double fitSeconds;
        HeapWatch heap = new HeapWatch();
        try (heap) {
          start = System.nanoTime();
          model = selector.fit(data);
          fitSeconds = (System.nanoTime() - start) / 1e9;
        }
        Double graphSeconds = model.summary().diagnostics().get("graphSeconds");
        int iterations = model.summary().iterations();
        int found = (int) Math.round(planted.recall(model.ranking()) * informative);
        String blocks = placedOnDriver(mode, n, d) ? "driver" : "executors";
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        out.printf("%8d %-9s %7.2f %8s %8.2f %5d %9.0f %9s %4d/%-2d %5.2f%n", n, blocks,
            generateSeconds, graphSeconds == null ? "-" : String.format("%.2f", graphSeconds),
            fitSeconds, iterations, heap.peakUsedBytes() / MB,
            heap.collections() == 0 ? "-"
                : String.format("%.0f", heap.peakAfterCollectionBytes() / MB),
            found, informative, load);
        ObjectNode row = results.addObject();
        row.put("n", n);
        row.put("blocks", blocks);
        row.put("generateSeconds", generateSeconds);
        if (graphSeconds != null) {
          row.put("graphSeconds", graphSeconds);
        }
        row.put("fitSeconds", fitSeconds);
        row.put("iterations", iterations);
        row.put("peakHeapBytes", heap.peakUsedBytes());
        row.put("peakHeapAfterCollectionBytes", heap.peakAfterCollectionBytes());
        row.put("collections", heap.collections());
        row.put("recall", (double) found / informative);
        row.put("loadAverage", load);
        ObjectNode summary = row.putObject("summary");
        model.summary().diagnostics().forEach(summary::put);
        if (json.path != null) {
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
              .writeValue(Path.of(json.path).toFile(), report);
        }
      }
      if (json.path != null) {
        out.println("wrote " + json.path);
      }
    }
  }

  /** Where {@code VectorBlocks} puts the blocks for this execution mode and shape. */
  private static boolean placedOnDriver(String mode, int n, int d) {
    return "driver".equals(mode)
        || ("auto".equals(mode) && (long) n * d <= VectorBlocks.DRIVER_LIMIT);
  }

  private static ObjectNode header(String method, int d, int informative, int c,
      double separation, int partitions, UnsupervisedSelector<?> selector, String master) {
    ObjectNode root = new ObjectMapper().createObjectNode();
    root.put("method", method);
    root.put("features", d);
    root.put("informative", informative);
    root.put("clusters", c);
    root.put("separation", separation);
    root.put("partitions", partitions);
    ObjectNode params = root.putObject("params");
    selector.extractParamMap().toList().forEach(p ->
        params.putPOJO(p.param().name(), p.value()));
    root.put("heapMaxBytes", Runtime.getRuntime().maxMemory());
    root.put("blas", LinalgBackend.describe());
    root.put("master", master);
    return root;
  }
}
