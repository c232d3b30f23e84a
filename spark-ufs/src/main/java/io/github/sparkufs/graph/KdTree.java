package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.SampleOrder;
import java.io.Serializable;
import java.util.Arrays;

/**
 * Exact k-nearest-neighbour search in low dimension by a k-d tree (Friedman, Bentley and Finkel
 * 1977): the reference samples are split recursively at the median of the axis along which
 * their bounding box is widest, down to leaves of at most {@link #LEAF_SIZE} samples, and each
 * node keeps the tight bounding box of its samples. A query descends into the nearer child
 * first and skips a node whose box lies farther than its current k-th nearest; in a few
 * dimensions that visits a handful of leaves, O(log n + k) distances per query instead of
 * ExactKnn's n. Building costs O(n log n) time and O(n d) memory (the coordinates are copied in
 * tree order, so a leaf is one contiguous run).
 *
 * <p>The answers are those of {@link ExactKnn#nearest} for the same samples: the k nearest by
 * squared distance, ascending, ties to the lower global index, a query's own index never
 * among them. Distances are summed directly, {@code Σ_t (q_t − x_t)²} in axis order, where
 * ExactKnn expands them ({@code ||q||² + ||x||² − 2 qᵀx}), so the two may differ in the last
 * bits, and at distances that equal in exact arithmetic so may the order. The pruning is exact
 * in floating point: a box's distance is summed in the same axis order from per-axis gaps that
 * are no larger than any of its samples' differences, so, rounding being monotone, it is
 * never more than a computed sample distance inside it, and a node is only skipped when its
 * box is strictly farther than the k-th nearest (at equal distance it may hold a lower index).
 */
public final class KdTree implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Most samples in a leaf. */
  static final int LEAF_SIZE = 16;

  private final int dim;
  private final int size;
  /** Global index of the sample at each tree position. */
  private final int[] globalIndex;
  /** Coordinates in tree order, dim per sample. */
  private final double[] points;
  /** Node i covers tree positions {@code [begin[i], end[i])}. */
  private final int[] begin;
  private final int[] end;
  /** Children of node i, -1 for a leaf. */
  private final int[] left;
  private final int[] right;
  /** The bounding box of node i's samples, dim values per node. */
  private final double[] lower;
  private final double[] upper;
  /** Nodes made so far, while building. */
  private int nodes;

  /** The tree over the samples of {@code refs} (global indices from its offset). */
  public KdTree(RowBlock refs) {
    dim = refs.numCols();
    size = refs.numRows();
    if (dim < 1 || size < 1) {
      throw new IllegalArgumentException("a k-d tree needs samples of dimension >= 1, got "
          + size + " samples of dimension " + dim);
    }
    int capacity = nodeCount(size);
    begin = new int[capacity];
    end = new int[capacity];
    left = new int[capacity];
    right = new int[capacity];
    lower = new double[capacity * dim];
    upper = new double[capacity * dim];
    double[] x = refs.columns().data();
    int[] order = new int[size];
    for (int j = 0; j < size; j++) {
      order[j] = j;
    }
    split(x, order, 0, size);
    globalIndex = new int[size];
    points = new double[size * dim];
    for (int p = 0; p < size; p++) {
      globalIndex[p] = refs.offset() + order[p];
      System.arraycopy(x, order[p] * dim, points, p * dim, dim);
    }
  }

  /** Nodes of the tree over {@code count} samples. */
  private static int nodeCount(int count) {
    return count <= LEAF_SIZE ? 1 : 1 + nodeCount(count / 2) + nodeCount(count - count / 2);
  }

  /** Builds the subtree of tree positions {@code [from, to)}; returns its node. */
  private int split(double[] x, int[] order, int from, int to) {
    int node = nodes++;
    begin[node] = from;
    end[node] = to;
    int box = node * dim;
    Arrays.fill(lower, box, box + dim, Double.POSITIVE_INFINITY);
    Arrays.fill(upper, box, box + dim, Double.NEGATIVE_INFINITY);
    for (int p = from; p < to; p++) {
      int at = order[p] * dim;
      for (int t = 0; t < dim; t++) {
        lower[box + t] = Math.min(lower[box + t], x[at + t]);
        upper[box + t] = Math.max(upper[box + t], x[at + t]);
      }
    }
    int axis = 0;
    for (int t = 1; t < dim; t++) {
      if (upper[box + t] - lower[box + t] > upper[box + axis] - lower[box + axis]) {
        axis = t;
      }
    }
    // A node of identical samples stays a leaf: no split would let a query skip any of them.
    if (to - from <= LEAF_SIZE || upper[box + axis] == lower[box + axis]) {
      left[node] = -1;
      right[node] = -1;
      return node;
    }
    int middle = from + (to - from) / 2;
    select(x, order, from, to - 1, middle, axis);
    left[node] = split(x, order, from, middle);
    right[node] = split(x, order, middle, to);
    return node;
  }

  /**
   * Reorders {@code order[lo..hi]} so that position {@code nth} holds the sample whose
   * coordinate {@code axis} ranks there, with no larger coordinate before it and no smaller
   * after it (Hoare's selection).
   */
  private void select(double[] x, int[] order, int lo, int hi, int nth, int axis) {
    while (lo < hi) {
      double pivot = x[order[lo + (hi - lo) / 2] * dim + axis];
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (x[order[i] * dim + axis] < pivot) {
          i++;
        }
        while (x[order[j] * dim + axis] > pivot) {
          j--;
        }
        if (i <= j) {
          int swap = order[i];
          order[i++] = order[j];
          order[j--] = swap;
        }
      }
      if (nth <= j) {
        hi = j;
      } else if (nth >= i) {
        lo = i;
      } else {
        return;
      }
    }
  }

  /**
   * The samples in tree order, leaf after leaf, so that samples close in space are mostly close
   * in it; a renumbering of all samples when the tree holds samples 0 … n − 1.
   */
  public SampleOrder sampleOrder() {
    return SampleOrder.of(globalIndex);
  }

  /** Samples in the tree. */
  public int size() {
    return size;
  }

  /**
   * For each sample of {@code queries}, its k nearest samples in the tree, self (the same
   * global index) excluded; as {@link ExactKnn#nearest}, a list the tree cannot fill ends in
   * index {@link Integer#MAX_VALUE} at infinite distance.
   */
  public NeighborLists nearest(RowBlock queries, int k) {
    if (queries.numCols() != dim) {
      throw new IllegalArgumentException("queries of dimension " + queries.numCols()
          + " for a k-d tree of dimension " + dim);
    }
    if (k < 1 || k > size) {
      throw new IllegalArgumentException("k must be in [1, " + size + "] (the samples in the "
          + "tree), got " + k);
    }
    int nq = queries.numRows();
    int[] idx = new int[nq * k];
    double[] dist = new double[nq * k];
    double[] q = queries.columns().data();
    Candidates best = new Candidates(k);
    for (int i : spatialOrder(q, nq)) {
      best.clear();
      search(0, q, i * dim, queries.offset() + i, best);
      best.drainAscending(idx, dist, i * k);
    }
    return new NeighborLists(queries.offset(), k, idx, dist);
  }

  /**
   * The queries ordered by the leaf a descent towards each ends in, so that consecutive
   * searches visit much the same leaves while they are in the cache (the answers do not
   * depend on the order).
   */
  private int[] spatialOrder(double[] q, int nq) {
    long[] keyed = new long[nq];
    for (int i = 0; i < nq; i++) {
      int node = 0;
      while (left[node] >= 0) {
        node = boxDistance(left[node], q, i * dim) <= boxDistance(right[node], q, i * dim)
            ? left[node] : right[node];
      }
      keyed[i] = (long) node << 32 | i;
    }
    Arrays.sort(keyed);
    int[] order = new int[nq];
    for (int r = 0; r < nq; r++) {
      order[r] = (int) keyed[r];
    }
    return order;
  }

  /** Offers the samples of {@code node}'s subtree that can be among the k nearest. */
  private void search(int node, double[] q, int at, int self, Candidates best) {
    if (left[node] < 0) {
      for (int p = begin[node]; p < end[node]; p++) {
        if (globalIndex[p] == self) {
          continue;
        }
        int pt = p * dim;
        double s = 0;
        for (int t = 0; t < dim; t++) {
          double diff = q[at + t] - points[pt + t];
          s += diff * diff;
        }
        best.offer(s, globalIndex[p]);
      }
      return;
    }
    double toLeft = boxDistance(left[node], q, at);
    double toRight = boxDistance(right[node], q, at);
    int near = toLeft <= toRight ? left[node] : right[node];
    int far = toLeft <= toRight ? right[node] : left[node];
    if (Math.min(toLeft, toRight) <= best.bound()) {
      search(near, q, at, self, best);
    }
    if (Math.max(toLeft, toRight) <= best.bound()) {
      search(far, q, at, self, best);
    }
  }

  /** Squared distance from the query to the node's bounding box, summed in axis order. */
  private double boxDistance(int node, double[] q, int at) {
    int box = node * dim;
    double s = 0;
    for (int t = 0; t < dim; t++) {
      double v = q[at + t];
      // branch-free: which side of the box a query lies on does not follow a pattern
      double gap = Math.max(0, Math.max(lower[box + t] - v, v - upper[box + t]));
      s += gap * gap;
    }
    return s;
  }

  /**
   * The k best (squared distance, global index) pairs offered so far, in a binary max-heap
   * whose top is the worst of them; "better" is {@link NeighborLists#before}, so ties go to the
   * lower index.
   */
  private static final class Candidates {
    private final int k;
    private final int[] index;
    private final double[] distance;
    private int size;

    Candidates(int k) {
      this.k = k;
      index = new int[k];
      distance = new double[k];
    }

    void clear() {
      size = 0;
    }

    /** The distance a sample must not exceed to be among the k best (infinite until k). */
    double bound() {
      return size < k ? Double.POSITIVE_INFINITY : distance[0];
    }

    void offer(double d2, int global) {
      if (size < k) {
        siftUp(size++, d2, global);
      } else if (NeighborLists.before(d2, global, distance[0], index[0])) {
        siftDown(0, size, d2, global);
      }
    }

    /**
     * Writes the candidates best first to {@code [base, base + k)} of the lists, a position
     * without a candidate as index {@link Integer#MAX_VALUE} at infinite distance.
     */
    void drainAscending(int[] idx, double[] dist, int base) {
      Arrays.fill(idx, base + size, base + k, Integer.MAX_VALUE);
      Arrays.fill(dist, base + size, base + k, Double.POSITIVE_INFINITY);
      while (size > 0) {
        int last = --size;
        idx[base + last] = index[0];
        dist[base + last] = distance[0];
        siftDown(0, last, distance[last], index[last]);
      }
    }

    private void siftUp(int at, double d2, int global) {
      while (at > 0) {
        int parent = (at - 1) / 2;
        if (!NeighborLists.before(distance[parent], index[parent], d2, global)) {
          break;
        }
        distance[at] = distance[parent];
        index[at] = index[parent];
        at = parent;
      }
      distance[at] = d2;
      index[at] = global;
    }

    /** Places (d2, global) at {@code at} of the heap {@code [0, count)} and sifts it down. */
    private void siftDown(int at, int count, double d2, int global) {
      while (true) {
        int child = 2 * at + 1;
        if (child >= count) {
          break;
        }
        if (child + 1 < count
            && NeighborLists.before(distance[child], index[child], distance[child + 1],
                index[child + 1])) {
          child++;
        }
        if (!NeighborLists.before(d2, global, distance[child], index[child])) {
          break;
        }
        distance[at] = distance[child];
        index[at] = index[child];
        at = child;
      }
      distance[at] = d2;
      index[at] = global;
    }
  }
}
