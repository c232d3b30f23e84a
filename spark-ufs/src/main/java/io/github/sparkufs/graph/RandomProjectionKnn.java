package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.Shared;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Approximate k-nearest-neighbour lists for large n, in the same shape as {@link ExactKnn}:
 * a random-projection forest gives every sample candidates, then rounds of neighbour-of-
 * neighbour refinement (the local join of NN-descent, Dong, Charikar and Li, WWW 2011) improve
 * them.
 *
 * <ol>
 *   <li><b>Forest.</b> Each of {@code numTrees} trees splits the space by hyperplanes to a
 *       fixed depth, leaves holding about {@code leafSize} samples. A node's hyperplane is
 *       normal to the difference of two of its sample points and cuts at the median
 *       projection. The trees are grown on the driver from a stratified sample of about 16
 *       points per leaf; every sample is then routed to a leaf of each tree in its block.</li>
 *   <li><b>Leaf search.</b> For every pair of blocks, the samples of a that share a leaf with
 *       samples of b get their distances to them from one GEMM per leaf (the exact search's
 *       tile, restricted to a leaf), so the work is O(n · leafSize · d) per tree instead of
 *       O(n² d). Lists of K = 2k candidates merge across trees and blocks. Each list also
 *       starts with the K samples that follow it (cyclically), so it is always full.</li>
 *   <li><b>Refinement.</b> With B(v) the K candidates of v plus its K nearest reverse
 *       neighbours, each sample q compares itself with every sample of B(v) for v in B(q) and
 *       keeps the K best: neighbours of neighbours are likely neighbours. A pair whose two
 *       links were both there in the previous round was already compared and is skipped, and
 *       the rounds stop once fewer than 0.1% of the list entries change. Only the index lists
 *       (O(n K)) are shared; the distances are computed in the blocks. The first k of each
 *       list are the result.</li>
 * </ol>
 *
 * <p>Deterministic for a seed, and the same for any split of the rows into blocks: the
 * candidates of a sample do not depend on the split, and every kept distance is the direct sum
 * {@code Σ (a_f − b_f)²} (GEMM values only screen), so the k best of a candidate set, ties to
 * the lower index, are the same however the set is visited.
 */
public final class RandomProjectionKnn implements KnnSearch {

  /** Trees of the default search. */
  public static final int DEFAULT_TREES = 8;
  /** Leaf size of the default search. */
  public static final int DEFAULT_LEAF_SIZE = 256;
  /** Refinement rounds of the default search. */
  public static final int DEFAULT_REFINEMENTS = 6;

  /**
   * The refinement stops when fewer than this fraction of the n·K list entries changed in a
   * round (NN-descent's δ).
   */
  private static final double STOP_FRACTION = 0.001;

  /**
   * Lists of POOL_FACTOR · k candidates are kept until the end (K in the class comment): the
   * longer lists give the refinement more neighbours of neighbours to try.
   */
  private static final int POOL_FACTOR = 2;

  /**
   * Relative margin of the GEMM screen in the leaf search: far above the rounding of
   * {@code ||a||² + ||b||² − 2 aᵀb} (about d · 1e-16 of the norms), far below real gaps.
   */
  private static final double SCREEN_SLACK = 1e-9;

  /** Sample points per leaf used to place the hyperplanes. */
  private static final int SAMPLE_PER_LEAF = 16;

  private final long seed;
  private final int numTrees;
  private final int leafSize;
  private final int refinements;

  /**
   * @param seed fixes the sample and the hyperplanes
   * @param numTrees random-projection trees, ≥ 1
   * @param leafSize largest number of samples a leaf is meant to hold, ≥ 2
   * @param refinements neighbour-of-neighbour rounds after the forest, ≥ 0
   */
  public RandomProjectionKnn(long seed, int numTrees, int leafSize, int refinements) {
    if (numTrees < 1) {
      throw new IllegalArgumentException("numTrees must be >= 1, got " + numTrees);
    }
    if (leafSize < 2) {
      throw new IllegalArgumentException("leafSize must be >= 2, got " + leafSize);
    }
    if (refinements < 0) {
      throw new IllegalArgumentException("refinements must be >= 0, got " + refinements);
    }
    this.seed = seed;
    this.numTrees = numTrees;
    this.leafSize = leafSize;
    this.refinements = refinements;
  }

  /** The search with {@link #DEFAULT_TREES}, {@link #DEFAULT_LEAF_SIZE} and {@link #DEFAULT_REFINEMENTS}. */
  public static RandomProjectionKnn withDefaults(long seed) {
    return new RandomProjectionKnn(seed, DEFAULT_TREES, DEFAULT_LEAF_SIZE, DEFAULT_REFINEMENTS);
  }

  @Override
  public Partitioned<NeighborLists> search(RowBlockMatrix x, int k) {
    int n = x.numRows();
    if (k < 1 || k >= n) {
      throw new IllegalArgumentException("numNeighbors must be in [1, n - 1] = [1, "
          + (n - 1) + "], got " + k);
    }
    x.execution().describe("approximate kNN graph: random-projection forest (k = " + k + ", "
        + numTrees + " trees)");
    Forest forest = grow(x);
    Shared<Forest> sharedForest = x.execution().share(forest);
    Partitioned<RoutedBlock> routed = x.blocks().map(b -> sharedForest.get().route(b));
    sharedForest.release();
    int trees = numTrees;
    int numLeaves = forest.numLeaves();
    int pool = (int) Math.min(n - 1, (long) POOL_FACTOR * k);
    Partitioned<NeighborLists> knn = routed.crossMerge(
        (a, b) -> leafNearest(a, b, pool, n, trees, numLeaves), NeighborLists::merge);
    routed.release();
    JoinLists previous = null;
    for (int round = 1; round <= refinements; round++) {
      JoinLists current = JoinLists.of(knn.collect(l -> l), n, pool, previous);
      if (previous != null && current.numChanged() <= STOP_FRACTION * n * pool) {
        break;
      }
      x.execution().describe("approximate kNN graph: refinement " + round + " of "
          + refinements);
      Shared<JoinLists> join = x.execution().share(current);
      Partitioned<NeighborLists> found = x.blocks().crossMerge(
          (a, b) -> joinNearest(a, b, join.get(), pool), NeighborLists::merge);
      Partitioned<NeighborLists> next = knn.zip(found, NeighborLists::merge);
      join.release();
      found.release();
      knn.release();
      knn = next;
      previous = current;
    }
    if (pool == k) {
      return knn;
    }
    Partitioned<NeighborLists> nearest = knn.map(l -> l.first(k));
    knn.release();
    return nearest;
  }

  @Override
  public String toString() {
    return "random-projection forest of " + numTrees + " trees, leaf size " + leafSize + ", "
        + refinements + " refinement rounds, seed " + seed;
  }

  /** Grows the forest on the driver from a stratified sample of the rows. */
  private Forest grow(RowBlockMatrix x) {
    int n = x.numRows();
    int depth = 0;
    while ((long) leafSize << depth < n) {
      depth++;
    }
    int s = (int) Math.min(n, (long) SAMPLE_PER_LEAF << depth);
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] sample = new int[s];
    for (int j = 0; j < s; j++) {
      long from = (long) n * j / s;
      long to = (long) n * (j + 1) / s;
      sample[j] = (int) (from + rnd.nextLong(to - from));
    }
    Shared<int[]> sharedSample = x.execution().share(sample);
    List<DenseMatrix> parts = x.blocks().collect(b -> sampled(b, sharedSample.get()));
    sharedSample.release();
    DenseMatrix points = RowBlockMatrix.concatColumns(x.numCols(), parts);
    return Forest.grow(points, numTrees, depth, rnd);
  }

  /** The columns of {@code b} whose global index is in the sorted {@code sample}. */
  private static DenseMatrix sampled(RowBlock b, int[] sample) {
    int from = lowerBound(sample, b.offset());
    int to = lowerBound(sample, b.offset() + b.numRows());
    int d = b.numCols();
    DenseMatrix out = new DenseMatrix(d, to - from);
    for (int j = from; j < to; j++) {
      System.arraycopy(b.columns().data(), (sample[j] - b.offset()) * d, out.data(),
          (j - from) * d, d);
    }
    return out;
  }

  private static int lowerBound(int[] sorted, int value) {
    int at = Arrays.binarySearch(sorted, value);
    if (at < 0) {
      return -at - 1;
    }
    while (at > 0 && sorted[at - 1] == value) {
      at--;
    }
    return at;
  }

  /**
   * For each sample of {@code a}: its nearest among the samples of {@code b} that share a leaf
   * with it in some tree, or that are among the k samples following it.
   */
  static NeighborLists leafNearest(RoutedBlock a, RoutedBlock b, int k, int n, int numTrees,
      int numLeaves) {
    RowBlock qb = a.block;
    RowBlock rb = b.block;
    int nq = qb.numRows();
    int[] idx = new int[nq * k];
    double[] dist = new double[nq * k];
    Arrays.fill(idx, Integer.MAX_VALUE);
    Arrays.fill(dist, Double.POSITIVE_INFINITY);
    for (int i = 0; i < nq; i++) {
      int self = qb.offset() + i;
      for (int j = 1; j <= k; j++) {
        int r = (int) ((self + (long) j) % n);
        if (r >= rb.offset() && r < rb.offset() + rb.numRows()) {
          NeighborLists.offer(idx, dist, i * k, k, squaredDistance(qb, i, rb, r - rb.offset()), r);
        }
      }
    }
    for (int t = 0; t < numTrees; t++) {
      int[][] qLeaves = a.byLeaf(t, numLeaves);
      int[][] rLeaves = b.byLeaf(t, numLeaves);
      for (int leaf = 0; leaf < numLeaves; leaf++) {
        int[] qs = qLeaves[leaf];
        int[] rs = rLeaves[leaf];
        if (qs.length == 0 || rs.length == 0) {
          continue;
        }
        DenseMatrix dots = gather(rb, rs).transposeMultiply(gather(qb, qs));
        double[] dv = dots.data();
        for (int i = 0; i < qs.length; i++) {
          int q = qs[i];
          int self = qb.offset() + q;
          for (int j = 0; j < rs.length; j++) {
            int global = rb.offset() + rs[j];
            if (global == self) {
              continue;
            }
            // The GEMM value only screens: it may differ from the direct sum by rounding
            // (and differently for other tiles), so kept distances are the direct sums.
            double norms = a.norms[q] + b.norms[rs[j]];
            double d2 = norms - 2 * dv[i * rs.length + j];
            if (d2 <= dist[q * k + k - 1] + SCREEN_SLACK * norms) {
              NeighborLists.offer(idx, dist, q * k, k, squaredDistance(qb, q, rb, rs[j]), global);
            }
          }
        }
      }
    }
    return new NeighborLists(qb.offset(), k, idx, dist);
  }

  /**
   * For each sample q of {@code a}: its nearest among the samples of {@code b} in B(v) for
   * some v in B(q), other than q and its current neighbours, skipping the pairs met in the
   * previous round (both links old).
   */
  static NeighborLists joinNearest(RowBlock a, RowBlock b, JoinLists join, int k) {
    int nq = a.numRows();
    int[] idx = new int[nq * k];
    double[] dist = new double[nq * k];
    Arrays.fill(idx, Integer.MAX_VALUE);
    Arrays.fill(dist, Double.POSITIVE_INFINITY);
    int lo = b.offset();
    int hi = b.offset() + b.numRows();
    int[] seen = new int[b.numRows()];
    Arrays.fill(seen, -1);
    for (int i = 0; i < nq; i++) {
      int q = a.offset() + i;
      if (q >= lo && q < hi) {
        seen[q - lo] = q;
      }
      for (int r = 0; r < k; r++) {
        int current = join.neighbor(q, r);
        if (current >= lo && current < hi) {
          seen[current - lo] = q;
        }
      }
      for (int p = join.start(q); p < join.start(q + 1); p++) {
        int v = join.member(p);
        boolean newEdge = join.isNew(p);
        for (int m = join.start(v); m < join.start(v + 1); m++) {
          int u = join.member(m);
          if (u < lo || u >= hi || seen[u - lo] == q || !(newEdge || join.isNew(m))) {
            continue;
          }
          seen[u - lo] = q;
          NeighborLists.offer(idx, dist, i * k, k, squaredDistance(a, i, b, u - lo), u);
        }
      }
    }
    return new NeighborLists(a.offset(), k, idx, dist);
  }

  /** Columns {@code locals} of {@code b}, in that order. */
  private static DenseMatrix gather(RowBlock b, int[] locals) {
    int d = b.numCols();
    DenseMatrix out = new DenseMatrix(d, locals.length);
    for (int j = 0; j < locals.length; j++) {
      System.arraycopy(b.columns().data(), locals[j] * d, out.data(), j * d, d);
    }
    return out;
  }

  /**
   * {@code Σ (a_f − b_f)²} in four interleaved partial sums (a fixed order, so the same value
   * wherever it is computed): independent sums keep the CPU's adders busy.
   */
  private static double squaredDistance(RowBlock a, int i, RowBlock b, int j) {
    int d = a.numCols();
    double[] av = a.columns().data();
    double[] bv = b.columns().data();
    int ai = i * d;
    int bj = j * d;
    double s0 = 0;
    double s1 = 0;
    double s2 = 0;
    double s3 = 0;
    int f = 0;
    for (; f + 3 < d; f += 4) {
      double d0 = av[ai + f] - bv[bj + f];
      double d1 = av[ai + f + 1] - bv[bj + f + 1];
      double d2 = av[ai + f + 2] - bv[bj + f + 2];
      double d3 = av[ai + f + 3] - bv[bj + f + 3];
      s0 += d0 * d0;
      s1 += d1 * d1;
      s2 += d2 * d2;
      s3 += d3 * d3;
    }
    for (; f < d; f++) {
      double diff = av[ai + f] - bv[bj + f];
      s0 += diff * diff;
    }
    return (s0 + s1) + (s2 + s3);
  }


  /**
   * The hyperplanes of all trees, each tree a complete binary tree of the given depth in heap
   * order: node j has children 2j + 1 and 2j + 2, and a sample goes right when its projection
   * on the node's normal exceeds the node's threshold.
   */
  static final class Forest implements Serializable {

    private static final long serialVersionUID = 1L;

    private final int numTrees;
    private final int depth;
    private final int dim;
    /** Tree t, node j's normal at {@code normals[(t * nodes + j) * dim ..]}. */
    private final double[] normals;
    private final double[] thresholds;

    private Forest(int numTrees, int depth, int dim, double[] normals, double[] thresholds) {
      this.numTrees = numTrees;
      this.depth = depth;
      this.dim = dim;
      this.normals = normals;
      this.thresholds = thresholds;
    }

    int numLeaves() {
      return 1 << depth;
    }

    private int numNodes() {
      return (1 << depth) - 1;
    }

    /** Grows the trees from {@code points} (d × s), drawing from {@code rnd}. */
    static Forest grow(DenseMatrix points, int numTrees, int depth, SplittableRandom rnd) {
      int d = points.rows();
      int nodes = (1 << depth) - 1;
      double[] normals = new double[numTrees * nodes * d];
      double[] thresholds = new double[numTrees * nodes];
      for (int t = 0; t < numTrees; t++) {
        int[] members = new int[points.cols()];
        for (int j = 0; j < members.length; j++) {
          members[j] = j;
        }
        split(points, members, 0, members.length, 0, t * nodes, nodes, normals, thresholds, rnd);
      }
      return new Forest(numTrees, depth, d, normals, thresholds);
    }

    /** Places node {@code node}'s hyperplane from points members[from, to) and recurses. */
    private static void split(DenseMatrix points, int[] members, int from, int to, int node,
        int treeBase, int nodes, double[] normals, double[] thresholds, SplittableRandom rnd) {
      if (node >= nodes) {
        return;
      }
      int d = points.rows();
      double[] p = points.data();
      int base = (treeBase + node) * d;
      int count = to - from;
      if (count >= 2) {
        int first = members[from + rnd.nextInt(count)];
        int second = members[from + rnd.nextInt(count - 1)];
        if (second == first) {
          second = members[to - 1];
        }
        for (int f = 0; f < d; f++) {
          normals[base + f] = p[first * d + f] - p[second * d + f];
        }
      } else {
        for (int f = 0; f < d; f++) {
          normals[base + f] = rnd.nextDouble() - 0.5;
        }
      }
      double[] proj = new double[count];
      for (int j = 0; j < count; j++) {
        proj[j] = dot(normals, base, p, members[from + j] * d, d);
      }
      double threshold = 0;
      if (count > 0) {
        double[] sorted = proj.clone();
        Arrays.sort(sorted);
        threshold = count % 2 == 1 ? sorted[count / 2]
            : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
      }
      thresholds[treeBase + node] = threshold;
      int[] left = new int[count];
      int[] right = new int[count];
      int nl = 0;
      int nr = 0;
      for (int j = 0; j < count; j++) {
        if (proj[j] > threshold) {
          right[nr++] = members[from + j];
        } else {
          left[nl++] = members[from + j];
        }
      }
      System.arraycopy(left, 0, members, from, nl);
      System.arraycopy(right, 0, members, from + nl, nr);
      split(points, members, from, from + nl, 2 * node + 1, treeBase, nodes, normals,
          thresholds, rnd);
      split(points, members, from + nl, to, 2 * node + 2, treeBase, nodes, normals,
          thresholds, rnd);
    }

    /** The leaf of every sample of {@code b} in every tree, and the samples' squared norms. */
    RoutedBlock route(RowBlock b) {
      int rows = b.numRows();
      int nodes = numNodes();
      double[] x = b.columns().data();
      int[] leaves = new int[numTrees * rows];
      for (int t = 0; t < numTrees; t++) {
        for (int i = 0; i < rows; i++) {
          int node = 0;
          while (node < nodes) {
            double proj = dot(normals, (t * nodes + node) * dim, x, i * dim, dim);
            node = proj > thresholds[t * nodes + node] ? 2 * node + 2 : 2 * node + 1;
          }
          leaves[t * rows + i] = node - nodes;
        }
      }
      return new RoutedBlock(b, leaves, b.columns().columnNormsSquared());
    }

    private static double dot(double[] a, int aFrom, double[] b, int bFrom, int len) {
      double s = 0;
      for (int f = 0; f < len; f++) {
        s += a[aFrom + f] * b[bFrom + f];
      }
      return s;
    }
  }

  /** A block with the leaf of each of its samples in each tree. */
  static final class RoutedBlock implements Serializable {

    private static final long serialVersionUID = 1L;

    private final RowBlock block;
    /** Tree t, local sample i at {@code t * rows + i}. */
    private final int[] leaves;
    private final double[] norms;

    RoutedBlock(RowBlock block, int[] leaves, double[] norms) {
      this.block = block;
      this.leaves = leaves;
      this.norms = norms;
    }

    /** The local samples in each leaf of tree t, ascending. */
    int[][] byLeaf(int t, int numLeaves) {
      int rows = block.numRows();
      int[] counts = new int[numLeaves];
      for (int i = 0; i < rows; i++) {
        counts[leaves[t * rows + i]]++;
      }
      int[][] out = new int[numLeaves][];
      for (int leaf = 0; leaf < numLeaves; leaf++) {
        out[leaf] = new int[counts[leaf]];
        counts[leaf] = 0;
      }
      for (int i = 0; i < rows; i++) {
        int leaf = leaves[t * rows + i];
        out[leaf][counts[leaf]++] = i;
      }
      return out;
    }
  }

  /**
   * The index graph the refinement reads, shared with every block: each sample's current
   * neighbours, and B(v) for every v (neighbours, then up to K nearest reverse neighbours) in
   * compressed rows, each member flagged new when it was not in B(v) in the previous round.
   */
  static final class JoinLists implements Serializable {

    private static final long serialVersionUID = 1L;

    private final int k;
    private final int[] neighbors;
    private final int[] starts;
    private final int[] members;
    private final boolean[] fresh;
    private final long changed;

    private JoinLists(int k, int[] neighbors, int[] starts, int[] members, boolean[] fresh,
        long changed) {
      this.k = k;
      this.neighbors = neighbors;
      this.starts = starts;
      this.members = members;
      this.fresh = fresh;
      this.changed = changed;
    }

    /** The join lists of {@code lists}; {@code previous} (null in the first round) sets the flags. */
    static JoinLists of(List<NeighborLists> lists, int n, int k, JoinLists previous) {
      int[] neighbors = new int[n * k];
      double[] distances = new double[n * k];
      for (NeighborLists l : lists) {
        for (int i = 0; i < l.numRows(); i++) {
          for (int r = 0; r < k; r++) {
            neighbors[(l.offset() + i) * k + r] = l.index(i, r);
            distances[(l.offset() + i) * k + r] = l.distance(i, r);
          }
        }
      }
      // Reverse edges v <- u, grouped by v, each group sorted by distance then u.
      int[] reverseCount = new int[n + 1];
      for (int e = 0; e < n * k; e++) {
        reverseCount[neighbors[e] + 1]++;
      }
      for (int v = 0; v < n; v++) {
        reverseCount[v + 1] += reverseCount[v];
      }
      int[] reverse = new int[n * k];
      int[] fill = Arrays.copyOf(reverseCount, n);
      for (int e = 0; e < n * k; e++) {
        reverse[fill[neighbors[e]]++] = e;
      }
      int[] starts = new int[n + 1];
      int[] members = new int[2 * n * k];
      boolean[] fresh = new boolean[2 * n * k];
      long changed = 0;
      int at = 0;
      for (int v = 0; v < n; v++) {
        starts[v] = at;
        for (int r = 0; r < k; r++) {
          members[at++] = neighbors[v * k + r];
          if (previous != null && !previous.hasNeighbor(v, neighbors[v * k + r])) {
            changed++;
          }
        }
        int from = reverseCount[v];
        int to = reverseCount[v + 1];
        Integer[] edges = new Integer[to - from];
        for (int e = from; e < to; e++) {
          edges[e - from] = reverse[e];
        }
        Arrays.sort(edges, (e1, e2) -> NeighborLists.before(distances[e1], e1 / k,
            distances[e2], e2 / k) ? -1 : (e1.equals(e2) ? 0 : 1));
        for (int e = 0; e < Math.min(k, edges.length); e++) {
          members[at++] = edges[e] / k;
        }
        for (int p = starts[v]; p < at; p++) {
          fresh[p] = previous == null || !previous.inJoin(v, members[p]);
        }
      }
      starts[n] = at;
      return new JoinLists(k, neighbors, starts, Arrays.copyOf(members, at),
          Arrays.copyOf(fresh, at), changed);
    }

    /** The r-th current neighbour of sample q. */
    int neighbor(int q, int r) {
      return neighbors[q * k + r];
    }

    /** Where B(v) starts in {@link #member(int)}; B(v) ends at start(v + 1). */
    int start(int v) {
      return starts[v];
    }

    int member(int p) {
      return members[p];
    }

    /** Whether member p joined its B(v) in this round. */
    boolean isNew(int p) {
      return fresh[p];
    }

    /** Neighbour-list entries that differ from the previous round's (0 in the first). */
    long numChanged() {
      return changed;
    }

    private boolean hasNeighbor(int v, int u) {
      for (int r = 0; r < k; r++) {
        if (neighbors[v * k + r] == u) {
          return true;
        }
      }
      return false;
    }

    private boolean inJoin(int v, int u) {
      for (int p = starts[v]; p < starts[v + 1]; p++) {
        if (members[p] == u) {
          return true;
        }
      }
      return false;
    }
  }
}
