package io.github.sparkufs.examples;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.graph.ExactKnn;
import io.github.sparkufs.graph.KnnSearch;
import io.github.sparkufs.graph.NeighborLists;
import io.github.sparkufs.graph.CellProbeKnn;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.spark.VectorBlocks;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.SparkSession;

/**
 * {@code knn}: the approximate kNN graph ({@link CellProbeKnn}) against the exact one
 * ({@link ExactKnn}) on {@link PlantedClusters} data generated on the executors, distributed
 * blocks. For each n it prints both build times (wall and, for local masters, this JVM's CPU
 * seconds, which other load on the machine does not inflate), their ratios and the recall (the share of the
 * true k nearest neighbours found). Recall is measured on {@code --sample} consecutive rows
 * whose true neighbours are found by brute force against all rows, so it needs no exact graph;
 * with {@code --exact false} the exact graph is skipped (its time and the ratio print "-").
 * Both searches first run once, untimed, on {@code --warmup} rows (default the smaller of
 * 10,000 and the smallest n; 0 skips it), so that neither time includes the JIT compilation
 * of its code.
 */
final class KnnCommand {

  static final Set<String> OPTIONS = Set.of("rows", "features", "informative", "clusters",
      "separation", "neighbors", "cell-size", "probes", "sample", "exact",
      "partitions", "seed", "master", "warmup");

  private KnnCommand() {}

  static void run(Arguments args, PrintStream out) throws IOException {
    int[] sizes = args.requiredIntegers("rows");
    int d = args.integer("features", 100);
    int informative = args.integer("informative", 10);
    int c = args.integer("clusters", 5);
    double separation = args.decimal("separation", 2.0);
    int k = args.integer("neighbors", 10);
    int sample = args.integer("sample", 1000);
    long seed = args.longValue("seed", 1L);
    String exactFlag = args.string("exact", "true");
    if (!exactFlag.equals("true") && !exactFlag.equals("false")) {
      throw new UsageException("--exact must be true or false, got " + exactFlag);
    }
    CellProbeKnn approximate;
    PlantedClusters planted;
    try {
      approximate = new CellProbeKnn(seed,
          args.integer("cell-size", CellProbeKnn.DEFAULT_CELL_SIZE),
          args.integer("probes", CellProbeKnn.DEFAULT_PROBES));
      planted = new PlantedClusters(d, informative, c, separation, seed);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    for (int n : sizes) {
      if (n <= k) {
        throw new UsageException("--rows must be > --neighbors = " + k + ", got " + n);
      }
    }
    if (sample < 1) {
      throw new UsageException("--sample must be >= 1, got " + sample);
    }
    int warmup = args.integer("warmup", Math.min(10_000, Arrays.stream(sizes).min()
        .orElse(0)));
    if (warmup != 0 && warmup <= k) {
      throw new UsageException("--warmup must be 0 or > --neighbors = " + k + ", got "
          + warmup);
    }
    try (SparkSession spark = Sessions.create("spark-ufs knn", args.string("master", "local[*]"))) {
      int partitions = args.integer("partitions", 2 * spark.sparkContext().defaultParallelism());
      if (partitions < 1) {
        throw new UsageException("--partitions must be >= 1, got " + partitions);
      }
      out.printf("knn: d=%d, k=%d, %d partitions, %s; approximate: %s%n", d, k, partitions,
          spark.sparkContext().master(), approximate);
      if (warmup > 0) {
        RowBlockMatrix x = plantedBlocks(spark, planted, warmup, partitions);
        approximate.searchAll(x, k);
        if (exactFlag.equals("true")) {
          KnnSearch.exact().searchAll(x, k);
        }
        x.blocks().release();
        out.printf("warm-up (not timed): the searches once on %d rows%n", warmup);
      }
      out.printf("%8s %9s %9s %9s %9s %13s %13s %11s %5s%n", "n", "exact s", "exact cpu",
          "approx s", "approx cpu", "ratio s/cpu", "sample recall", "full recall", "load");
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
          if (exactFlag.equals("true")) {
            start = System.nanoTime();
            cpuStart = cpuNanos();
            List<NeighborLists> exact = KnnSearch.exact().searchAll(x, k);
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = (cpuNanos() - cpuStart) / 1e9;
            exactSeconds = String.format("%.2f", seconds);
            exactCpu = String.format("%.1f", cpu);
            ratio = String.format("%.3f/%.3f", approxSeconds / seconds, approxCpu / cpu);
            fullRecall = String.format("%.4f", recall(exact, found));
          }
          double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
          out.printf("%8d %9s %9s %9.2f %9.1f %13s %13.4f %11s %5.2f%n", n, exactSeconds,
              exactCpu, approxSeconds, approxCpu, ratio, recall(List.of(truth), found),
              fullRecall, load);
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
