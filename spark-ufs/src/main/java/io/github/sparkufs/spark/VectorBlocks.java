package io.github.sparkufs.spark;

import io.github.sparkufs.linalg.ColumnStatistics;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.DriverMemory;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.SparseRowMatrix;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkExecutorInfo;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.VectorUDT;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.storage.BlockResult;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.Tuple2;

/**
 * Turns a vector column into the {@link RowBlockMatrix} every solver runs on, checking the
 * input in the same pass: one block per partition, in row order, so that sample i is the
 * i-th row of the dataset whatever the partitioning. Problems (null vector, NaN or infinite
 * value, a vector of another size, no rows) are reported with the row number and the value
 * before any solver work starts.
 *
 * <p>Sparse input stays sparse ({@link RowBlock#rows()}, the samples' non-zeros) when the method
 * runs on sparse row blocks (its {@code denseInputReason} is null) and at most
 * {@link #MAX_SPARSE_DENSITY} of the n × d values are stored. Otherwise the blocks are dense:
 * sparse vectors are densified here, n × d doubles, and the fit logs it once at INFO with the
 * method's reason and the size. Keep d moderate for sparse data and a dense method (a
 * MaxVarianceSelector ahead in a Pipeline); {@link DriverMemory} refuses what the driver cannot
 * hold.
 */
public final class VectorBlocks {

  private static final Logger LOG = LoggerFactory.getLogger(VectorBlocks.class);

  /** Where the blocks live. */
  public enum Placement {
    /** On the driver when n·d ≤ {@link #DRIVER_LIMIT}, else distributed. */
    AUTO,
    /** Collected into one block on the driver: no Spark job per iteration. */
    DRIVER,
    /** One block per partition of a cached RDD. */
    DISTRIBUTED
  }

  /**
   * Largest number of stored values (n·d dense, the non-zeros sparse) kept on the driver by
   * {@link Placement#AUTO} (2^24 values, 128 MiB dense).
   */
  public static final long DRIVER_LIMIT = 1L << 24;

  /**
   * Largest share of the n × d values the input may store (a dense vector stores all d, a
   * sparse one its non-zeros) for its blocks to stay sparse: there the non-zeros and their
   * column indices take under a sixth of the dense doubles, and the exact kNN search, the
   * costliest kernel, is still faster sparse. Measured with {@code ExactKnn.nearest} on one
   * block of n = 2,000, d = 1,000 (native BLAS, a loaded 2-core machine, 3 to 4 runs each):
   * dense 0.5 to 1.1 s at every density; sparse 0.15 s at density 0.05, 0.2 to 0.8 s at 0.1,
   * 1.1 to 1.4 s at 0.2 and 1.9 to 2.7 s at 0.3.
   */
  public static final double MAX_SPARSE_DENSITY = 0.1;

  /**
   * A partition storing at least this share of its values is blocked dense at once, even for
   * a method that runs on sparse blocks: its dense block takes at most twice the bytes of its
   * compressed rows (8 against 12 per value), and input this dense is densified anyway
   * ({@link #MAX_SPARSE_DENSITY}); otherwise it would be compressed and then densified.
   */
  static final double DENSE_PARTITION_DENSITY = 1.0 / 3;

  /**
   * The planned scans of the Datasets read so far, by Dataset (identity, weakly held) and
   * column: planning {@code select(column)} (analysis, optimisation, code generation) took
   * 0.02 to 0.06 s of each Laplacian Score fit of COIL20 on the driver, paid again by every fit
   * of the same Dataset (parameter sweeps, comparisons of methods). A scan is reused only
   * under the storage level it was planned with, so a Dataset cached or uncached since is
   * planned anew and reads its cache; like the Dataset's own actions, the scan reads the
   * source as planned.
   */
  private static final Map<Dataset<?>, Map<String, PlannedScan>> SCANS =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** A column's planned scan and the Dataset's storage level when it was planned. */
  private record PlannedScan(StorageLevel storageLevel, JavaRDD<InternalRow> rows) {}

  private VectorBlocks() {}

  /**
   * Reads, checks and blocks {@code column} of {@code dataset}.
   *
   * @param method the selector's name, for job descriptions
   * @param checkpoint whether to checkpoint the distributed blocks (needs a checkpoint dir)
   */
  public static RowBlockMatrix read(Dataset<?> dataset, String column, Placement placement,
      String method, boolean checkpoint) {
    return read(dataset, column, placement, new SparkExecution(
        JavaSparkContext.fromSparkContext(dataset.sparkSession().sparkContext()), method),
        checkpoint, AUTO_STORAGE, false, "reads dense row blocks", (n, d) -> null);
  }

  /**
   * Like {@link #read(Dataset, String, Placement, String, boolean)}, running its jobs in
   * {@code execution}; with {@code skipInvalid}, rows with a null vector or a NaN or infinite
   * value are dropped instead of failing the fit (vectors of another size still fail).
   *
   * @param storageLevel the storage level of the distributed blocks, a {@link StorageLevel}
   *     name or {@value #AUTO_STORAGE} ({@link #storageLevel})
   * @param denseInputReason why the method needs dense blocks, for the log line; null when it
   *     runs on sparse ones
   * @param driverNeed the largest matrix the method will hold on the driver for n rows of d
   *     features, or null: checked once the first scan knows n and d, before any block is made
   */
  public static RowBlockMatrix read(Dataset<?> dataset, String column, Placement placement,
      SparkExecution execution, boolean checkpoint, String storageLevel, boolean skipInvalid,
      String denseInputReason, BiFunction<Integer, Integer, DriverMemory.Need> driverNeed) {
    execution.describe("read and check column '" + column + "'");
    JavaRDD<InternalRow> rows = scan(dataset, column);
    JavaRDD<PartitionBlock> parts = rows.mapPartitions(
        (Iterator<InternalRow> it) -> Collections.singletonList(
            PartitionBlock.of(it, skipInvalid, denseInputReason == null)).iterator())
        .persist(StorageLevel.MEMORY_AND_DISK());
    try {
      return blocks(parts, rows.getNumPartitions(), column, placement, execution, checkpoint,
          storageLevel, denseInputReason, driverNeed);
    } finally {
      parts.unpersist(false);
    }
  }

  /**
   * The rows of {@code column} of {@code dataset} (a struct each), planned once per Dataset and
   * column while the Dataset lives ({@link #SCANS}).
   */
  static JavaRDD<InternalRow> scan(Dataset<?> dataset, String column) {
    StorageLevel storageLevel = dataset.storageLevel();
    Map<String, PlannedScan> byColumn = SCANS.computeIfAbsent(dataset,
        key -> new ConcurrentHashMap<>());
    PlannedScan scan = byColumn.get(column);
    if (scan == null || !scan.storageLevel().equals(storageLevel)) {
      scan = new PlannedScan(storageLevel,
          dataset.select(column).queryExecution().toRdd().toJavaRDD());
      byColumn.put(column, scan);
    }
    return scan.rows();
  }

  /** Checks the scanned partitions and blocks them where {@code placement} says. */
  private static RowBlockMatrix blocks(JavaRDD<PartitionBlock> parts, int numPartitions,
      String column, Placement placement, SparkExecution execution, boolean checkpoint,
      String storageLevel, String denseInputReason,
      BiFunction<Integer, Integer, DriverMemory.Need> driverNeed) {
    // One job checks every partition. In local mode the driver reads the blocks that job left
    // in its own block manager; otherwise small partitions send their values along, so data
    // that stays on the driver is read in that single job (larger data, once its size is
    // checked).
    boolean inProcess = parts.context().isLocal();
    long perPartition = placement == Placement.DISTRIBUTED || inProcess ? 0
        : DRIVER_LIMIT / Math.max(1, numPartitions);
    List<PartitionBlock> scanned = parts.map(b -> b.forDriver(perPartition)).collect();
    List<PartitionBlock.Summary> summaries = new ArrayList<>();
    scanned.forEach(b -> summaries.add(b.summary));
    int[] offsets = check(summaries, column);
    int n = offsets[offsets.length - 1];
    int d = summaries.stream().filter(s -> s.count > 0).findFirst().get().size;
    DriverMemory.Need need = driverNeed.apply(n, d);
    if (need != null) {
      need.require();
    }
    long stored = summaries.stream().mapToLong(s -> s.stored).sum();
    double density = stored / ((double) n * d);
    boolean sparse = denseInputReason == null && density <= MAX_SPARSE_DENSITY;
    long sparseRows = summaries.stream().mapToLong(s -> s.sparse).sum();
    if (sparse) {
      LOG.info("{}: keeping {} x {} input sparse ({} stored values, density {}): {} MB",
          execution.method(), n, d, stored, String.format(Locale.ROOT, "%.3g", density),
          megabytes(stored * (Double.BYTES + Integer.BYTES)));
    } else if (sparseRows > 0) {
      LOG.info("{}{}: densifying {} x {} input ({} of the rows sparse, density {}): {} MB",
          execution.method(), denseInputReason == null ? "" : " " + denseInputReason, n, d,
          sparseRows, String.format(Locale.ROOT, "%.3g", density),
          megabytes((long) n * d * Double.BYTES));
    }
    boolean onDriver = placement == Placement.DRIVER
        || (placement == Placement.AUTO && (sparse ? stored : (long) n * d) <= DRIVER_LIMIT);
    if (onDriver) {
      if (sparse) {
        DriverMemory.require("the " + stored + " stored values of column '" + column
            + "' on the driver, with their column indices (n = " + n + ", d = " + d + ")",
            stored, 2);
      } else {
        DriverMemory.require("column '" + column + "' on the driver (n = " + n + ", d = " + d
            + ")", d, n);
      }
      boolean complete = scanned.stream().allMatch(b -> b.summary.count == 0 || b.rows != null);
      List<PartitionBlock> held = complete ? scanned : inProcess ? cachedHere(parts) : null;
      List<RowBlock> values = new ArrayList<>();
      for (PartitionBlock b : held != null ? held : parts.collect()) {
        values.addAll(b.rows());
      }
      return checkedScale(RowBlockMatrix.local(List.of(RowBlock.stack(0, d, values, sparse))),
          column);
    }
    long bytes = sparse ? stored * (Double.BYTES + Integer.BYTES) : (long) n * d * Double.BYTES;
    long storageMemory = storageMemory(parts.context());
    StorageLevel level = storageLevel(storageLevel, bytes, storageMemory);
    if (AUTO_STORAGE.equals(storageLevel) && !level.useMemory()) {
      LOG.info("{}: caching the blocks on disk only (DISK_ONLY): the input's {} MB exceed half "
          + "of the executors' {} MB of storage memory", execution.method(), megabytes(bytes),
          megabytes(storageMemory));
    }
    // The column statistics are the job that computes the persisted blocks.
    return checkedScale(new RowBlockMatrix(SparkPartitioned.persisted(
        blocksOf(parts, offsets, d, sparse), execution.storing(level), checkpoint), n, d,
        sparse), column);
  }

  /** The storage level name that lets {@link #storageLevel} choose. */
  public static final String AUTO_STORAGE = "auto";

  /**
   * The storage level of a fit's distributed blocks: the one {@code name}d, or for
   * {@value #AUTO_STORAGE} {@code MEMORY_AND_DISK} (deserialized: a task reads a cached block
   * without a copy) unless the input's {@code bytes} exceed half of the executors'
   * {@code storageMemory}, then {@code DISK_ONLY}. Such input spills anyway, and a task
   * deserializes the spilled blocks each time it reads them; kept in memory, every dense block
   * is one large array (477 MB for 625,000 rows of 100 features), deserialized or, once read
   * back from disk, serialized in one chunk, which the G1 collector places in a contiguous run
   * of regions and never moves. With several of them cached the free heap splits into pieces
   * smaller than the next block: NDFS fits of 10⁷ × 100 rows in a 12 GB heap failed so with
   * either level (docs/benchmarks.md, "Scaling"). On disk, the operating system's page cache
   * keeps what memory allows, and the heap holds only the blocks tasks are working on.
   */
  static StorageLevel storageLevel(String name, long bytes, long storageMemory) {
    if (!AUTO_STORAGE.equals(name)) {
      return StorageLevel.fromString(name);
    }
    return bytes > storageMemory / 2 ? StorageLevel.DISK_ONLY() : StorageLevel.MEMORY_AND_DISK();
  }

  /**
   * The memory the executors' block managers have for cached blocks, summed: in local mode the
   * driver's (it runs the tasks), on a cluster the executors' registered so far.
   */
  private static long storageMemory(SparkContext sc) {
    BlockManagerId driver = SparkEnv.get().blockManager().blockManagerId();
    long total = 0;
    for (SparkExecutorInfo executor : sc.statusTracker().getExecutorInfos()) {
      boolean isDriver = executor.host().equals(driver.host()) && executor.port() == driver.port();
      if (sc.isLocal() || !isDriver) {
        total += executor.totalOnHeapStorageMemory();
      }
    }
    return total;
  }

  /**
   * The scanned partitions as the scan job left them in this JVM's block manager (local mode,
   * where the executors are the driver: no serialisation, no copy), or null when one of them
   * is not there (not cached for lack of memory).
   */
  private static List<PartitionBlock> cachedHere(JavaRDD<PartitionBlock> parts) {
    BlockManager manager = SparkEnv.get().blockManager();
    List<PartitionBlock> out = new ArrayList<>();
    for (int p = 0; p < parts.getNumPartitions(); p++) {
      Option<BlockResult> cached = manager.getLocalValues(new RDDBlockId(parts.id(), p));
      if (cached.isEmpty()) {
        return null;
      }
      scala.collection.Iterator<Object> it = cached.get().data();
      out.add((PartitionBlock) it.next());
      while (it.hasNext()) {  // reading to the end releases the block's read lock
        it.next();
      }
    }
    return out;
  }

  private static String megabytes(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1e6);
  }

  /**
   * {@code x}, once its column statistics (computed here, once per fit, and kept for the
   * solver and the constant-feature check) show every feature on a scale the methods can
   * compute in: see {@link ColumnStatistics#scaleProblem}.
   */
  private static RowBlockMatrix checkedScale(RowBlockMatrix x, String column) {
    x.execution().describe("column statistics of '" + column + "'");
    String problem;
    try {
      problem = x.columnStatistics().scaleProblem(x.numRows(), x.numCols());
    } catch (RuntimeException e) {
      x.release();
      throw e;
    }
    if (problem != null) {
      x.release();
      throw new IllegalArgumentException("Column '" + column + "': " + problem
          + "; rescale the column first (e.g. with MaxAbsScaler or StandardScaler)");
    }
    return x;
  }

  /**
   * One block per run of consecutive partitions holding at least {@link #MIN_BLOCK_ROWS} rows
   * (a partition that holds as many stays a block of its own): every step over pairs of blocks
   * (the exact kNN graph, the n × n kernel) runs one task per pair, so 300 rows in 200
   * partitions would run 40,000 tasks of a few rows each.
   */
  private static JavaRDD<RowBlock> blocksOf(JavaRDD<PartitionBlock> parts, int[] offsets, int d,
      boolean sparse) {
    int[] block = blockOfPartition(offsets);
    int numBlocks = block.length == 0 ? 0 : block[block.length - 1] + 1;
    if (numBlocks == block.length) {
      return parts.mapPartitionsWithIndex((Integer p, Iterator<PartitionBlock> it) ->
          Collections.singletonList(RowBlock.stack(offsets[p], d, it.next().rows(), sparse))
              .iterator(),
          true);
    }
    return parts.mapPartitionsWithIndex((Integer p, Iterator<PartitionBlock> it) ->
            Collections.singletonList(new Tuple2<>(new Tuple2<>(block[p], p), it.next()))
                .iterator(), true)
        .mapToPair(t -> t)
        .repartitionAndSortWithinPartitions(new SparkPartitioned.TargetPartitioner(numBlocks),
            new SparkPartitioned.SourceOrder())
        .mapPartitions((Iterator<Tuple2<Tuple2<Integer, Integer>, PartitionBlock>> it) -> {
          List<RowBlock> values = new ArrayList<>();
          int first = -1;
          while (it.hasNext()) {
            Tuple2<Tuple2<Integer, Integer>, PartitionBlock> t = it.next();
            first = first < 0 ? t._1()._2() : first;
            values.addAll(t._2().rows());
          }
          return Collections.singletonList(RowBlock.stack(offsets[first], d, values, sparse))
              .iterator();
        }, true);
  }

  /** Smallest number of rows of a block made of several partitions (see {@link #blocksOf}). */
  static final int MIN_BLOCK_ROWS = 16;

  /**
   * The block of each partition: consecutive partitions share one until it holds
   * {@link #MIN_BLOCK_ROWS} rows; a short last run joins the block before it.
   */
  static int[] blockOfPartition(int[] offsets) {
    int partitions = offsets.length - 1;
    int[] block = new int[partitions];
    int current = 0;
    int start = 0;
    for (int p = 0; p < partitions; p++) {
      if (offsets[p] - start >= MIN_BLOCK_ROWS) {
        current++;
        start = offsets[p];
      }
      block[p] = current;
    }
    int lastStart = start;
    if (current > 0 && offsets[partitions] - lastStart < MIN_BLOCK_ROWS) {
      for (int p = partitions - 1; p >= 0 && block[p] == current; p--) {
        block[p] = current - 1;
      }
    }
    return block;
  }

  /** Validates the partition summaries; returns the offset of each partition, then n. */
  private static int[] check(List<PartitionBlock.Summary> summaries, String column) {
    int[] offsets = new int[summaries.size() + 1];
    long total = 0;
    int size = -1;
    long sizeRow = -1;
    for (int p = 0; p < summaries.size(); p++) {
      PartitionBlock.Summary s = summaries.get(p);
      if (s.problem != null) {
        throw new IllegalArgumentException("Row " + (total + s.problemRow) + " of column '"
            + column + "' " + s.problem);
      }
      if (s.count > 0) {
        if (size < 0) {
          size = s.size;
          sizeRow = total;
        } else if (s.size != size) {
          throw new IllegalArgumentException("Row " + total + " of column '" + column + "' has "
              + s.size + " features, but row " + sizeRow + " has " + size
              + ": all vectors must have the same size");
        }
      }
      total += s.count;
      if (total > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("More than " + (Integer.MAX_VALUE - 8)
            + " rows are not supported");
      }
      offsets[p + 1] = (int) total;
    }
    if (total == 0) {
      throw new IllegalArgumentException("The dataset is empty: column '" + column
          + "' has no rows to select features from");
    }
    if (size == 0) {
      throw new IllegalArgumentException("The vectors of column '" + column
          + "' have no features");
    }
    return offsets;
  }

  /**
   * One partition's vectors as a block at offset 0, sparse when some vector is and the method
   * allows it, else dense; or the first problem found.
   */
  static final class PartitionBlock implements Serializable {
    private static final long serialVersionUID = 2L;
    private final RowBlock rows;
    final Summary summary;

    private PartitionBlock(RowBlock rows, Summary summary) {
      this.rows = rows;
      this.summary = summary;
    }

    /** The block, as a list of none (no rows) or one. */
    List<RowBlock> rows() {
      return rows == null ? List.of() : List.of(rows);
    }

    /** This block as sent to the driver: values only when it stores at most {@code maxValues}. */
    PartitionBlock forDriver(long maxValues) {
      boolean small = rows != null && rows.storedValues() <= maxValues;
      return small || rows == null ? this : new PartitionBlock(null, summary);
    }

    /**
     * Reads one partition's vectors straight from Spark's internal rows (no Row conversion, and
     * no Spark vector: {@link StoredVector}); with {@code skipInvalid}, null and non-finite
     * vectors are dropped. Sparse vectors stay sparse only when {@code sparseAllowed} (the
     * method runs on sparse blocks) and the partition stores under {@link
     * #DENSE_PARTITION_DENSITY} of its values; otherwise they are densified here, once.
     */
    static PartitionBlock of(Iterator<InternalRow> rows, boolean skipInvalid,
        boolean sparseAllowed) {
      List<StoredVector> vectors = new ArrayList<>();
      int size = -1;
      int at = -1;
      int sparse = 0;
      long stored = 0;
      while (rows.hasNext()) {
        InternalRow r = rows.next();
        at++;
        if (r.isNullAt(0)) {
          if (skipInvalid) {
            continue;
          }
          return problem(at, "is null: every row needs a feature vector (or set handleInvalid "
              + "to skip)");
        }
        StoredVector v = StoredVector.of(r.getStruct(0, StoredVector.FIELDS));
        String bad = v.badIndex();
        if (bad != null) {
          return problem(at, bad);
        }
        bad = v.firstNonFinite();
        if (bad != null) {
          if (skipInvalid) {
            continue;
          }
          return problem(at, bad);
        }
        if (size < 0) {
          size = v.size;
        } else if (v.size != size) {
          return problem(at, "has " + v.size + " features, but the row before it has " + size
              + ": all vectors must have the same size");
        }
        vectors.add(v);
        sparse += v.isSparse() ? 1 : 0;
        stored += v.values.length;
      }
      if (vectors.isEmpty()) {
        return new PartitionBlock(null, new Summary(0, 0, 0, 0, -1, null));
      }
      boolean keepSparse = sparse > 0 && sparseAllowed
          && stored < DENSE_PARTITION_DENSITY * vectors.size() * size;
      return new PartitionBlock(keepSparse ? sparse(vectors, size) : dense(vectors, size),
          new Summary(vectors.size(), size, sparse, stored, -1, null));
    }

    /** Vectors as a d × count block, sparse ones densified. */
    private static RowBlock dense(List<StoredVector> vectors, int size) {
      DenseMatrix values = new DenseMatrix(size, vectors.size());
      double[] data = values.data();
      for (int i = 0; i < vectors.size(); i++) {
        StoredVector v = vectors.get(i);
        if (v.isSparse()) {
          for (int p = 0; p < v.indices.length; p++) {
            data[i * size + v.indices[p]] = v.values[p];
          }
        } else {
          System.arraycopy(v.values, 0, data, i * size, size);
        }
      }
      return new RowBlock(0, values);
    }

    /** Vectors as sparse rows: a sparse vector's stored values, a dense one's non-zeros. */
    private static RowBlock sparse(List<StoredVector> vectors, int size) {
      int[] rowPtr = new int[vectors.size() + 1];
      for (int i = 0; i < vectors.size(); i++) {
        StoredVector v = vectors.get(i);
        rowPtr[i + 1] = rowPtr[i] + (v.isSparse() ? v.values.length : nonZeros(v.values));
      }
      int[] cols = new int[rowPtr[vectors.size()]];
      double[] values = new double[cols.length];
      for (int i = 0; i < vectors.size(); i++) {
        StoredVector v = vectors.get(i);
        if (v.isSparse()) {
          System.arraycopy(v.indices, 0, cols, rowPtr[i], v.indices.length);
          System.arraycopy(v.values, 0, values, rowPtr[i], v.values.length);
        } else {
          for (int j = 0, p = rowPtr[i]; j < size; j++) {
            if (v.values[j] != 0) {
              cols[p] = j;
              values[p++] = v.values[j];
            }
          }
        }
      }
      return new RowBlock(0, SparseRowMatrix.fromCompressedRows(size, rowPtr, cols, values));
    }

    private static int nonZeros(double[] values) {
      int count = 0;
      for (double v : values) {
        count += v != 0 ? 1 : 0;
      }
      return count;
    }

    private static PartitionBlock problem(int row, String what) {
      return new PartitionBlock(null, new Summary(row, -1, 0, 0, row, what));
    }

    /**
     * A vector as {@link VectorUDT} stores it: type 0 (sparse) with size, indices and values,
     * or type 1 (dense) with values. Read from the struct directly: Spark's {@code
     * SparseVector} constructor checks its indices through a boxed closure, which cost a
     * quarter of a Laplacian Score fit on COIL20; {@link #badIndex} checks the same in a plain
     * loop.
     */
    private record StoredVector(int size, int[] indices, double[] values) {
      static final int FIELDS = new VectorUDT().sqlType().size();

      static StoredVector of(InternalRow struct) {
        double[] values = struct.getArray(3).toDoubleArray();
        return struct.getByte(0) == 0
            ? new StoredVector(struct.getInt(1), struct.getArray(2).toIntArray(), values)
            : new StoredVector(values.length, null, values);
      }

      boolean isSparse() {
        return indices != null;
      }

      /** The first index of a sparse vector out of range or not above the one before; or null. */
      String badIndex() {
        for (int p = 0; indices != null && p < indices.length; p++) {
          if (indices[p] < 0 || indices[p] >= size) {
            return "is a sparse vector whose index " + indices[p] + " is outside [0, " + size
                + ")";
          }
          if (p > 0 && indices[p] <= indices[p - 1]) {
            return "is a sparse vector whose index " + indices[p] + " follows " + indices[p - 1]
                + ": indices must increase";
          }
        }
        return null;
      }

      /** The first non-finite value with its feature, or null. */
      String firstNonFinite() {
        for (int p = 0; p < values.length; p++) {
          if (!Double.isFinite(values[p])) {
            return "has the non-finite value " + values[p] + " at feature "
                + (indices == null ? p : indices[p])
                + ": remove or impute such rows first (or set handleInvalid to skip)";
          }
        }
        return null;
      }
    }

    /**
     * What the driver needs of a partition: row count, vector size, how many of the vectors
     * were sparse, how many values they store (d for a dense one), first problem.
     */
    static final class Summary implements Serializable {
      private static final long serialVersionUID = 1L;
      final int count;
      final int size;
      final int sparse;
      final long stored;
      final int problemRow;
      final String problem;

      Summary(int count, int size, int sparse, long stored, int problemRow, String problem) {
        this.count = count;
        this.size = size;
        this.sparse = sparse;
        this.stored = stored;
        this.problemRow = problemRow;
        this.problem = problem;
      }
    }
  }
}
