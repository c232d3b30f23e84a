package io.github.sparkufs.examples;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.graph.CellProbeKnn;
import io.github.sparkufs.graph.ExactKnn;
import io.github.sparkufs.graph.KnnSearch;
import io.github.sparkufs.graph.NeighborLists;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.spark.VectorBlocks;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code knn}: the approximate kNN graph ({@link CellProbeKnn}) against the exact one
 * ({@link ExactKnn}) on {@link PlantedClusters} data generated on the executors, distributed
 * blocks. For each n it prints both build times (wall and, for local masters, this JVM's CPU
 * seconds, which other load on the machine does not inflate), their ratios and the recall (the share of the
 * true k nearest neighbours found), and the approximate search's candidates per row (the rows
 * of a row's cell and of the cells linked to it, counted after the timing). Recall is measured on {@code --sample} consecutive rows
 * whose true neighbours are found by brute force against all rows, so it needs no exact graph;
 * with {@code --exact false} the exact graph is skipped (its time and the ratio print "-").
 * Both searches first run once, untimed, on {@code --warmup} rows (default the smaller of
 * 10,000 and the smallest n; 0 skips it), so that neither time includes the JIT compilation
 * of its code.
 */
@Command(name = "knn",
    header = "Approximate against exact kNN graph: time and recall.",
    description = "The approximate kNN graph against the exact one on planted-cluster data"
        + " generated on the executors: per n, both build times (wall, and this JVM's CPU"
        + " seconds), their ratios, the recall of the true k nearest neighbours, and the"
        + " approximate search's candidates per row.")
final class KnnCommand extends SparkCommand {

  @Mixin
  SharedOptions.GeneratedRows rows;

  @Mixin
  SharedOptions.Planted plantedOptions = new SharedOptions.Planted(100, 5);

  @Option(names = "--neighbors", paramLabel = "k",
      description = "Neighbours per row (default: ${DEFAULT-VALUE}).")
  int k = 10;

  @Option(names = "--cell-size", paramLabel = "N",
      description = "Rows per cell of the approximate search (default: ${DEFAULT-VALUE}).")
  int cellSize = CellProbeKnn.DEFAULT_CELL_SIZE;

  @Option(names = "--probes", paramLabel = "N",
      description = "Cells probed per row by the approximate search (default: ${DEFAULT-VALUE}).")
  int probes = CellProbeKnn.DEFAULT_PROBES;

  @Option(names = "--sample", paramLabel = "N",
      description = "Rows whose recall is measured by brute force (default: ${DEFAULT-VALUE}).")
  int sample = 1000;

  @Option(names = "--exact", arity = "1", paramLabel = "true|false",
      description = "Also build the exact graph, for its time and full recall"
          + " (default: ${DEFAULT-VALUE}).")
  boolean exact = true;

  @Option(names = "--warmup", paramLabel = "N",
      description = "Rows of an untimed first run of both searches, so that neither time"
          + " includes JIT compilation; 0 skips it (default: the smaller of 10000 and the"
          + " smallest n).")
  Integer warmupRows;

  @Mixin
  SharedOptions.Seed seedOption;

  @Override
  void run(PrintWriter out) throws IOException {
    int[] sizes = rows.checkedSizes();
    long seed = seedOption.seed;
    CellProbeKnn approximate = new CellProbeKnn(seed, cellSize, probes);
    PlantedClusters planted = plantedOptions.generator(seed);
    for (int n : sizes) {
      if (n <= k) {
        throw new UsageException("--rows must be > --neighbors = " + k + ", got " + n);
      }
    }
    if (sample < 1) {
      throw new UsageException("--sample must be >= 1, got " + sample);
    }
    int warmup = warmupRows != null ? warmupRows
        : Math.min(10_000, Arrays.stream(sizes).min().orElse(0));
    if (warmup != 0 && warmup <= k) {
      throw new UsageException("--warmup must be 0 or > --neighbors = " + k + ", got "
          + warmup);
    }
    try (SparkSession spark = session("")) {
      int partitions = rows.partitions(spark);
      out.printf("knn: d=%d, k=%d, %d partitions, %s; approximate: %s%n",
          plantedOptions.features, k, partitions,
          spark.sparkContext().master(), approximate);
      if (warmup > 0) {
        RowBlockMatrix x = plantedBlocks(spark, planted, warmup, partitions);
        approximate.searchAll(x, k);
        if (exact) {
          KnnSearch.exact().searchAll(x, k);
        }
        x.blocks().release();
        out.printf("warm-up (not timed): the searches once on %d rows%n", warmup);
      }
      out.printf("%8s %9s %9s %9s %9s %13s %13s %11s %10s %5s%n", "n", "exact s", "exact cpu",
          "approx s", "approx cpu", "ratio s/cpu", "sample recall", "full recall", "cands/row",
          "load");
      for (int n : sizes) {
        RowBlockMatrix x = plantedBlocks(spark, planted, n, partitions);
        try {
          int from = (int) ((long) (n - Math.min(sample, n)) / 2);
          NeighborLists truth = bruteForce(x, from, Math.min(sample, n), k);
          long start = System.nanoTime();
          long cpuStart = cpuNanos();
          List<NeighborLists> found = approximate.searchAll(x, k);
          double approxSeconds = (System.nanoTime() - start) / 1e9;
          double approxCpu = (cpuNanos() - cpuStart) / 1e9;
          String exactSeconds = "-";
          String exactCpu = "-";
          String ratio = "-";
          String fullRecall = "-";
          if (exact) {
            start = System.nanoTime();
            cpuStart = cpuNanos();
            List<NeighborLists> exactLists = KnnSearch.exact().searchAll(x, k);
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = (cpuNanos() - cpuStart) / 1e9;
            exactSeconds = String.format("%.2f", seconds);
            exactCpu = String.format("%.1f", cpu);
            ratio = String.format("%.3f/%.3f", approxSeconds / seconds, approxCpu / cpu);
            fullRecall = String.format("%.4f", recall(exactLists, found));
          }
          double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
          out.printf("%8d %9s %9s %9.2f %9.1f %13s %13.4f %11s %10.0f %5.2f%n", n, exactSeconds,
              exactCpu, approxSeconds, approxCpu, ratio, recall(List.of(truth), found),
              fullRecall, approximate.candidatesPerRow(x), load);
        } finally {
          x.blocks().release();
        }
      }
    }
  }

  /** n rows of the planted data, generated on the executors, as distributed blocks. */
  private static RowBlockMatrix plantedBlocks(SparkSession spark, PlantedClusters planted, int n,
      int partitions) {
    return VectorBlocks.read(PlantedFrame.generate(spark, planted, n, partitions), "features",
        VectorBlocks.Placement.DISTRIBUTED, "knn", false);
  }

  /**
   * CPU time of this JVM, all threads: in local mode the tasks run here, so a phase's CPU
   * seconds are its work whatever else shares the machine.
   */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** The exact k nearest neighbours of rows [from, from + count), by brute force over all rows. */
  private static NeighborLists bruteForce(RowBlockMatrix x, int from, int count, int k) {
    int d = x.numCols();
    List<DenseMatrix> parts = x.blocks().collect(b -> {
      int lo = Math.max(from, b.offset());
      int hi = Math.min(from + count, b.offset() + b.numRows());
      return lo >= hi ? new DenseMatrix(d, 0) : b.columns().columns(lo - b.offset(), hi - lo);
    });
    Shared<RowBlock> queries = x.execution().share(
        new RowBlock(from, RowBlockMatrix.concatColumns(d, parts)));
    NeighborLists truth = x.blocks().aggregate(b -> ExactKnn.nearest(queries.get(), b, k),
        NeighborLists::merge);
    queries.release();
    return truth;
  }

  /** The share of the true neighbours of the rows {@code truth} covers that {@code found} has. */
  private static double recall(List<NeighborLists> truth, List<NeighborLists> found) {
    long hits = 0;
    long total = 0;
    for (NeighborLists t : truth) {
      for (int i = 0; i < t.numRows(); i++) {
        int row = t.offset() + i;
        NeighborLists f = found.stream()
            .filter(l -> row >= l.offset() && row < l.offset() + l.numRows()).findFirst().get();
        for (int r = 0; r < t.k(); r++) {
          for (int s = 0; s < f.k(); s++) {
            if (f.index(row - f.offset(), s) == t.index(i, r)) {
              hits++;
              break;
            }
          }
          total++;
        }
      }
    }
    return (double) hits / total;
  }
}
