package io.github.sparkufs.spark;

import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.SerializableBiFunction;
import io.github.sparkufs.linalg.SerializableBinaryOperator;
import io.github.sparkufs.linalg.SerializableFunction;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The distributed backend of {@link Partitioned}: an RDD holding exactly one block per
 * partition, in partition order. Derived blocks are computed at once and persisted (memory,
 * spilling to disk) until {@link #release()}, so that the shared values they were built from
 * can be released right after.
 */
public final class SparkPartitioned<T> implements Partitioned<T> {

  /** Tree depth of aggregates: two levels keep the driver's fan-in small. */
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
    if (!(other instanceof SparkPartitioned)) {
      throw new IllegalArgumentException("cannot zip RDD blocks with " + other.getClass().getSimpleName());
    }
    JavaRDD<U> o = ((SparkPartitioned<U>) other).rdd;
    JavaRDD<R> out = rdd.zipPartitions(o, (Iterator<T> a, Iterator<U> b) -> {
      R r = f.apply(a.next(), b.next());
      return Collections.singletonList(r).iterator();
    });
    return kept(out);
  }

  @Override
  public <R> List<R> collect(SerializableFunction<? super T, ? extends R> f) {
    JavaRDD<R> out = rdd.map(f::apply);
    return out.collect();
  }

  @Override
  public <R> R aggregate(SerializableFunction<? super T, ? extends R> f,
      SerializableBinaryOperator<R> merge) {
    JavaRDD<R> out = rdd.map(f::apply);
    return out.treeReduce(merge::apply, TREE_DEPTH);
  }

  @Override
  public <R> Partitioned<R> crossMerge(SerializableBiFunction<? super T, ? super T, ? extends R> pair,
      SerializableBinaryOperator<R> merge) {
    int n = numPartitions();
    JavaPairRDD<Integer, T> indexed = indexed();
    JavaPairRDD<Integer, R> pieces = indexed.cartesian(indexed)
        .mapToPair(ab -> new Tuple2<>(ab._1()._1(), (R) pair.apply(ab._1()._2(), ab._2()._2())));
    return kept(pieces.reduceByKey(new IdentityPartitioner(n), merge::apply).values());
  }

  @Override
  public <R> Partitioned<R> crossMergeOnce(
      SerializableBiFunction<? super T, ? super T, Pieces<R>> pair,
      SerializableBinaryOperator<R> merge) {
    int n = numPartitions();
    JavaPairRDD<Integer, T> indexed = indexed();
    JavaPairRDD<Integer, R> pieces = indexed.cartesian(indexed)
        .filter(ab -> ab._1()._1() <= ab._2()._1())
        .flatMapToPair(ab -> {
          int i = ab._1()._1();
          int j = ab._2()._1();
          Pieces<R> p = pair.apply(ab._1()._2(), ab._2()._2());
          return (i == j ? List.of(new Tuple2<>(i, p.first()))
              : List.of(new Tuple2<>(i, p.first()), new Tuple2<>(j, p.second()))).iterator();
        });
    return kept(pieces.reduceByKey(new IdentityPartitioner(n), merge::apply).values());
  }

  /** The blocks keyed by their partition index. */
  private JavaPairRDD<Integer, T> indexed() {
    return rdd.mapPartitionsWithIndex(
        (Integer p, Iterator<T> it) -> Collections.singletonList(new Tuple2<>(p, it.next())).iterator(),
        true).mapToPair(t -> t);
  }

  /** Persists and computes {@code out} now. */
  private <R> SparkPartitioned<R> kept(JavaRDD<R> out) {
    out.persist(StorageLevel.MEMORY_AND_DISK()).count();
    return new SparkPartitioned<>(out, execution);
  }

  @Override
  public void release() {
    rdd.unpersist(false);
  }

  /** Sends key p to partition p, so merged block p lands where block p lives. */
  private static final class IdentityPartitioner extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final int n;

    IdentityPartitioner(int n) {
      this.n = n;
    }

    @Override
    public int numPartitions() {
      return n;
    }

    @Override
    public int getPartition(Object key) {
      return (Integer) key;
    }
  }
}
