package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.RowBlockMatrix;
import java.util.List;

/**
 * How the k-nearest-neighbour lists of the sample graphs (docs/design.md, "What runs where") are
 * found: exactly ({@link ExactKnn}, O(n² d)) or approximately ({@link CellProbeKnn}, O(n d) for a
 * fixed number of candidates per sample). Every graph builder takes one, so every method can use
 * either unchanged.
 */
public interface KnnSearch {

  /**
   * The {@code knnAlgorithm} value that searches exactly below {@link #AUTO_APPROXIMATE_ROWS} rows
   * or on sparse row blocks, else approximately.
   */
  String AUTO = "auto";
  /** The {@code knnAlgorithm} value of {@link ExactKnn}. */
  String EXACT = "exact";
  /** The {@code knnAlgorithm} value of {@link CellProbeKnn}. */
  String APPROXIMATE = "approximate";
  /** Every {@code knnAlgorithm} value. */
  List<String> ALGORITHMS = List.of(AUTO, EXACT, APPROXIMATE);

  /**
   * The n from which {@link #AUTO} searches approximately. Measured with {@code spark-ufs knn
   * --rows 20000,50000,100000 --master 'local[2]'} (d = 100 planted data, k = 10, 4 blocks,
   * {@link CellProbeKnn} defaults, this JVM's CPU seconds after the command's warm-up, load
   * 1.6): at n = 20,000 exact 5.1 s, approximate 4.6 s (every row a candidate); at 50,000 exact
   * 27.6 s, approximate 17.5 s (recall 0.986); at 100,000 exact 106.8 s, approximate 24.6 s
   * (recall 0.947). Below 50,000 the exact graph costs seconds and the approximate one saves
   * little, so {@code auto} keeps the exact one there.
   */
  int AUTO_APPROXIMATE_ROWS = 50_000;

  /** The k nearest neighbours of every sample (self excluded), one list per block. */
  Partitioned<NeighborLists> search(RowBlockMatrix x, int k);

  /** The neighbour lists of every sample, collected to the driver in block order: O(n k). */
  default List<NeighborLists> searchAll(RowBlockMatrix x, int k) {
    try (Partitioned<NeighborLists> knn = search(x, k)) {
      return knn.collect(l -> l);
    }
  }

  /**
   * Why a search by {@code algorithm} needs dense row blocks, or null: the approximate search
   * ({@link CellProbeKnn}) reads dense rows, the exact one reads sparse rows by their non-zeros.
   */
  static String denseInputReason(String algorithm) {
    return APPROXIMATE.equals(algorithm)
        ? "needs dense rows for its approximate kNN search (knnAlgorithm = approximate)" : null;
  }

  /** The exact search. */
  static KnnSearch exact() {
    return ExactKnn::search;
  }

  /**
   * The search a {@code knnAlgorithm} value names, the approximate one seeded by
   * {@code seed}.
   */
  static KnnSearch of(String algorithm, long seed) {
    switch (algorithm) {
      case EXACT:
        return exact();
      case APPROXIMATE:
        return CellProbeKnn.withDefaults(seed);
      case AUTO:
        KnnSearch approximate = CellProbeKnn.withDefaults(seed);
        return (x, k) -> x.numRows() < AUTO_APPROXIMATE_ROWS || x.isSparse()
            ? ExactKnn.search(x, k) : approximate.search(x, k);
      default:
        throw new IllegalArgumentException("knnAlgorithm must be one of " + ALGORITHMS
            + ", got " + algorithm);
    }
  }
}
