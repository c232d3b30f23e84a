package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.LinalgBackend;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.Partitioned.Pieces;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.ResourceScope;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.Shared;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Approximate k-nearest-neighbour lists for large n, in the same shape as {@link ExactKnn}: the
 * samples are put in k-means cells of about {@code cellSize} samples, and each sample is
 * compared with the samples of the cells linked to its own (an inverted-file search, as in
 * Jégou, Douze and Schmid, TPAMI 2011, without compression). Cells q and r are linked when r
 * is among the cells whose centres are nearest q's that together hold about {@code probes ·
 * cellSize} rows, or q among r's ({@link Cells#linked}). So each sample meets at most about
 * twice that many candidates whatever n is (measured: 36,900 per sample at n = 10⁵, 44,500 at
 * 10⁶ with the defaults), and the search is close to linear in n where the exact one is
 * quadratic; its recall falls as n grows (docs/benchmarks.md, "Approximate kNN graph").
 * Placing the centres
 * and routing the samples to them cost O(n √n) by a two-level quantizer ({@link Cells}).
 *
 * <ol>
 *   <li><b>Cells.</b> About {@code n / cellSize} fine centres under about √(n / cellSize)
 *       coarse ones, each level from {@value #LLOYD_ITERATIONS} Lloyd iterations on the driver
 *       over a stratified sample of {@value #SAMPLE_PER_CELL} rows per cell, started from
 *       distinct sample rows ({@code KMeans}'s k-means++ seeding would cost O(s · n / cellSize
 *       · d) scalar work here), and the links between fine cells.</li>
 *   <li><b>Routing.</b> Every block assigns its samples to the nearest fine centre of their
 *       nearest coarse centre and keeps a single-precision copy of its samples ordered by
 *       cell.</li>
 *   <li><b>Search.</b> For a pair of blocks (a, b) and every cell q, the samples of a in q are
 *       compared with the samples of b in q's linked cells (within one block, the linked
 *       cells r ≥ q) by single-precision GEMMs over groups of those cells, the exact
 *       search's tile restricted to them; each product is offered to both samples' lists, so each pair of samples
 *       is computed once. Every sample also meets the k samples that follow it (cyclically),
 *       so its list is always full. Each block is first searched within itself, in the stage
 *       that routes it; the k-th distances of those lists, upper bounds of the final ones, are
 *       shared and start the screen of every pair of different blocks ({@link
 *       Partitioned#crossMergeOnce}), which then offers few pairs that no list keeps (at
 *       n = 100,000 in 4 blocks, 10.5 million exact distances instead of 30.7 million).</li>
 * </ol>
 *
 * <p>The GEMM products only screen: a pair within {@link #SCREEN_SLACK} of either sample's
 * current k-th distance gets its squared distance {@code Σ (a_f − b_f)²} from the
 * single-precision values summed in double precision in a fixed order, and only those are
 * kept. So each list is the exact k nearest of the sample's candidate set (at the samples'
 * single-precision values), ties to the lower index, and the same for any split of the rows
 * into blocks; a sample's cell is decided the same way (nearest centre by that distance among
 * those the screen leaves).
 *
 * <p>Measured with {@code spark-ufs knn} on planted data (d = 100, 90 features of pure noise,
 * which makes the points nearly isotropic: the hardest case for any approximate search), see
 * {@link KnnSearch#AUTO_APPROXIMATE_ROWS}.
 */
public final class CellProbeKnn implements KnnSearch {

  private static final Logger LOG = LoggerFactory.getLogger(CellProbeKnn.class);

  /** Samples per cell of the default search. */
  public static final int DEFAULT_CELL_SIZE = 256;
  /**
   * Cells' worth of rows probed per sample by the default search (a budget of {@code probes ·
   * cellSize} rows per cell, see {@link Cells#linked}). At n = 10⁵, 3 · 10⁵, 10⁶ on planted
   * data: recall 0.947, 0.704, 0.337 on 10,000 rows from 36,900, 40,500, 44,500 candidates per
   * sample, where the 56 nearest cells gave 0.952, 0.805, 0.463 from 37,900, 49,300, 71,200
   * (docs/benchmarks.md, "Approximate kNN graph").
   */
  public static final int DEFAULT_PROBES = 112;

  /**
   * The most cells a cell probes, per {@code probes}: cells smaller than {@code cellSize} fill
   * the budget of {@code probes · cellSize} rows with more of them, up to this many times
   * {@code probes}.
   */
  static final int MAX_PROBES_PER_BUDGET_CELL = 4;

  /** Lloyd iterations placing the cell centres. */
  static final int LLOYD_ITERATIONS = 6;
  /** Sample rows per cell the centres are placed from. */
  static final int SAMPLE_PER_CELL = 16;

  /**
   * Relative margin of the single-precision screens: far above the rounding of a float
   * {@code ||a||² + ||b||² − 2 aᵀb} (about d · 6e-8 of the norms), far below real gaps.
   */
  static final double SCREEN_SLACK = 1e-4;

  /** Samples per GEMM tile on the query side: a tile's products are at most TILE floats per candidate. */
  private static final int TILE = 256;

  /**
   * Products of one GEMM call at most (128 KB of floats), unless one cell alone has more: the
   * linked cells' samples are multiplied in groups of whole cells, each screened right after
   * its GEMM while its products are still in the core's cache (a query tile's products over
   * all its linked cells take megabytes at n = 10⁵).
   */
  private static final int SCREENED_PRODUCTS = 32 * 1024;

  private final long seed;
  private final int cellSize;
  private final int probes;

  /**
   * @param seed fixes the sample the centres are placed from
   * @param cellSize samples a cell is meant to hold, ≥ 1
   * @param probes cells each sample is compared with, its own included, ≥ 1
   */
  public CellProbeKnn(long seed, int cellSize, int probes) {
    if (cellSize < 1) {
      throw new IllegalArgumentException("cellSize must be >= 1, got " + cellSize);
    }
    if (probes < 1) {
      throw new IllegalArgumentException("probes must be >= 1, got " + probes);
    }
    this.seed = seed;
    this.cellSize = cellSize;
    this.probes = probes;
  }

  /** The search with {@link #DEFAULT_CELL_SIZE} and {@link #DEFAULT_PROBES}. */
  public static CellProbeKnn withDefaults(long seed) {
    return new CellProbeKnn(seed, DEFAULT_CELL_SIZE, DEFAULT_PROBES);
  }

  @Override
  public Partitioned<NeighborLists> search(RowBlockMatrix x, int k) {
    int n = x.numRows();
    if (k < 1 || k >= n) {
      throw new IllegalArgumentException("numNeighbors must be in [1, n - 1] = [1, "
          + (n - 1) + "], got " + k);
    }
    long start = System.nanoTime();
    try (ResourceScope scope = new ResourceScope()) {
      Routing routing = route(x, scope);
      Cells cells = routing.cells();
      String phase = "approximate kNN graph: " + cells.count() + " cells in "
          + cells.coarseCount() + " coarse ones, " + cells.links.length / cells.count()
          + " linked per cell on average, " + Math.round(cells.candidatesPerRow(
              routing.rowsPerCell())) + " candidates per row (k = " + k + ")";
      x.execution().describe(phase);
      int blocks = x.blocks().numPartitions();
      // The search is the longest step of a large fit (11 minutes of 21 for NDFS at 10^7 rows).
      LOG.info("{} rows, {}: searching each of {} blocks and {} pairs of them", n, phase,
          blocks, (long) blocks * (blocks - 1) / 2);
      Shared<Cells> sharedCells = scope.keep(x.execution().share(cells));
      Partitioned<CellBlock> searched = scope.replace(routing.blocks(), routing.blocks().map(
          b -> b.searchedWithin(sharedCells.get(), k, n)));
      float[] bounds = new float[n];
      for (OwnBounds own : searched.collect(CellBlock::ownBounds)) {
        System.arraycopy(own.kth, 0, bounds, own.offset, own.kth.length);
      }
      Shared<float[]> sharedBounds = scope.keep(x.execution().share(bounds));
      Partitioned<NeighborLists> lists = searched.crossMergeOnce(
          (a, b) -> a.offset == b.offset ? new Pieces<>(a.own, null)
              : nearest(a, b, sharedCells.get(), k, n, sharedBounds.get()),
          NeighborLists::merge);
      LOG.info("approximate kNN graph of {} rows found in {} s", n,
          String.format(Locale.ROOT, "%.1f", (System.nanoTime() - start) / 1e9));
      return lists;
    }
  }

  /**
   * The rows each row of {@code x} is compared with on average: those of its own cell and of
   * the cells linked to it, so each pair of rows in linked cells counts for both. The search's
   * work per row; it places and routes as {@link #search} does, without searching.
   */
  public double candidatesPerRow(RowBlockMatrix x) {
    try (ResourceScope scope = new ResourceScope()) {
      Routing routing = route(x, scope);
      return routing.cells().candidatesPerRow(routing.rowsPerCell());
    }
  }

  /**
   * The cells placed on a sample of x and linked, x's blocks routed to them, and the rows of
   * each cell.
   */
  private record Routing(Cells cells, Partitioned<CellBlock> blocks, long[] rowsPerCell) {}

  /**
   * Places the cells, routes x's blocks to them (kept in {@code scope}) and links the cells by
   * the rows each holds, for a search of {@code probes · cellSize} rows per cell.
   */
  private Routing route(RowBlockMatrix x, ResourceScope scope) {
    int numCells = Math.max(1, x.numRows() / cellSize);
    Cells centres = Cells.place(sample(x, numCells), numCells, new SplittableRandom(seed));
    Shared<Cells> sharedCentres = scope.keep(x.execution().share(centres));
    Partitioned<CellBlock> blocks = scope.keep(x.blocks().map(
        b -> CellBlock.route(b, sharedCentres.get())));
    long[] rowsPerCell = blocks.aggregate(CellBlock::rowsPerCell, CellProbeKnn::sum);
    Cells cells = centres.linked(rowsPerCell, (long) probes * cellSize,
        MAX_PROBES_PER_BUDGET_CELL * probes);
    return new Routing(cells, blocks, rowsPerCell);
  }

  private static long[] sum(long[] a, long[] b) {
    long[] out = a.clone();
    for (int q = 0; q < out.length; q++) {
      out[q] += b[q];
    }
    return out;
  }

  @Override
  public String toString() {
    return "k-means cells of about " + cellSize + " samples, " + probes + " probed, seed " + seed;
  }

  /** A stratified sample of about SAMPLE_PER_CELL rows per cell, collected to the driver (d × s). */
  private DenseMatrix sample(RowBlockMatrix x, int numCells) {
    int n = x.numRows();
    int s = (int) Math.min(n, (long) SAMPLE_PER_CELL * numCells);
    SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
    int[] rows = new int[s];
    for (int j = 0; j < s; j++) {
      long from = (long) n * j / s;
      long to = (long) n * (j + 1) / s;
      rows[j] = (int) (from + rnd.nextLong(to - from));
    }
    return x.gatherColumns(rows);
  }

  /**
   * The pieces of both blocks' lists that the pairs between them give: for each sample of
   * {@code a}, its k nearest among the samples of {@code b} in the cells linked to its own (and
   * among the k samples following it), and the same for each sample of {@code b} against
   * {@code a}. Each pair of samples is compared once; for {@code a == b} only the first piece.
   * The lists are filled in cell order (so the screen reads them in sequence) and returned in
   * row order.
   *
   * <p>With {@code bounds} (by global row: at least the k-th distance of the sample's final
   * list, such as that of its block's own list, whose samples are all candidates) the screen
   * starts from them instead of from the lists, and passes over the pairs that no final list
   * keeps; the pieces may then hold fewer true neighbours but the merged lists are the same.
   */
  static Pieces<NeighborLists> nearest(CellBlock a, CellBlock b, Cells cells, int k, int n,
      float[] bounds) {
    boolean same = a.offset == b.offset;
    int d = a.d;
    NeighborLists forA = a.followers(b, k, n);
    NeighborLists forB = same ? forA : b.followers(a, k, n);
    float[] kthA = a.screenStart(forA, bounds);
    float[] kthB = same ? kthA : b.screenStart(forB, bounds);
    float[] refs = new float[0];
    float[] dots = new float[0];
    for (int q = 0; q < cells.count(); q++) {
      int qFrom = a.start[q];
      int qTo = a.start[q + 1];
      if (qFrom == qTo) {
        continue;
      }
      int[] runs = new int[2 * (cells.linkStart(q + 1) - cells.linkStart(q))];
      int numRuns = 0;
      int m = 0;
      for (int p = cells.linkStart(q); p < cells.linkStart(q + 1); p++) {
        int r = cells.link(p);
        if ((!same || r >= q) && b.start[r + 1] > b.start[r]) {
          runs[numRuns++] = b.start[r];
          runs[numRuns++] = b.start[r + 1];
          m += b.start[r + 1] - b.start[r];
        }
      }
      if (m == 0) {
        continue;
      }
      if (refs.length < m * d) {
        refs = new float[m * d];
      }
      for (int run = 0, at = 0; run < numRuns; run += 2) {
        int len = runs[run + 1] - runs[run];
        System.arraycopy(b.values, runs[run] * d, refs, at * d, len * d);
        at += len;
      }
      for (int t0 = qFrom; t0 < qTo; t0 += TILE) {
        int tn = Math.min(TILE, qTo - t0);
        for (int runFrom = 0, refFrom = 0; runFrom < numRuns; ) {
          int runTo = runFrom;
          int mc = 0;
          do {
            mc += runs[runTo + 1] - runs[runTo];
            runTo += 2;
          } while (runTo < numRuns
              && (long) (mc + runs[runTo + 1] - runs[runTo]) * tn <= SCREENED_PRODUCTS);
          if (dots.length < mc * tn) {
            dots = new float[mc * tn];
          }
          LinalgBackend.blas().sgemm("T", "N", mc, tn, d, 1f, refs, refFrom * d, d, a.values,
              t0 * d, d, 0f, dots, 0, mc);
          for (int t = 0; t < tn; t++) {
            offerTileColumn(a, t0 + t, b, runs, runFrom, runTo, same, dots, t * mc, forA, forB,
                kthA, kthB);
          }
          runFrom = runTo;
          refFrom += mc;
        }
      }
    }
    return new Pieces<>(a.inRowOrder(forA), same ? null : b.inRowOrder(forB));
  }

  /**
   * Screens the products of a's sample at (cell-order) position {@code at} with b's samples at
   * the positions of {@code runs[runFrom .. runTo)} (from, to pairs, in the order of the
   * products) and offers each pair within the screen's margin of either sample's current k-th
   * distance to that sample's list. {@code kthA} and {@code kthB} hold the k-th distances
   * rounded up to single precision, in cell order, so that the screen reads few cache lines.
   * Pairs to offer are rare, so each run is first screened as a whole by comparisons whose
   * results are or-ed, without branches: a run's least screened value by {@code Math.min},
   * which must order NaN and −0, made each product wait on the previous one
   * (docs/benchmarks.md, "Approximate kNN graph").
   */
  private static void offerTileColumn(CellBlock a, int at, CellBlock b, int[] runs,
      int runFrom, int runTo, boolean same, float[] dots, int dotsFrom, NeighborLists forA,
      NeighborLists forB, float[] kthA, float[] kthB) {
    float q = a.screenNorms[at];
    float[] r = b.screenNorms;
    for (int run = runFrom, j0 = dotsFrom; run < runTo;
        j0 += runs[run + 1] - runs[run], run += 2) {
      int from = runs[run];
      int to = runs[run + 1];
      float kth = kthA[at];
      boolean any = false;
      for (int pos = from, j = j0; pos < to; pos++, j++) {
        float screened = q + r[pos] - 2 * dots[j];
        any |= screened <= kth | screened <= kthB[pos];
      }
      if (!any) {
        continue;
      }
      for (int pos = from, j = j0; pos < to; pos++, j++) {
        float screened = q + r[pos] - 2 * dots[j];
        if ((screened <= kthA[at] || screened <= kthB[pos]) && !(same && pos == at)) {
          double exact = a.squaredDistance(at, b, pos);
          if (exact <= forA.distance(at, forA.k() - 1)) {
            kthA[at] = Math.min(kthA[at],
                roundUp(forA.offer(at, exact, b.offset + b.order[pos])));
          }
          if (exact <= forB.distance(pos, forB.k() - 1)) {
            kthB[pos] = Math.min(kthB[pos],
                roundUp(forB.offer(pos, exact, a.offset + a.order[at])));
          }
        }
      }
    }
  }

  /**
   * A block's k-th distances within itself, rounded up, in row order from {@code offset} (a
   * class, not a record: Spark's Kryo serializer cannot build records).
   */
  static final class OwnBounds implements Serializable {
    private static final long serialVersionUID = 1L;
    private final int offset;
    private final float[] kth;

    OwnBounds(int offset, float[] kth) {
      this.offset = offset;
      this.kth = kth;
    }
  }

  /** The least float not below {@code v}. */
  private static float roundUp(double v) {
    float f = (float) v;
    return f < v ? Math.nextUp(f) : f;
  }

  /**
   * {@code Σ (a_f − b_f)²} of two single-precision samples summed in double precision in four
   * interleaved partial sums: a fixed order, so the same value wherever it is computed.
   */
  private static double squaredDistance(float[] av, int ai, float[] bv, int bj, int d) {
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

  private static double[] toDouble(float[] v) {
    double[] out = new double[v.length];
    for (int f = 0; f < v.length; f++) {
      out[f] = v[f];
    }
    return out;
  }

  private static float[] toFloat(double[] v) {
    float[] out = new float[v.length];
    for (int f = 0; f < v.length; f++) {
      out[f] = (float) v[f];
    }
    return out;
  }

  /**
   * The cells of a two-level quantizer (single precision) and the links between them. About √m
   * coarse centres are placed by Lloyd iterations on the sample, and each coarse cell's share of
   * the sample is split the same way into fine cells, in proportion to that share: m fine cells
   * in all, those of a coarse cell consecutive. A sample's cell is the nearest fine centre of
   * its nearest coarse centre's cell, so placing the centres costs O(s √m d) and routing a
   * sample O(√m d), where one level of m centres costs O(s m d) and O(m d) (with s and m
   * proportional to n, O(n √n) instead of O(n²)). Fine cells q and r are linked when r is among
   * q's {@code probes} nearest fine centres (q itself first, ties to the lower index) or q among
   * r's; each cell's links ascending, in compressed rows.
   */
  static final class Cells implements Serializable {

    private static final long serialVersionUID = 1L;

    private final int count;
    private final int d;
    private final float[] centers;
    private final float[] centerNorms;
    private final float[] coarseCenters;
    private final float[] coarseNorms;
    /** The fine cells of coarse cell g are {@code [groupStarts[g], groupStarts[g + 1])}. */
    private final int[] groupStarts;
    private final int[] linkStarts;
    private final int[] links;

    private Cells(DenseMatrix centers, DenseMatrix coarseCenters, int[] groupStarts) {
      this.count = centers.cols();
      this.d = centers.rows();
      this.centers = toFloat(centers.data());
      this.centerNorms = floatNorms(this.centers, d, count);
      this.coarseCenters = toFloat(coarseCenters.data());
      this.coarseNorms = floatNorms(this.coarseCenters, d, coarseCenters.cols());
      this.groupStarts = groupStarts;
      this.linkStarts = new int[count + 1];
      this.links = new int[0];
    }

    private Cells(Cells unlinked, int[] linkStarts, int[] links) {
      this.count = unlinked.count;
      this.d = unlinked.d;
      this.centers = unlinked.centers;
      this.centerNorms = unlinked.centerNorms;
      this.coarseCenters = unlinked.coarseCenters;
      this.coarseNorms = unlinked.coarseNorms;
      this.groupStarts = unlinked.groupStarts;
      this.linkStarts = linkStarts;
      this.links = links;
    }

    int count() {
      return count;
    }

    int coarseCount() {
      return groupStarts.length - 1;
    }

    /** Where cell q's links start in {@link #link(int)}; they end at linkStart(q + 1). */
    int linkStart(int q) {
      return linkStarts[q];
    }

    int link(int p) {
      return links[p];
    }

    /**
     * Σ_q n_q Σ_{r linked to q} n_r / n for the cells' row counts n_q: the rows each row meets
     * on average, its own cell's included.
     */
    double candidatesPerRow(long[] rowsPerCell) {
      double pairs = 0;
      long n = 0;
      for (int q = 0; q < count; q++) {
        long linkedRows = 0;
        for (int p = linkStarts[q]; p < linkStarts[q + 1]; p++) {
          linkedRows += rowsPerCell[links[p]];
        }
        pairs += (double) rowsPerCell[q] * linkedRows;
        n += rowsPerCell[q];
      }
      return pairs / n;
    }

    /**
     * Places about {@code numCells} fine centres under about √numCells coarse ones over {@code
     * points} (d × s, s ≥ numCells), each level by {@link #lloyd}; a coarse cell the sample
     * leaves empty is dropped.
     */
    static Cells place(DenseMatrix points, int numCells, SplittableRandom rnd) {
      int d = points.rows();
      int s = points.cols();
      DenseMatrix coarse = lloyd(points, (int) Math.round(Math.sqrt(numCells)), rnd);
      int[] group = nearestCenters(points, coarse);
      int[] memberStarts = starts(group, coarse.cols());
      int[] members = ordered(group, memberStarts);
      List<DenseMatrix> fine = new ArrayList<>();
      List<DenseMatrix> kept = new ArrayList<>();
      int[] groupStarts = new int[coarse.cols() + 1];
      for (int g = 0; g < coarse.cols(); g++) {
        int size = memberStarts[g + 1] - memberStarts[g];
        if (size == 0) {
          continue;
        }
        DenseMatrix memberPoints = new DenseMatrix(d, size);
        for (int j = 0; j < size; j++) {
          System.arraycopy(points.data(), members[memberStarts[g] + j] * d,
              memberPoints.data(), j * d, d);
        }
        int share = (int) Math.max(1, Math.min(size, Math.round((double) size * numCells / s)));
        fine.add(lloyd(memberPoints, share, rnd));
        kept.add(coarse.columns(g, 1));
        groupStarts[kept.size()] = groupStarts[kept.size() - 1] + share;
      }
      return new Cells(RowBlockMatrix.concatColumns(d, fine),
          RowBlockMatrix.concatColumns(d, kept), Arrays.copyOf(groupStarts, kept.size() + 1));
    }

    /**
     * {@code m} centres by {@value #LLOYD_ITERATIONS} Lloyd iterations over {@code points} (d ×
     * s, s ≥ m), started from distinct points drawn with {@code rnd}; a cell left empty keeps
     * its centre.
     */
    private static DenseMatrix lloyd(DenseMatrix points, int m, SplittableRandom rnd) {
      int d = points.rows();
      int s = points.cols();
      double[] p = points.data();
      int[] perm = new int[s];
      for (int j = 0; j < s; j++) {
        perm[j] = j;
      }
      for (int j = 0; j < m; j++) {
        int r = j + rnd.nextInt(s - j);
        int t = perm[j];
        perm[j] = perm[r];
        perm[r] = t;
      }
      DenseMatrix centers = new DenseMatrix(d, m);
      for (int c = 0; c < m; c++) {
        System.arraycopy(p, perm[c] * d, centers.data(), c * d, d);
      }
      for (int it = 0; it < LLOYD_ITERATIONS; it++) {
        int[] label = nearestCenters(points, centers);
        double[] sums = new double[d * m];
        int[] counts = new int[m];
        for (int j = 0; j < s; j++) {
          counts[label[j]]++;
          for (int f = 0; f < d; f++) {
            sums[label[j] * d + f] += p[j * d + f];
          }
        }
        for (int c = 0; c < m; c++) {
          if (counts[c] > 0) {
            for (int f = 0; f < d; f++) {
              centers.data()[c * d + f] = sums[c * d + f] / counts[c];
            }
          }
        }
      }
      return centers;
    }

    /**
     * These cells linked for a search of about {@code budget} rows per cell: each cell's probes
     * are the cells nearest it (itself first, ties to the lower index), taken in order until
     * they hold {@code budget} of the rows counted in {@code rowsPerCell}, and at most {@code
     * maxProbes}; q and r are linked when either is among the other's probes. Each row then
     * meets at most {@code budget} rows (and the last probe's) through its own cell's probes
     * whatever the cells' sizes, so the pairs computed number at most about n · budget; a
     * count of probes instead lets a row whose probes include large cells meet many more, and
     * large cells are those whose centres are near many others, so probed by many (in 100
     * dimensions, more of them as the number of cells grows: docs/benchmarks.md, "Scaling").
     */
    Cells linked(long[] rowsPerCell, long budget, int maxProbes) {
      int listLength = Math.min(maxProbes, count);
      int[] nearest = probeLists(new DenseMatrix(d, count, toDouble(centers)), listLength);
      int[] probes = new int[count];
      for (int q = 0; q < count; q++) {
        long rows = 0;
        while (probes[q] < listLength && rows < budget) {
          rows += rowsPerCell[nearest[q * listLength + probes[q]++]];
        }
      }
      int[] counts = new int[count + 1];
      boolean[] oneWay = new boolean[count * listLength];  // q probes r, r does not probe q
      for (int q = 0; q < count; q++) {
        for (int p = 0; p < probes[q]; p++) {
          int r = nearest[q * listLength + p];
          counts[q + 1]++;
          if (!isProbe(nearest, listLength, probes, r, q)) {
            oneWay[q * listLength + p] = true;
            counts[r + 1]++;
          }
        }
      }
      for (int q = 0; q < count; q++) {
        counts[q + 1] += counts[q];
      }
      int[] fill = Arrays.copyOf(counts, count);
      int[] linked = new int[counts[count]];
      for (int q = 0; q < count; q++) {
        for (int p = 0; p < probes[q]; p++) {
          int r = nearest[q * listLength + p];
          linked[fill[q]++] = r;
          if (oneWay[q * listLength + p]) {
            linked[fill[r]++] = q;
          }
        }
      }
      for (int q = 0; q < count; q++) {
        Arrays.sort(linked, counts[q], counts[q + 1]);
      }
      return new Cells(this, counts, linked);
    }

    /** Whether r is among q's first {@code probes[q]} of its nearest cells. */
    private static boolean isProbe(int[] nearest, int listLength, int[] probes, int q, int r) {
      for (int p = 0; p < probes[q]; p++) {
        if (nearest[q * listLength + p] == r) {
          return true;
        }
      }
      return false;
    }

    /** The nearest centre of each point (d × s), by one GEMM: argmin ||c||² − 2 cᵀx. */
    private static int[] nearestCenters(DenseMatrix points, DenseMatrix centers) {
      int numCells = centers.cols();
      double[] centerNorms = centers.columnNormsSquared();
      int[] label = new int[points.cols()];
      for (int j0 = 0; j0 < points.cols(); j0 += 4 * TILE) {
        int jn = Math.min(4 * TILE, points.cols() - j0);
        double[] dots = centers.transposeMultiply(points.columns(j0, jn)).data();
        for (int j = 0; j < jn; j++) {
          int best = 0;
          double bestValue = Double.POSITIVE_INFINITY;
          for (int c = 0; c < numCells; c++) {
            double v = centerNorms[c] - 2 * dots[j * numCells + c];
            if (v < bestValue) {
              bestValue = v;
              best = c;
            }
          }
          label[j0 + j] = best;
        }
      }
      return label;
    }

    /** Each centre's {@code probes} nearest centres (itself first), ties to the lower index. */
    private static int[] probeLists(DenseMatrix centers, int probes) {
      int numCells = centers.cols();
      int[] lists = new int[numCells * probes];
      double[] listDistances = new double[numCells * probes];
      Arrays.fill(lists, Integer.MAX_VALUE);
      Arrays.fill(listDistances, Double.POSITIVE_INFINITY);
      double[] norms = centers.columnNormsSquared();
      for (int c0 = 0; c0 < numCells; c0 += TILE) {
        int cn = Math.min(TILE, numCells - c0);
        double[] dots = centers.transposeMultiply(centers.columns(c0, cn)).data();
        for (int q = 0; q < cn; q++) {
          int base = (c0 + q) * probes;
          for (int c = 0; c < numCells; c++) {
            double d2 = c == c0 + q ? Double.NEGATIVE_INFINITY
                : norms[c0 + q] + norms[c] - 2 * dots[q * numCells + c];
            NeighborLists.offer(lists, listDistances, base, probes, d2, c);
          }
        }
      }
      return lists;
    }

    /**
     * The cell of each of the {@code count} samples of {@code values} (d each, squared norms
     * {@code norms}): the nearest coarse centre by one GEMM per tile of samples, then, the
     * samples grouped by coarse cell, the nearest of that cell's fine centres by one GEMM per
     * tile of a group.
     */
    int[] route(float[] values, float[] norms, int count, int d) {
      int numGroups = coarseCount();
      int widest = 0;
      for (int g = 0; g < numGroups; g++) {
        widest = Math.max(widest, groupStarts[g + 1] - groupStarts[g]);
      }
      float[] dots = new float[Math.max(numGroups, widest) * TILE];
      int[] group = new int[count];
      for (int i0 = 0; i0 < count; i0 += TILE) {
        int in = Math.min(TILE, count - i0);
        LinalgBackend.blas().sgemm("T", "N", numGroups, in, d, 1f, coarseCenters, 0, d,
            values, i0 * d, d, 0f, dots, 0, numGroups);
        for (int i = 0; i < in; i++) {
          group[i0 + i] = nearest(values, (i0 + i) * d, norms[i0 + i], dots, i * numGroups,
              coarseCenters, coarseNorms, 0, numGroups, d);
        }
      }
      int[] memberStarts = starts(group, numGroups);
      int[] members = ordered(group, memberStarts);
      float[] tile = new float[TILE * d];
      int[] cell = new int[count];
      for (int g = 0; g < numGroups; g++) {
        int from = groupStarts[g];
        int m = groupStarts[g + 1] - from;
        for (int t0 = memberStarts[g]; t0 < memberStarts[g + 1]; t0 += TILE) {
          int tn = Math.min(TILE, memberStarts[g + 1] - t0);
          for (int t = 0; t < tn; t++) {
            System.arraycopy(values, members[t0 + t] * d, tile, t * d, d);
          }
          LinalgBackend.blas().sgemm("T", "N", m, tn, d, 1f, centers, from * d, d, tile, 0, d,
              0f, dots, 0, m);
          for (int t = 0; t < tn; t++) {
            int i = members[t0 + t];
            cell[i] = nearest(tile, t * d, norms[i], dots, t * m, centers, centerNorms, from,
                from + m, d);
          }
        }
      }
      return cell;
    }

    /**
     * The nearest of centres {@code [from, to)} to the sample at {@code values[at ..]} (squared
     * norm {@code norm}) by {@link CellProbeKnn#squaredDistance}, among those the GEMM products
     * ({@code dots[dotsFrom + c − from]} for centre c) leave within the screen's margin, ties to
     * the lower index.
     */
    private static int nearest(float[] values, int at, float norm, float[] dots, int dotsFrom,
        float[] centers, float[] centerNorms, int from, int to, int d) {
      float best = Float.POSITIVE_INFINITY;
      for (int c = from; c < to; c++) {
        best = Math.min(best, centerNorms[c] - 2 * dots[dotsFrom + c - from]);
      }
      int nearest = -1;
      double nearestDistance = Double.POSITIVE_INFINITY;
      for (int c = from; c < to; c++) {
        float v = centerNorms[c] - 2 * dots[dotsFrom + c - from];
        if (v <= best + SCREEN_SLACK * (norm + centerNorms[c])) {
          double exact = squaredDistance(values, at, centers, c * d, d);
          if (exact < nearestDistance) {
            nearestDistance = exact;
            nearest = c;
          }
        }
      }
      return nearest;
    }
  }

  /**
   * A block routed to the cells: its samples' single-precision values and screen norms in
   * cell order ({@code order[j]} is the local sample at position j), and where each cell's
   * samples start in that order. It keeps no reference to the block's double-precision rows,
   * so a routed block that is serialized (spilled to disk, or sent to the task of a pair of
   * blocks) carries only its single-precision copy.
   */
  static final class CellBlock implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The global row of the block's first sample. */
    private final int offset;
    private final int d;
    private final int[] order;
    private final int[] position;
    private final int[] start;
    private final float[] values;
    /** Squared norms scaled by {@code 1 − SCREEN_SLACK}: the screen's margin folded in. */
    private final float[] screenNorms;
    /** The block's lists within itself, in row order, once {@link #searchedWithin} ran. */
    private final NeighborLists own;

    private CellBlock(int offset, int d, int[] order, int[] start, float[] values,
        float[] screenNorms, NeighborLists own) {
      this.offset = offset;
      this.d = d;
      this.order = order;
      this.position = new int[order.length];
      for (int at = 0; at < order.length; at++) {
        position[order[at]] = at;
      }
      this.start = start;
      this.values = values;
      this.screenNorms = screenNorms;
      this.own = own;
    }

    /** This block with its lists within itself ({@link #nearest}'s pair of it with itself). */
    CellBlock searchedWithin(Cells cells, int k, int n) {
      return new CellBlock(offset, d, order, start, values, screenNorms,
          nearest(this, this, cells, k, n, null).first());
    }

    /**
     * Lists in cell order holding, for each sample, those of {@code other}'s samples that are
     * among the k following it (cyclically).
     */
    NeighborLists followers(CellBlock other, int k, int n) {
      int rows = order.length;
      int[] idx = new int[rows * k];
      double[] dist = new double[rows * k];
      Arrays.fill(idx, Integer.MAX_VALUE);
      Arrays.fill(dist, Double.POSITIVE_INFINITY);
      NeighborLists lists = new NeighborLists(offset, k, idx, dist);
      for (int at = 0; at < rows; at++) {
        int self = offset + order[at];
        for (int j = 1; j <= k; j++) {
          int r = (int) ((self + (long) j) % n);
          int local = r - other.offset;
          if (local >= 0 && local < other.order.length) {
            lists.offer(at, squaredDistance(at, other, other.position[local]), r);
          }
        }
      }
      return lists;
    }

    /** The block's samples in each cell. */
    long[] rowsPerCell() {
      long[] rows = new long[start.length - 1];
      for (int q = 0; q < rows.length; q++) {
        rows[q] = start[q + 1] - start[q];
      }
      return rows;
    }

    OwnBounds ownBounds() {
      float[] kth = new float[own.numRows()];
      for (int i = 0; i < kth.length; i++) {
        kth[i] = roundUp(own.distance(i, own.k() - 1));
      }
      return new OwnBounds(offset, kth);
    }

    /**
     * The screen's starting k-th distance of each sample (in cell order): its list's, rounded
     * up to single precision, or its bound when that is lower.
     */
    float[] screenStart(NeighborLists lists, float[] bounds) {
      float[] out = new float[lists.numRows()];
      for (int at = 0; at < out.length; at++) {
        out[at] = roundUp(lists.distance(at, lists.k() - 1));
        if (bounds != null) {
          out[at] = Math.min(out[at], bounds[offset + order[at]]);
        }
      }
      return out;
    }

    /** The squared distance of the samples at position {@code at} and {@code other}'s {@code pos}. */
    double squaredDistance(int at, CellBlock other, int pos) {
      return CellProbeKnn.squaredDistance(values, at * d, other.values, pos * d, d);
    }

    /** Lists in cell order put back in row order. */
    NeighborLists inRowOrder(NeighborLists byPosition) {
      int k = byPosition.k();
      int[] idx = new int[order.length * k];
      double[] dist = new double[order.length * k];
      for (int at = 0; at < order.length; at++) {
        for (int r = 0; r < k; r++) {
          idx[order[at] * k + r] = byPosition.index(at, r);
          dist[order[at] * k + r] = byPosition.distance(at, r);
        }
      }
      return new NeighborLists(offset, k, idx, dist);
    }

    static CellBlock route(RowBlock b, Cells cells) {
      int rows = b.numRows();
      int d = b.numCols();
      int numCells = cells.count();
      float[] raw = toFloat(b.columns().data());
      float[] rawNorms = floatNorms(raw, d, rows);
      int[] cellOf = cells.route(raw, rawNorms, rows, d);
      int[] start = starts(cellOf, numCells);
      int[] order = ordered(cellOf, start);
      float[] values = new float[rows * d];
      float[] screenNorms = new float[rows];
      for (int j = 0; j < rows; j++) {
        System.arraycopy(raw, order[j] * d, values, j * d, d);
        screenNorms[j] = (float) (rawNorms[order[j]] * (1 - SCREEN_SLACK));
      }
      return new CellBlock(b.offset(), d, order, start, values, screenNorms, null);
    }
  }

  /** Where the members of each label start in label order (labels in [0, count)), and the end. */
  private static int[] starts(int[] labels, int count) {
    int[] start = new int[count + 1];
    for (int label : labels) {
      start[label + 1]++;
    }
    for (int c = 0; c < count; c++) {
      start[c + 1] += start[c];
    }
    return start;
  }

  /** The positions of {@code labels} ordered by label, ascending within a label. */
  private static int[] ordered(int[] labels, int[] starts) {
    int[] fill = Arrays.copyOf(starts, starts.length - 1);
    int[] order = new int[labels.length];
    for (int i = 0; i < labels.length; i++) {
      order[fill[labels[i]]++] = i;
    }
    return order;
  }

  private static float[] floatNorms(float[] v, int d, int count) {
    float[] out = new float[count];
    for (int j = 0; j < count; j++) {
      float s = 0;
      for (int f = 0; f < d; f++) {
        s += v[j * d + f] * v[j * d + f];
      }
      out[j] = s;
    }
    return out;
  }
}
