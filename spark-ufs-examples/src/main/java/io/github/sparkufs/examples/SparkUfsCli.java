package io.github.sparkufs.examples;

import io.github.sparkufs.ml.Selectors;
import java.io.PrintStream;

/**
 * The spark-ufs command-line tool: {@code demo}, {@code select}, {@code bench},
 * {@code occlusion}, {@code scale}, {@code knn} and {@code recall}. Mistakes in the command
 * line or the input are reported in one line on stderr with exit status 2; other failures in
 * one line with status 1.
 */
public final class SparkUfsCli {

  static final String USAGE = String.join(System.lineSeparator(),
      "usage: spark-ufs <command> [options]",
      "  demo   [--rows 2000] [--features 60] [--informative 10] [--clusters 4] [--separation 2]",
      "         [--methods m1,m2] [--kmeans-runs 10] [--seed 1] [--master local[*]]",
      "  select --method M --data FILE --num-features d --clusters c --top m",
      "         [--param k=v]... --output DIR [--master URL]",
      "  bench  --method M --data FILE --num-features d --clusters c",
      "         [--select 50,100,150,200,250,300] [--param k=v]... [--kmeans-runs 20]",
      "         [--random-draws 10] [--json OUT] [--report DIR] [--seed 1] [--master URL]",
      "         every table adds baselines: maxvar, random (median over --random-draws draws",
      "         of m random features; each draw costs one method's k-means work, 0 skips it)",
      "         and all features",
      "  occlusion --data FILE --num-features d --clusters c [--image 32x32] [--block 12]",
      "         [--fractions 0.2,0.3] [--draws 10] [--methods rsfs,ndfs,lapscore,maxvar]",
      "         [--select ...] [--param [method.]k=v]...",
      "  scale  --method M --rows 10000,100000 [--features 100] [--informative 10]",
      "         [--clusters 5] [--separation 2] [--partitions P] [--param k=v]... [--json OUT]",
      "         [--seed 1] [--master URL]",
      "  knn    --rows 20000,100000 [--features 100] [--neighbors 10] [--cell-size 256]",
      "         [--probes 48] [--sample 1000] [--exact true|false] [--warmup 10000]",
      "         [--partitions P] [--seed 1] [--master URL]",
      "  recall [--methods m1,m2] [--families f1,f2] [--seeds 3] [--csv OUT] [--master URL]",
      "methods: " + String.join(", ", Selectors.names()));

  private SparkUfsCli() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs a command; returns the exit status. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("help")) {
      (args.length == 0 ? err : out).println(USAGE);
      return args.length == 0 ? 2 : 0;
    }
    try {
      switch (args[0]) {
        case "demo":
          DemoCommand.run(new Arguments("demo", args, 1, DemoCommand.OPTIONS), out);
          break;
        case "select":
          SelectCommand.run(new Arguments("select", args, 1, SelectCommand.OPTIONS), out);
          break;
        case "bench":
          BenchCommand.run(new Arguments("bench", args, 1, BenchCommand.OPTIONS), out);
          break;
        case "occlusion":
          OcclusionCommand.run(new Arguments("occlusion", args, 1, OcclusionCommand.OPTIONS), out);
          break;
        case "scale":
          ScaleCommand.run(new Arguments("scale", args, 1, ScaleCommand.OPTIONS), out);
          break;
        case "knn":
          KnnCommand.run(new Arguments("knn", args, 1, KnnCommand.OPTIONS), out);
          break;
        case "recall":
          RecallCommand.run(new Arguments("recall", args, 1, RecallCommand.OPTIONS), out);
          break;
        default:
          throw new UsageException("unknown command '" + args[0]
              + "'; try demo, select, bench, occlusion, scale, knn or recall");
      }
      return 0;
    } catch (UsageException | IllegalArgumentException e) {
      err.println("spark-ufs: " + e.getMessage());
      return 2;
    } catch (Exception e) {
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      err.println("spark-ufs: " + root.getClass().getSimpleName() + ": " + root.getMessage());
      return 1;
    }
  }
}
