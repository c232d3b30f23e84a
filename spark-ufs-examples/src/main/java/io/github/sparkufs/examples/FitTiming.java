package io.github.sparkufs.examples;

import com.sun.management.OperatingSystemMXBean;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.ml.Selectors;
import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Fit times for dev/reference-bench: reads the data once into a cached frame, then fits each
 * method {@code --warmup} times untimed (JIT, Spark's first jobs) and {@code --repeats} times
 * timed, printing one CSV line per timed fit: the fit's wall seconds, the CPU seconds the whole
 * process spent meanwhile (every thread: tasks, GC, JIT), its iterations and graph seconds (from
 * the model summary), the largest heap in use during the fit, the process's peak resident set so
 * far, and for the flop floor the summary's ridge solves (RSFS, FSASL) and the features in any
 * regression's support (MCFS). With {@code --gemm}, first the machine's GEMM rate: one
 * n × n × d DGEMM of the data's n and d through {@link LinalgBackend}, its columns split over
 * as many threads as Spark has cores, best of three. Not a CLI command: the benchmark script
 * runs its main.
 */
@Command(name = "fit-timing",
    description = "Fit times of methods on one dataset, as CSV lines (dev/reference-bench).")
final class FitTiming extends SparkCommand {

  /** The CSV header of the fit lines. */
  static final String HEADER = "impl,method,repeat,fit_seconds,cpu_seconds,iterations,"
      + "graph_seconds,heap_peak_mb,rss_peak_mb,ridge_solves,support_union";

  private static final OperatingSystemMXBean PROCESS =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  @Option(names = "--method", required = true, split = ",", paramLabel = "M",
      description = "Methods to time.")
  List<String> methodNames;

  @Mixin
  SharedOptions.InputTable input;

  @Mixin
  SharedOptions.Params params;

  @Option(names = "--warmup", paramLabel = "N", description = "Untimed fits per method first.")
  int warmup = 2;

  @Option(names = "--repeats", paramLabel = "N", description = "Timed fits per method.")
  int repeats = 3;

  @Option(names = "--gemm", description = "First time an n x n x d DGEMM of the data's n and d.")
  boolean gemm;

  public static void main(String[] args) {
    System.exit(new CommandLine(new FitTiming()).execute(args));
  }

  @Override
  void run(PrintWriter out) throws IOException, InterruptedException {
    List<String> methods = SharedOptions.checkedMethods("--method", methodNames);
    if (warmup < 0 || repeats < 1) {
      throw new UsageException("--warmup must be >= 0 and --repeats >= 1, got " + warmup + ", "
          + repeats);
    }
    try (SparkSession spark = session(String.join(",", methods))) {
      LabeledData labeled = input.read(spark);
      // Cached, as a user fitting one frame many times would: the fits time the fit alone, not
      // the conversion of the parsed LIBSVM lines into rows (LabeledData does not cache them).
      Dataset<Row> frame = labeled.frame.cache();
      int n = Math.toIntExact(frame.count());
      if (gemm) {
        int threads = spark.sparkContext().defaultParallelism();
        out.printf("gemm,n=%d,d=%d,threads=%d,gflops=%.2f%n", n, labeled.numFeatures, threads,
            gemmRate(n, labeled.numFeatures, threads));
      }
      out.println(HEADER);
      for (String method : methods) {
        for (int r = -warmup; r < repeats; r++) {
          UnsupervisedSelector<?> selector = Selectors.create(method);
          selector.setIfPresent("numClusters", input.clusters);
          params.applyTo(selector, method);
          try (HeapWatch heap = new HeapWatch()) {
            long cpuStart = PROCESS.getProcessCpuTime();
            long start = System.nanoTime();
            UnsupervisedSelectorModel model = selector.fit(frame);
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuSeconds = (PROCESS.getProcessCpuTime() - cpuStart) / 1e9;
            if (r >= 0) {
              Map<String, Double> diagnostics = model.summary().diagnostics();
              out.printf("ours,%s,%d,%.4f,%.4f,%d,%s,%.1f,%.1f,%s,%s%n", method, r, seconds,
                  cpuSeconds, model.summary().iterations(),
                  diagnostics.getOrDefault("graphSeconds", Double.NaN),
                  heap.peakUsedBytes() / 1e6, peakResidentMegabytes(),
                  diagnostics.getOrDefault("ridgeSolves", Double.NaN),
                  diagnostics.getOrDefault("supportUnion", Double.NaN));
              out.flush();
            }
          }
        }
      }
    }
  }

  /**
   * GFLOP/s of an n × n × d product (2n²d flops) split by columns of the result over
   * {@code threads} concurrent single-threaded DGEMMs; the best of three.
   */
  static double gemmRate(int n, int d, int threads) throws InterruptedException {
    Random random = new Random(1);
    double[] a = random.doubles((long) n * d).toArray();
    double best = Double.POSITIVE_INFINITY;
    for (int t = 0; t < 3; t++) {
      Thread[] parts = new Thread[threads];
      for (int p = 0; p < threads; p++) {
        int lo = (int) ((long) n * p / threads);
        int cols = (int) ((long) n * (p + 1) / threads) - lo;
        double[] c = new double[n * cols];
        // C (n × cols) = Aᵀ A[:, lo:lo+cols], A stored d × n column-major.
        parts[p] = new Thread(() -> LinalgBackend.blas().dgemm("T", "N", n, cols, d, 1.0, a, 0,
            d, a, lo * d, d, 0.0, c, 0, n));
      }
      long start = System.nanoTime();
      for (Thread part : parts) {
        part.start();
      }
      for (Thread part : parts) {
        part.join();
      }
      best = Math.min(best, (System.nanoTime() - start) / 1e9);
    }
    return 2.0 * n * n * d / best / 1e9;
  }

  /** VmHWM of /proc/self/status in MB, or NaN where there is none. */
  private static double peakResidentMegabytes() throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.isReadable(status)) {
      return Double.NaN;
    }
    return Files.readAllLines(status).stream().filter(l -> l.startsWith("VmHWM:"))
        .mapToDouble(l -> Double.parseDouble(l.replaceAll("[^0-9]", "")) / 1e3)
        .findFirst().orElse(Double.NaN);
  }
}
