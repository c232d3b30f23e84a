package io.github.sparkufs.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.ml.Selectors;
import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import io.github.sparkufs.spark.VectorBlocks;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

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
final class ScaleCommand {

  static final Set<String> OPTIONS = Set.of("method", "rows", "features", "informative",
      "clusters", "separation", "partitions", "param", "json", "seed", "master");

  private static final double MB = 1024.0 * 1024.0;

  private ScaleCommand() {}

  static void run(Arguments args, PrintStream out) throws IOException {
    String method = args.required("method");
    int[] sizes = args.requiredIntegers("rows");
    int d = args.integer("features", 100);
    int informative = args.integer("informative", 10);
    int c = args.integer("clusters", 5);
    double separation = args.decimal("separation", 2.0);
    long seed = args.longValue("seed", 1L);
    String json = args.string("json", null);
    for (int n : sizes) {
      if (n < 1) {
        throw new UsageException("--rows must be >= 1, got " + n);
      }
    }
    PlantedClusters planted;
    try {
      planted = new PlantedClusters(d, informative, c, separation, seed);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    UnsupervisedSelector<?> selector = Selectors.create(method).setIfPresent("numClusters", c)
        .setNumTopFeatures(informative).setIfPresent("seed", seed).setExecutionMode("distributed");
    MethodParams.apply(selector, args.params());
    try (SparkSession spark = Sessions.create("spark-ufs scale " + method,
        args.string("master", "local[*]"))) {
      int partitions = args.integer("partitions", 2 * spark.sparkContext().defaultParallelism());
      if (partitions < 1) {
        throw new UsageException("--partitions must be >= 1, got " + partitions);
      }
      String mode = selector.getExecutionMode();
      out.printf("scale %s: d=%d (%d planted), c=%d, separation %s, %d partitions, "
          + "executionMode %s; heap max %.0f MB, %s BLAS, %s%n", method, d, informative, c,
          separation, partitions, mode, Runtime.getRuntime().maxMemory() / MB,
          LinalgBackend.describe(), spark.sparkContext().master());
      out.printf("%8s %-9s %7s %8s %8s %5s %9s %9s %7s %5s%n", "n", "blocks", "gen s",
          "graph s", "fit s", "iter", "peak MB", "live MB", "recall", "load");
      ObjectNode report = header(method, d, informative, c, separation, partitions, selector,
          spark.sparkContext().master());
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
        Double graphSeconds = model.summary().get("graphSeconds");
        Double summaryIterations = model.summary().get("iterations");
        int iterations = summaryIterations != null ? summaryIterations.intValue()
            : model.objectiveHistory().length;
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
        model.summary().forEach(summary::put);
        if (json != null) {
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
              .writeValue(Path.of(json).toFile(), report);
        }
      }
      if (json != null) {
        out.println("wrote " + json);
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
