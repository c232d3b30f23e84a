package io.github.sparkufs.graph;

import java.io.Serializable;

/**
 * The k nearest neighbours of each sample of a block: for local sample i, global indices
 * {@code index(i, 0..k-1)} with squared distances {@code distance(i, ·)} ascending; ties go
 * to the lower index. A sample's own index is never its neighbour.
 */
public final class NeighborLists implements Serializable {

  private static final long serialVersionUID = 1L;

  private final int offset;
  private final int k;
  private final int[] indices;
  private final double[] distances;

  NeighborLists(int offset, int k, int[] indices, double[] distances) {
    this.offset = offset;
    this.k = k;
    this.indices = indices;
    this.distances = distances;
  }

  /** Global index of the block's first sample. */
  public int offset() {
    return offset;
  }

  public int numRows() {
    return indices.length / k;
  }

  public int k() {
    return k;
  }

  /** Global index of the r-th nearest neighbour of local sample i. */
  public int index(int i, int r) {
    return indices[i * k + r];
  }

  /** Squared distance to the r-th nearest neighbour of local sample i. */
  public double distance(int i, int r) {
    return distances[i * k + r];
  }

  /**
   * Offers (d2, global) to local sample i's list ({@link #offer(int[], double[], int, int,
   * double, int)}) and returns the list's k-th distance after it.
   */
  double offer(int i, double d2, int global) {
    offer(indices, distances, i * k, k, d2, global);
    return distances[i * k + k - 1];
  }

  /** The first {@code count} neighbours of every sample (count ≤ k). */
  NeighborLists first(int count) {
    int rows = numRows();
    int[] idx = new int[rows * count];
    double[] dist = new double[rows * count];
    for (int i = 0; i < rows; i++) {
      System.arraycopy(indices, i * k, idx, i * count, count);
      System.arraycopy(distances, i * k, dist, i * count, count);
    }
    return new NeighborLists(offset, count, idx, dist);
  }

  /** The k nearest of both lists, row by row (the merge of two partial searches). */
  public static NeighborLists merge(NeighborLists a, NeighborLists b) {
    if (a.offset != b.offset || a.k != b.k || a.indices.length != b.indices.length) {
      throw new IllegalArgumentException("cannot merge neighbour lists of different blocks");
    }
    int k = a.k;
    int rows = a.numRows();
    int[] idx = new int[rows * k];
    double[] dist = new double[rows * k];
    for (int i = 0; i < rows; i++) {
      int p = i * k;
      int q = i * k;
      for (int r = 0; r < k; r++) {
        int at = i * k + r;
        boolean takeA = q >= (i + 1) * k
            || (p < (i + 1) * k && before(a.distances[p], a.indices[p], b.distances[q], b.indices[q]));
        if (takeA) {
          idx[at] = a.indices[p];
          dist[at] = a.distances[p++];
        } else {
          idx[at] = b.indices[q];
          dist[at] = b.distances[q++];
        }
      }
    }
    return new NeighborLists(a.offset, k, idx, dist);
  }

  /**
   * Inserts (d2, global) into the sorted list at [base, base + k) if it is among the k best
   * and not there yet (an approximate search may offer a sample more than once).
   */
  static void offer(int[] idx, double[] dist, int base, int k, double d2, int global) {
    int last = base + k - 1;
    if (!before(d2, global, dist[last], idx[last])) {
      return;
    }
    for (int r = base; r <= last; r++) {
      if (idx[r] == global) {
        return;
      }
    }
    insert(idx, dist, base, last, d2, global);
  }

  /**
   * As {@link #offer(int, double, int)} for a sample not offered to local sample i's list
   * before (an exact search offers each pair once): the list is not scanned for it. Returns
   * the list's k-th distance after it.
   */
  double offerDistinct(int i, double d2, int global) {
    int base = i * k;
    int last = base + k - 1;
    if (before(d2, global, distances[last], indices[last])) {
      insert(indices, distances, base, last, d2, global);
    }
    return distances[last];
  }

  /** Inserts (d2, global), which comes before the last entry, into the list [base, last]. */
  private static void insert(int[] idx, double[] dist, int base, int last, double d2,
      int global) {
    int at = last;
    while (at > base && before(d2, global, dist[at - 1], idx[at - 1])) {
      dist[at] = dist[at - 1];
      idx[at] = idx[at - 1];
      at--;
    }
    dist[at] = d2;
    idx[at] = global;
  }

  static boolean before(double d1, int i1, double d2, int i2) {
    return d1 < d2 || (d1 == d2 && i1 < i2);
  }
}
