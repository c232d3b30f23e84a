package io.github.sparkufs.eval;

import java.util.HashMap;
import java.util.Map;

/**
 * External clustering metrics against known classes (as in the papers' experiments; NMI as the UFCM
 * paper's Eq. 18): accuracy under the best
 * one-to-one mapping of clusters to classes (Hungarian matching), and normalised mutual
 * information with a choice of normalisation.
 */
public final class ClusteringMetrics {

  /** How NMI divides I(U;V). */
  public enum Normalization {
    /** {@code sqrt(H(U) H(V))}, as in the UFCM paper's Eq. 18 (the default). */
    SQRT,
    /** {@code (H(U) + H(V)) / 2}. */
    ARITHMETIC,
    /** {@code max(H(U), H(V))}. */
    MAX
  }

  private ClusteringMetrics() {}

  /** Contingency counts from label pairs; keys are (class, cluster) as dense indices. */
  public static long[][] contingency(int[] classes, int[] clusters) {
    if (classes.length != clusters.length) {
      throw new IllegalArgumentException(classes.length + " classes for " + clusters.length
          + " cluster labels");
    }
    int[] ci = denseIndex(classes);
    int[] ki = denseIndex(clusters);
    int nc = max(ci) + 1;
    int nk = max(ki) + 1;
    long[][] table = new long[nc][nk];
    for (int i = 0; i < ci.length; i++) {
      table[ci[i]][ki[i]]++;
    }
    return table;
  }

  /** Clustering accuracy of label vectors. */
  public static double accuracy(int[] classes, int[] clusters) {
    return accuracy(contingency(classes, clusters));
  }

  /** NMI of label vectors. */
  public static double nmi(int[] classes, int[] clusters, Normalization normalization) {
    return nmi(contingency(classes, clusters), normalization);
  }

  /** Accuracy from a class × cluster contingency table. */
  public static double accuracy(long[][] table) {
    int nc = table.length;
    int nk = nc == 0 ? 0 : table[0].length;
    double[][] w = new double[nk][nc];
    long total = 0;
    for (int c = 0; c < nc; c++) {
      for (int k = 0; k < nk; k++) {
        w[k][c] = table[c][k];
        total += table[c][k];
      }
    }
    int[] match = Hungarian.maximize(w);
    long hit = 0;
    for (int k = 0; k < nk; k++) {
      if (match[k] >= 0) {
        hit += table[match[k]][k];
      }
    }
    return total == 0 ? 0.0 : (double) hit / total;
  }

  /** NMI from a class × cluster contingency table; 1 when both labelings are a single group. */
  public static double nmi(long[][] table, Normalization normalization) {
    int nc = table.length;
    int nk = nc == 0 ? 0 : table[0].length;
    double total = 0;
    double[] rows = new double[nc];
    double[] cols = new double[nk];
    for (int c = 0; c < nc; c++) {
      for (int k = 0; k < nk; k++) {
        rows[c] += table[c][k];
        cols[k] += table[c][k];
        total += table[c][k];
      }
    }
    double mi = 0;
    for (int c = 0; c < nc; c++) {
      for (int k = 0; k < nk; k++) {
        if (table[c][k] > 0) {
          double pij = table[c][k] / total;
          mi += pij * Math.log(pij / (rows[c] / total * cols[k] / total));
        }
      }
    }
    double hu = entropy(rows, total);
    double hv = entropy(cols, total);
    double denom;
    switch (normalization) {
      case ARITHMETIC:
        denom = (hu + hv) / 2;
        break;
      case MAX:
        denom = Math.max(hu, hv);
        break;
      default:
        denom = Math.sqrt(hu * hv);
    }
    if (denom <= 0) {
      return hu == hv ? 1.0 : 0.0;
    }
    return Math.max(0.0, Math.min(1.0, mi / denom));
  }

  private static double entropy(double[] counts, double total) {
    double h = 0;
    for (double c : counts) {
      if (c > 0) {
        double p = c / total;
        h -= p * Math.log(p);
      }
    }
    return h;
  }

  private static int[] denseIndex(int[] labels) {
    Map<Integer, Integer> ids = new HashMap<>();
    int[] out = new int[labels.length];
    for (int i = 0; i < labels.length; i++) {
      out[i] = ids.computeIfAbsent(labels[i], l -> ids.size());
    }
    return out;
  }

  private static int max(int[] a) {
    int m = -1;
    for (int v : a) {
      m = Math.max(m, v);
    }
    return m;
  }
}
