package io.github.sparkufs.linalg;

import java.io.Serializable;
import java.util.List;

/**
 * An ordered sequence of blocks, one per partition, on which every algorithm of this library
 * is written once. Two backends implement it: {@link LocalPartitioned} keeps the blocks on the
 * driver and runs each function in the calling thread (no Spark job at all), and the Spark
 * backend keeps one block per partition of a cached RDD and runs each call as one job.
 *
 * <p>Functions must be pure: a backend may run them more than once (a lost executor) and in
 * any order across blocks. Results that come back to the driver are in block order, and
 * merges take their pieces in block order, so that the same blocks give the same bits on
 * every run (floating-point sums are not associative).
 */
public interface Partitioned<T> extends Releasable {

  int numPartitions();

  /** Where and how jobs run; also makes values visible to every block. */
  Execution execution();

  /**
   * Applies {@code f} to every block, now; the result is kept (cached) until it is released
   * (or closed), so shared values {@code f} read may be released afterwards.
   */
  <R> Partitioned<R> map(SerializableFunction<? super T, ? extends R> f);

  /** Combines aligned blocks of this and {@code other} (same partitioning). Kept like map. */
  <U, R> Partitioned<R> zip(Partitioned<U> other,
      SerializableBiFunction<? super T, ? super U, ? extends R> f);

  /** Applies {@code f} to every block and returns the results to the driver, in block order. */
  <R> List<R> collect(SerializableFunction<? super T, ? extends R> f);

  /**
   * Applies {@code f} to every block and merges the results pairwise (a tree aggregate),
   * each merge's left operand coming before its right one in block order.
   */
  <R> R aggregate(SerializableFunction<? super T, ? extends R> f, SerializableBinaryOperator<R> merge);

  /**
   * Applies {@code f} to aligned blocks of this and {@code other} (same partitioning) and merges
   * the results as {@link #aggregate} does: one pass that keeps nothing, where {@link #zip}
   * would cache a third set of blocks (a copy of both, once they spill to disk).
   */
  <U, R> R zipAggregate(Partitioned<U> other,
      SerializableBiFunction<? super T, ? super U, ? extends R> f,
      SerializableBinaryOperator<R> merge);

  /**
   * Applies {@code f} to aligned blocks of this and {@code other} (same partitioning) and
   * returns the results to the driver, in block order; like {@link #zipAggregate} it keeps
   * nothing.
   */
  <U, R> List<R> zipCollect(Partitioned<U> other,
      SerializableBiFunction<? super T, ? super U, ? extends R> f);

  /**
   * For every block {@code a}, merges {@code pair(a, b)} over all blocks {@code b} (including
   * {@code a} itself), in the order of b. The all-pairs step of the exact kNN graph and of
   * neighbourhood statistics; it reads every pair of blocks, so its cost grows with the
   * square of {@link #numPartitions()}.
   */
  <R> Partitioned<R> crossMerge(SerializableBiFunction<? super T, ? super T, ? extends R> pair,
      SerializableBinaryOperator<R> merge);

  /**
   * Like {@link #crossMerge} for a pair function that serves both blocks at once: {@code
   * pair(a, b)} is called once per unordered pair of blocks, a at or before b in block order,
   * and returns a piece for a and a piece for b (for {@code pair(a, a)} the second is
   * ignored). For every block the pieces it gets are merged, in the order of the other block.
   * A symmetric all-pairs step reads each pair of blocks once instead of twice.
   */
  <R> Partitioned<R> crossMergeOnce(
      SerializableBiFunction<? super T, ? super T, Pieces<R>> pair,
      SerializableBinaryOperator<R> merge);

  /** What {@link #crossMergeOnce}'s pair function returns: a piece for each of its blocks. */
  record Pieces<R>(R first, R second) implements Serializable {}

  /** Frees the cached blocks. */
  @Override
  void release();
}
