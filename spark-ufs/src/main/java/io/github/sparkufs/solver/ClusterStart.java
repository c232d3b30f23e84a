package io.github.sparkufs.solver;

/**
 * Where NDFS's and RSFS's alternating fits start their cluster indicator F (their
 * {@code initMode}). Each fit reaches only a local minimum of its paper's objective, and that
 * objective is the method's own criterion, so choosing between two starts by it needs no labels.
 */
public enum ClusterStart {
  /** k-means on the spectral embedding of the method's own sample graph. */
  SPECTRAL,
  /**
   * k-means on the samples (their top principal scores when there are many features:
   * {@link NdfsSolver#initialClusters}).
   */
  KMEANS,
  /** A fit from each of the two starts; the one with the lower final objective is kept. */
  BOTH
}
