package io.github.sparkufs.cluster;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.Shared;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Per-cluster sums of the samples for a hard clustering: with the n × k indicator matrix
 * {@code U} ({@code U_ij = 1} when sample i is in cluster j), {@link #sums()} is {@code X U}
 * (d × k) and {@link #counts()} is the diagonal of {@code Uᵀ U}. Everything the papers build
 * from an indicator matrix (centroids {@code X U (UᵀU)⁻¹}, the between-cluster scatter
 * {@code X U (UᵀU)⁻¹ Uᵀ Xᵀ}) follows on the driver from these d × k numbers, so no per-sample
 * matrix ever reaches the driver.
 *
 * <p>An empty cluster has a zero sum and count; every derived quantity treats it through the
 * pseudo-inverse of {@code UᵀU}, i.e. it contributes nothing.
 */
public final class ClusterSums implements Serializable {

  private static final long serialVersionUID = 1L;

  private final DenseMatrix sums;
  private final long[] counts;

  private ClusterSums(DenseMatrix sums, long[] counts) {
    this.sums = sums;
    this.counts = counts;
  }

  /**
   * The sums of several clusterings of the same samples in one pass over the blocks.
   *
   * @param x the samples, d × n
   * @param labelings each an array of n labels in [0, k), in sample order
   * @param k the number of clusters
   */
  public static List<ClusterSums> of(RowBlockMatrix x, int[][] labelings, int k) {
    for (int[] labels : labelings) {
      if (labels.length != x.numRows()) {
        throw new IllegalArgumentException("a labelling has " + labels.length + " labels for "
            + x.numRows() + " samples");
      }
      for (int l : labels) {
        if (l < 0 || l >= k) {
          throw new IllegalArgumentException("label " + l + " outside [0, " + k + ")");
        }
      }
    }
    Partial total;
    try (Shared<int[][]> shared = x.execution().share(labelings)) {
      total = x.blocks().aggregate(b -> Partial.of(b, shared.get(), k), Partial::merge);
    }
    List<ClusterSums> out = new ArrayList<>(labelings.length);
    for (int t = 0; t < labelings.length; t++) {
      out.add(new ClusterSums(total.sums[t], total.counts[t]));
    }
    return out;
  }

  /** The sums of one clustering. */
  public static ClusterSums of(RowBlockMatrix x, int[] labels, int k) {
    return of(x, new int[][] {labels}, k).get(0);
  }

  /** {@code X U}, d × k: column j is the sum of the samples in cluster j. */
  public DenseMatrix sums() {
    return sums;
  }

  /** The diagonal of {@code UᵀU}: the size of each cluster. */
  public long[] counts() {
    return counts.clone();
  }

  /** Number of non-empty clusters. */
  public int nonEmpty() {
    int c = 0;
    for (long v : counts) {
      if (v > 0) {
        c++;
      }
    }
    return c;
  }

  /**
   * {@code B = X U (UᵀU)^{-1/2}} (d × k; zero column for an empty cluster), the factor of the
   * between-cluster scatter {@code X U (UᵀU)⁻¹ Uᵀ Xᵀ = B Bᵀ}.
   */
  public DenseMatrix scaledSums() {
    DenseMatrix b = sums.copy();
    int d = b.rows();
    double[] v = b.data();
    for (int j = 0; j < counts.length; j++) {
      double s = counts[j] > 0 ? 1.0 / Math.sqrt(counts[j]) : 0.0;
      for (int i = 0; i < d; i++) {
        v[j * d + i] *= s;
      }
    }
    return b;
  }

  /**
   * The centroids of the projected samples, {@code Wᵀ X U (UᵀU)⁻¹} (d' × k) for a d × d'
   * projection {@code W}; the centroid of an empty cluster is the zero vector.
   */
  public DenseMatrix projectedCentroids(DenseMatrix w) {
    DenseMatrix g = w.transposeMultiply(sums);
    int r = g.rows();
    double[] v = g.data();
    for (int j = 0; j < counts.length; j++) {
      double s = counts[j] > 0 ? 1.0 / counts[j] : 0.0;
      for (int i = 0; i < r; i++) {
        v[j * r + i] *= s;
      }
    }
    return g;
  }

  /**
   * {@code Tr(Wᵀ X U (UᵀU)⁻¹ Uᵀ Xᵀ W) = Σ_j ||Wᵀ s_j||² / n_j}: the scatter of the projected
   * samples explained by the clustering. With centred X, the k-means cost of the projected
   * samples with their cluster means is {@code Tr(Wᵀ X Xᵀ W)} minus this.
   */
  public double projectedBetweenScatter(DenseMatrix w) {
    return w.transposeMultiply(scaledSums()).frobeniusNormSquared();
  }

  /** One block's (or a merged group of blocks') sums for every labelling. */
  private static final class Partial implements Serializable {
    private static final long serialVersionUID = 1L;
    final DenseMatrix[] sums;
    final long[][] counts;

    Partial(DenseMatrix[] sums, long[][] counts) {
      this.sums = sums;
      this.counts = counts;
    }

    static Partial of(RowBlock b, int[][] labelings, int k) {
      int d = b.numCols();
      int rows = b.numRows();
      double[] x = b.columns().data();
      DenseMatrix[] sums = new DenseMatrix[labelings.length];
      long[][] counts = new long[labelings.length][k];
      for (int t = 0; t < labelings.length; t++) {
        sums[t] = new DenseMatrix(d, k);
        double[] s = sums[t].data();
        int[] labels = labelings[t];
        for (int i = 0; i < rows; i++) {
          int l = labels[b.offset() + i];
          counts[t][l]++;
          int to = l * d;
          int from = i * d;
          for (int f = 0; f < d; f++) {
            s[to + f] += x[from + f];
          }
        }
      }
      return new Partial(sums, counts);
    }

    static Partial merge(Partial a, Partial b) {
      for (int t = 0; t < a.sums.length; t++) {
        DenseMatrix.accumulate(a.sums[t], b.sums[t]);
        for (int j = 0; j < a.counts[t].length; j++) {
          a.counts[t][j] += b.counts[t][j];
        }
      }
      return a;
    }
  }
}
