package io.github.sparkufs.spark;

import io.github.sparkufs.linalg.Execution;
import io.github.sparkufs.linalg.Shared;
import java.io.Serial;
import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Spark backend's {@link Execution}: values travel as broadcast variables. A fit's
 * execution ({@link #startFit}) runs its jobs in a job group of their own, so that
 * {@code SparkContext.cancelJobGroupAndFutureJobs} stops the fit (a plain
 * {@code cancelJobGroup} cancels only the job running at that moment); closing it gives the
 * calling thread back the job group and description it had.
 */
public final class SparkExecution implements Execution, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SparkExecution.class);

  /** The thread-local properties {@code setJobGroup} and {@code setJobDescription} set. */
  private static final String[] JOB_PROPERTIES = {
      "spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel"};

  /** How many fits each estimator uid has started in this JVM. */
  private static final ConcurrentMap<String, AtomicInteger> FITS = new ConcurrentHashMap<>();

  private final JavaSparkContext sc;
  private final String method;
  private final String jobGroup;
  private final StorageLevel storageLevel;
  private final Map<String, String> callerProperties;

  /**
   * An execution that labels its jobs but leaves the thread's job group alone.
   *
   * @param method prefixes every job description, so the UI shows which selector runs
   */
  public SparkExecution(JavaSparkContext sc, String method) {
    this(sc, method, null, StorageLevel.MEMORY_AND_DISK(), new LinkedHashMap<>());
  }

  private SparkExecution(JavaSparkContext sc, String method, String jobGroup,
      StorageLevel storageLevel, Map<String, String> callerProperties) {
    this.sc = sc;
    this.method = method;
    this.jobGroup = jobGroup;
    this.storageLevel = storageLevel;
    this.callerProperties = callerProperties;
  }

  /**
   * Starts the fit of the estimator {@code uid}: the calling thread's jobs run, until
   * {@link #close()}, in the job group {@link #jobGroupId jobGroupId(uid, k)} for its k-th fit
   * in this JVM (interrupting tasks on cancel), which is logged at INFO.
   */
  public static SparkExecution startFit(JavaSparkContext sc, String method, String uid) {
    String group = jobGroupId(uid, FITS.computeIfAbsent(uid, u -> new AtomicInteger())
        .incrementAndGet());
    SparkExecution execution = new SparkExecution(sc, method, group,
        StorageLevel.MEMORY_AND_DISK(), new LinkedHashMap<>());
    for (String key : JOB_PROPERTIES) {
      execution.callerProperties.put(key, sc.getLocalProperty(key));
    }
    sc.setJobGroup(group, method + " fit", true);
    LOG.info("{}: fit runs in Spark job group {} (SparkContext.cancelJobGroupAndFutureJobs stops it)",
        method, group);
    return execution;
  }

  /** {@code sparkufs-<uid>-<k>}: the job group of the k-th fit (from 1) of the estimator uid. */
  public static String jobGroupId(String uid, int fit) {
    return "sparkufs-" + uid + "-" + fit;
  }

  /** This fit's job group; null for an execution not started by {@link #startFit}. */
  public String jobGroup() {
    return jobGroup;
  }

  /**
   * The storage level of the blocks this execution keeps (the input's and every block derived
   * from them, {@link SparkPartitioned}); {@code MEMORY_AND_DISK} unless {@link #storing} chose
   * another.
   */
  public StorageLevel storageLevel() {
    return storageLevel;
  }

  /**
   * This execution keeping its blocks at {@code level}: the same fit, job group and
   * description; close this execution, not the copy.
   */
  public SparkExecution storing(StorageLevel level) {
    return new SparkExecution(sc, method, jobGroup, level, callerProperties);
  }

  /** The selector whose jobs run here. */
  public String method() {
    return method;
  }

  public JavaSparkContext sparkContext() {
    return sc;
  }

  /**
   * Runs {@code fit}; when its job group was cancelled, throws a {@link CancellationException}
   * naming the method and the group (the Spark failure as its cause).
   */
  public <R> R run(Supplier<R> fit) {
    try {
      return fit.get();
    } catch (Exception e) {
      if (jobGroup != null && cancelledHere(e)) {
        CancellationException cancelled = new CancellationException(method
            + " fit cancelled: its Spark job group " + jobGroup + " was cancelled");
        cancelled.initCause(e);
        throw cancelled;
      }
      throw e;
    }
  }

  /**
   * True when {@code e} or a cause is Spark's failure of a job of this fit's group for its
   * cancellation (a running job, or one submitted after the group was cancelled).
   */
  private boolean cancelledHere(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SparkException && t.getMessage() != null
          && t.getMessage().contains("cancel") && t.getMessage().contains(jobGroup)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A broadcast variable; with a local master, whose tasks run in this JVM, the value itself
   * ({@link InProcessShared}).
   */
  @Override
  public <V> Shared<V> share(V value) {
    return sc.isLocal() ? new InProcessShared<>(value) : new BroadcastShared<>(sc.broadcast(value));
  }

  @Override
  public void describe(String phase) {
    sc.setJobDescription(method + ": " + phase);
  }

  @Override
  public boolean isDistributed() {
    return true;
  }

  /** Gives the calling thread back the job group and description it had before the fit. */
  @Override
  public void close() {
    callerProperties.forEach(sc::setLocalProperty);
  }

  /** A broadcast variable as a {@link Shared} value. */
  private static final class BroadcastShared<V> implements Shared<V> {
    private static final long serialVersionUID = 1L;
    private final Broadcast<V> broadcast;

    BroadcastShared(Broadcast<V> broadcast) {
      this.broadcast = broadcast;
    }

    @Override
    public V get() {
      return broadcast.value();
    }

    /**
     * Drops the executors' copies. The driver keeps the value (Spark's context cleaner frees it
     * once unreachable), because cached blocks derived from it still name it in their lineage.
     */
    @Override
    public void release() {
      broadcast.unpersist(false);
    }
  }

  /**
   * A value shared with tasks that run in this JVM (a local master: the executors are threads
   * of the driver) without a broadcast, which serialises and compresses the value into pieces
   * even there: 2.6–3.5 s for 720 MB, an eigensolver block of 9 vectors at 10⁷ samples, and a
   * serialised copy in the heap besides the value. The tasks' copies of this handle resolve, as
   * they are deserialised, to the driver's own, so every task reads the value itself. As the
   * driver's copy of a broadcast, the value lives while the handle is reachable: the lineage of a
   * block derived from it keeps it, and a released handle still serves the blocks recomputed
   * from that lineage.
   */
  private static final class InProcessShared<V> implements Shared<V> {
    @Serial
    private static final long serialVersionUID = 1L;
    /** The live handles of this JVM by id; an entry goes when its handle is collected. */
    private static final ConcurrentMap<Long, WeakReference<InProcessShared<?>>> LIVE =
        new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong();
    private static final Cleaner CLEANER = Cleaner.create();

    private final long id;
    private final transient V value;

    InProcessShared(V value) {
      this.id = IDS.incrementAndGet();
      this.value = value;
      LIVE.put(id, new WeakReference<>(this));
      long key = id;
      CLEANER.register(this, () -> LIVE.remove(key));
    }

    @Override
    public V get() {
      return value;
    }

    /** Nothing to free: the tasks read the driver's value, which lives as long as this handle. */
    @Override
    public void release() {}

    /** The driver's handle, in place of the deserialised copy a task received. */
    @Serial
    private Object readResolve() {
      WeakReference<InProcessShared<?>> handle = LIVE.get(id);
      InProcessShared<?> live = handle == null ? null : handle.get();
      if (live == null) {
        throw new IllegalStateException("shared value " + id + " is no longer held by the "
            + "driver of this JVM");
      }
      return live;
    }
  }
}
