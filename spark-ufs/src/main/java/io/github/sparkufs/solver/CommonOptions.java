package io.github.sparkufs.solver;

import io.github.sparkufs.graph.KnnSearch;

/**
 * The settings every method shares (README, "Params"): the number of clusters c, the neighbourhood
 * size k, the iteration budget, the relative-change tolerance, the random seed and how the kNN
 * graph over samples is searched ({@link KnnSearch#of}). Validated on construction, each
 * message naming the bad value.
 */
public final class CommonOptions {

  private final int numClusters;
  private final int numNeighbors;
  private final int maxIter;
  private final double tol;
  private final long seed;
  private final String knnAlgorithm;
  private IterativeFit.Listener listener;

  /** The options with {@code knnAlgorithm} = {@link KnnSearch#AUTO}. */
  public CommonOptions(int numClusters, int numNeighbors, int maxIter, double tol, long seed) {
    this(numClusters, numNeighbors, maxIter, tol, seed, KnnSearch.AUTO);
  }

  /**
   * @param knnAlgorithm {@link KnnSearch#AUTO}, {@link KnnSearch#EXACT} or
   *     {@link KnnSearch#APPROXIMATE}
   */
  public CommonOptions(int numClusters, int numNeighbors, int maxIter, double tol, long seed,
      String knnAlgorithm) {
    if (numClusters < 1) {
      throw new IllegalArgumentException("numClusters must be >= 1, got " + numClusters);
    }
    if (numNeighbors < 1) {
      throw new IllegalArgumentException("numNeighbors must be >= 1, got " + numNeighbors);
    }
    if (maxIter < 1) {
      throw new IllegalArgumentException("maxIter must be >= 1, got " + maxIter);
    }
    if (!(tol >= 0)) {
      throw new IllegalArgumentException("tol must be >= 0, got " + tol);
    }
    if (!KnnSearch.ALGORITHMS.contains(knnAlgorithm)) {
      throw new IllegalArgumentException("knnAlgorithm must be one of " + KnnSearch.ALGORITHMS
          + ", got " + knnAlgorithm);
    }
    this.numClusters = numClusters;
    this.numNeighbors = numNeighbors;
    this.maxIter = maxIter;
    this.tol = tol;
    this.seed = seed;
    this.knnAlgorithm = knnAlgorithm;
  }

  /** c, the number of clusters. */
  public int numClusters() {
    return numClusters;
  }

  /** k, the neighbourhood size of the graphs. */
  public int numNeighbors() {
    return numNeighbors;
  }

  public int maxIter() {
    return maxIter;
  }

  public double tol() {
    return tol;
  }

  public long seed() {
    return seed;
  }

  public String knnAlgorithm() {
    return knnAlgorithm;
  }

  /** The kNN search {@link #knnAlgorithm()} names, seeded by {@link #seed()}. */
  public KnnSearch knnSearch() {
    return KnnSearch.of(knnAlgorithm, seed);
  }

  /** These options, with {@code listener} told of every iteration of an iterative method. */
  public CommonOptions withListener(IterativeFit.Listener listener) {
    CommonOptions out = new CommonOptions(numClusters, numNeighbors, maxIter, tol, seed,
        knnAlgorithm);
    out.listener = listener;
    return out;
  }

  /** Told of every iteration by {@link IterativeFit}; null for none. */
  public IterativeFit.Listener listener() {
    return listener;
  }
}
