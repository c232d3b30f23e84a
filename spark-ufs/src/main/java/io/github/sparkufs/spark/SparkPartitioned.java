package io.github.sparkufs.spark;

import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.SerializableBiFunction;
import io.github.sparkufs.linalg.SerializableBinaryOperator;
import io.github.sparkufs.linalg.SerializableFunction;
import java.io.IOException;
import java.io.Serializable;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * The distributed backend of {@link Partitioned}: an RDD holding exactly one block per
 * partition, in partition order. Derived blocks are computed at once and persisted (at the
 * execution's storage level: memory spilling to disk unless chosen otherwise) until released,
 * so that the shared values they were built from can be released right after.
 *
 * <p>Every merge runs in block order, as {@link io.github.sparkufs.linalg.LocalPartitioned}'s
 * do, never in the order tasks finish or shuffle blocks arrive (Spark's {@code treeReduce}
 * and {@code reduceByKey} merge in that order): floating-point sums are not associative, so
 * that order would change the last bits of a result from one run to the next, and an
 * iterative solver can carry such a difference to a different ranking. The same data, blocks
 * and BLAS give the same bits on every run.
 */
public final class SparkPartitioned<T> implements Partitioned<T> {

  private static final Logger LOG = LoggerFactory.getLogger(SparkPartitioned.class);

  /**
   * Tree depth of aggregates, as Spark's {@code treeReduce}: two levels keep the driver's
   * fan-in small.
   */
  private static final int TREE_DEPTH = 2;

  private final JavaRDD<T> rdd;
  private final SparkExecution execution;

  /** Wraps an RDD that holds exactly one element per partition. */
  public SparkPartitioned(JavaRDD<T> rdd, SparkExecution execution) {
    this.rdd = rdd;
    this.execution = execution;
  }

  /** The underlying RDD (one block per partition). */
  public JavaRDD<T> rdd() {
    return rdd;
  }

  @Override
  public int numPartitions() {
    return rdd.getNumPartitions();
  }

  @Override
  public SparkExecution execution() {
    return execution;
  }

  @Override
  public <R> Partitioned<R> map(SerializableFunction<? super T, ? extends R> f) {
    return kept(rdd.map(f::apply));
  }

  @Override
  public <U, R> Partitioned<R> zip(Partitioned<U> other,
      SerializableBiFunction<? super T, ? super U, ? extends R> f) {
    return kept(zipped(other, f));
  }

  @Override
  public <U, R> R zipAggregate(Partitioned<U> other,
      SerializableBiFunction<? super T, ? super U, ? extends R> f,
      SerializableBinaryOperator<R> merge) {
    return treeMerge(zipped(other, f), merge);
  }

  @Override
  public <U, R> List<R> zipCollect(Partitioned<U> other,
      SerializableBiFunction<? super T, ? super U, ? extends R> f) {
    return this.<U, R>zipped(other, f).collect();
  }

  /** {@code f} of the aligned blocks of this and {@code other}, not yet computed. */
  private <U, R> JavaRDD<R> zipped(Partitioned<U> other,
      SerializableBiFunction<? super T, ? super U, ? extends R> f) {
    if (!(other instanceof SparkPartitioned)) {
      throw new IllegalArgumentException("cannot zip RDD blocks with " + other.getClass().getSimpleName());
    }
    JavaRDD<U> o = ((SparkPartitioned<U>) other).rdd;
    return rdd.zipPartitions(o, (Iterator<T> a, Iterator<U> b) -> {
      R r = f.apply(a.next(), b.next());
      return Collections.singletonList(r).iterator();
    });
  }

  @Override
  public <R> List<R> collect(SerializableFunction<? super T, ? extends R> f) {
    JavaRDD<R> out = rdd.map(f::apply);
    return out.collect();
  }

  @Override
  public <R> R aggregate(SerializableFunction<? super T, ? extends R> f,
      SerializableBinaryOperator<R> merge) {
    return treeMerge(rdd.map(f::apply), merge);
  }

  /**
   * Merges {@code level}, one value per block, like Spark's {@code treeReduce} (the same
   * levels), but each merge takes its pieces in block order: executors merge runs of
   * consecutive blocks while more than {@code scale + ⌈count / scale⌉} pieces are left, and
   * the driver merges the rest.
   */
  private <R> R treeMerge(JavaRDD<R> level, SerializableBinaryOperator<R> merge) {
    int count = numPartitions();
    int scale = Math.max((int) Math.ceil(Math.pow(count, 1.0 / TREE_DEPTH)), 2);
    while (count > scale + (count + scale - 1) / scale) {
      count = (count + scale - 1) / scale;
      int runs = scale;
      level = mergeInOrder(level.mapPartitionsWithIndex((Integer p, Iterator<R> it) ->
          Collections.singletonList(new Tuple2<>(new Tuple2<>(p / runs, p), it.next()))
              .iterator(), true).mapToPair(t -> t), count, merge);
    }
    R acc = null;
    for (R r : level.collect()) {
      acc = acc == null ? r : merge.apply(acc, r);
    }
    return acc;
  }

  @Override
  public <R> Partitioned<R> crossMerge(SerializableBiFunction<? super T, ? super T, ? extends R> pair,
      SerializableBinaryOperator<R> merge) {
    int n = numPartitions();
    JavaPairRDD<Integer, T> indexed = indexed();
    JavaPairRDD<Tuple2<Integer, Integer>, R> pieces = pairs(indexed)
        .mapToPair(ab -> new Tuple2<>(new Tuple2<>(ab._1()._1(), ab._2()._1()),
            (R) pair.apply(ab._1()._2(), ab._2()._2())));
    return kept(mergeInOrder(pieces, n, merge));
  }

  @Override
  public <R> Partitioned<R> crossMergeOnce(
      SerializableBiFunction<? super T, ? super T, Pieces<R>> pair,
      SerializableBinaryOperator<R> merge) {
    int n = numPartitions();
    JavaPairRDD<Integer, T> indexed = indexed();
    JavaPairRDD<Tuple2<Integer, Integer>, R> pieces = pairs(indexed)
        .filter(ab -> ab._1()._1() <= ab._2()._1())
        .flatMapToPair(ab -> {
          int i = ab._1()._1();
          int j = ab._2()._1();
          Pieces<R> p = pair.apply(ab._1()._2(), ab._2()._2());
          return (i == j ? List.of(new Tuple2<>(new Tuple2<>(i, j), p.first()))
              : List.of(new Tuple2<>(new Tuple2<>(i, j), p.first()),
                  new Tuple2<>(new Tuple2<>(j, i), p.second()))).iterator();
        });
    return kept(mergeInOrder(pieces, n, merge));
  }

  /**
   * Every ordered pair of blocks, computed in as many tasks as there are blocks (or twice the
   * cores, when more): one task per pair would run b² tasks, most of them far shorter than
   * the cost of scheduling them when the blocks are small.
   */
  private JavaPairRDD<Tuple2<Integer, T>, Tuple2<Integer, T>> pairs(
      JavaPairRDD<Integer, T> indexed) {
    long blocks = numPartitions();
    long tasks = Math.min(blocks * blocks,
        Math.max(blocks, 2L * rdd.context().defaultParallelism()));
    return indexed.cartesian(indexed).coalesce((int) tasks);
  }

  /** The blocks keyed by their partition index. */
  private JavaPairRDD<Integer, T> indexed() {
    return rdd.mapPartitionsWithIndex(
        (Integer p, Iterator<T> it) -> Collections.singletonList(new Tuple2<>(p, it.next())).iterator(),
        true).mapToPair(t -> t);
  }

  /**
   * Merges the pieces keyed {@code (target, source)} into one value per target partition,
   * target t in partition t, taking each target's pieces in source order.
   */
  private static <R> JavaRDD<R> mergeInOrder(JavaPairRDD<Tuple2<Integer, Integer>, R> pieces,
      int targets, SerializableBinaryOperator<R> merge) {
    return pieces.repartitionAndSortWithinPartitions(new TargetPartitioner(targets),
        new SourceOrder()).mapPartitions((Iterator<Tuple2<Tuple2<Integer, Integer>, R>> it) -> {
          R acc = it.next()._2();
          while (it.hasNext()) {
            acc = merge.apply(acc, it.next()._2());
          }
          return Collections.singletonList(acc).iterator();
        }, true);
  }

  /** Persists and computes {@code out} now. */
  private <R> SparkPartitioned<R> kept(JavaRDD<R> out) {
    return computed(out, execution, false);
  }

  /**
   * Persists {@code rdd} at the execution's {@link SparkExecution#storageLevel}, marks it for a
   * checkpoint when {@code checkpoint} is set and the context has a checkpoint directory, and
   * computes it now.
   * If the computation fails (or its job is cancelled), nothing stays persisted.
   */
  static <T> SparkPartitioned<T> computed(JavaRDD<T> rdd, SparkExecution execution,
      boolean checkpoint) {
    SparkPartitioned<T> kept = persisted(rdd, execution, checkpoint);
    try {
      rdd.count();
    } catch (Exception e) {
      kept.release();
      throw e;
    }
    return kept;
  }

  /**
   * Like {@link #computed}, but computed by the first job that reads it (a reduction the caller
   * needs anyway, instead of a count); the caller releases it if that job fails.
   */
  static <T> SparkPartitioned<T> persisted(JavaRDD<T> rdd, SparkExecution execution,
      boolean checkpoint) {
    rdd.persist(execution.storageLevel());
    if (checkpoint && execution.sparkContext().getCheckpointDir().isPresent()) {
      rdd.checkpoint();
    }
    return new SparkPartitioned<>(rdd, execution);
  }

  /**
   * Frees the cached blocks and deletes their checkpoint files, if they were checkpointed, as
   * Spark ML's periodic checkpointers delete theirs once a fit is done: Spark itself removes a
   * checkpoint only when its RDD is garbage-collected while the context runs, so every
   * distributed fit would otherwise leave a copy of its input in the checkpoint directory
   * (7.6 GB for 10⁷ rows of 100 features).
   */
  @Override
  public void release() {
    rdd.unpersist(false);
    Optional<String> file = rdd.getCheckpointFile();
    if (file.isPresent()) {
      Path path = new Path(file.get());
      try {
        path.getFileSystem(rdd.context().hadoopConfiguration()).delete(path, true);
      } catch (IOException e) {
        LOG.warn("could not delete the checkpoint {} of released blocks: {}", path, e.toString());
      }
    }
  }

  /** Sends key (t, s) to partition t, so merged block t lands where block t lives. */
  static final class TargetPartitioner extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final int n;

    TargetPartitioner(int n) {
      this.n = n;
    }

    @Override
    public int numPartitions() {
      return n;
    }

    @Override
    public int getPartition(Object key) {
      return (Integer) ((Tuple2<?, ?>) key)._1();
    }
  }

  /** Orders keys (t, s) by s within a target partition. */
  static final class SourceOrder
      implements Comparator<Tuple2<Integer, Integer>>, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(Tuple2<Integer, Integer> a, Tuple2<Integer, Integer> b) {
      int byTarget = Integer.compare(a._1(), b._1());
      return byTarget != 0 ? byTarget : Integer.compare(a._2(), b._2());
    }
  }
}
