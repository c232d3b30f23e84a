package io.github.sparkufs.examples;

import io.github.sparkufs.graph.KdTree;
import io.github.sparkufs.graph.NeighborLists;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlock;
import java.util.SplittableRandom;

/**
 * Times the search of FSASL's structure step without Spark: the 50 nearest samples of every
 * sample in a {@link KdTree} over n samples in 5 dimensions (FSASL's projection on the scale
 * command's planted data, c = 5, with its default {@code lassoNeighbors = 50}), drawn from 5
 * Gaussian clusters. One thread; one CSV line per repeat, with a checksum of the neighbours
 * found so that two builds can be seen to agree. Not a CLI command: run its main on the
 * command line's classpath. Arguments: N [REPEATS, default 3].
 */
final class KdTreeTiming {

  private static final int DIMENSIONS = 5;
  private static final int NEAREST = 50;

  private KdTreeTiming() {}

  public static void main(String[] args) {
    TimingArguments arguments = TimingArguments.of(args, "N [REPEATS]");
    int n = arguments.integer(0);
    int repeats = arguments.integer(1, 3);
    SplittableRandom random = new SplittableRandom(7);
    double[] x = new double[n * DIMENSIONS];
    for (int i = 0; i < n; i++) {
      int cluster = random.nextInt(DIMENSIONS);
      for (int t = 0; t < DIMENSIONS; t++) {
        x[i * DIMENSIONS + t] = (t == cluster ? 3 : 0) + 0.5 * random.nextGaussian();
      }
    }
    RowBlock samples = new RowBlock(0, new DenseMatrix(DIMENSIONS, n, x));
    System.out.println("n,nearest,build_seconds,search_seconds,microseconds_per_query,checksum");
    for (int repeat = 0; repeat < repeats; repeat++) {
      long start = System.nanoTime();
      KdTree tree = new KdTree(samples);
      long built = System.nanoTime();
      NeighborLists nearest = tree.nearest(samples, NEAREST);
      long searched = System.nanoTime();
      long checksum = 0;
      for (int i = 0; i < n; i++) {
        checksum = 31 * checksum + nearest.index(i, NEAREST - 1);
      }
      System.out.printf("%d,%d,%.3f,%.3f,%.2f,%d%n", n, NEAREST, (built - start) / 1e9,
          (searched - built) / 1e9, (searched - built) / 1e3 / n, checksum);
    }
  }
}
