package io.github.sparkufs.solver;

import java.util.Map;

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
  BOTH;

  /**
   * Of fits from several starts offered in turn, the one with the lowest final objective (the
   * first on a tie). It records in a fit's summary each start's objective
   * ({@code <start>StartObjective}) and whether the kept fit is the spectral start's
   * ({@code initSpectral}).
   *
   * @param <R> a fit
   */
  static final class LowestObjective<R> {
    private final Map<String, Double> summary;
    private R kept;
    private double keptObjective;

    LowestObjective(Map<String, Double> summary) {
      this.summary = summary;
    }

    void offer(String start, R fit, double objective) {
      summary.put(start + "StartObjective", objective);
      if (kept == null || objective < keptObjective) {
        kept = fit;
        keptObjective = objective;
        summary.put("initSpectral", start.equals("spectral") ? 1.0 : 0.0);
      }
    }

    /** The fit kept; null before any was offered. */
    R kept() {
      return kept;
    }
  }
}
