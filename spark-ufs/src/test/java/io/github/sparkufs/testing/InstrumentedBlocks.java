package io.github.sparkufs.testing;

import io.github.sparkufs.linalg.Execution;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.SerializableBiFunction;
import io.github.sparkufs.linalg.SerializableBinaryOperator;
import io.github.sparkufs.linalg.SerializableFunction;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.spark.SparkPartitioned;
import java.util.List;

/**
 * Wraps the blocks of a matrix, and every block set derived from them, to watch what a solver
 * does with them: it counts the block operations (map, zip, collect, aggregate, cross merges),
 * can fail the n-th one, counts the shared values not yet released, and measures the lineage
 * (lines of {@code toDebugString}) of the RDDs that operations run on.
 */
public final class InstrumentedBlocks {

  /** The failure injected at the chosen operation. */
  public static final class InjectedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InjectedFailure(long operation) {
      super("injected failure at block operation " + operation);
    }
  }

  private final long failAt;
  private long operations;
  private int liveShared;
  private int deepestLineage;
  private Execution execution;

  /**
   * @param failAt the operation (from 1) that throws {@link InjectedFailure};
   *     {@link Long#MAX_VALUE} for none
   */
  public InstrumentedBlocks(long failAt) {
    this.failAt = failAt;
  }

  /** {@code x} over instrumented blocks. */
  public RowBlockMatrix wrap(RowBlockMatrix x) {
    execution = x.execution();
    return new RowBlockMatrix(new Blocks<>(x.blocks()), x.numRows(), x.numCols());
  }

  /** Block operations run so far. */
  public long operations() {
    return operations;
  }

  /** Shared values made and not released. */
  public int liveShared() {
    return liveShared;
  }

  /**
   * The longest lineage among the RDDs operations ran on since the last call, in lines of
   * {@code toDebugString} (0 on the driver backend), and starts the next count.
   */
  public int takeDeepestLineage() {
    int deepest = deepestLineage;
    deepestLineage = 0;
    return deepest;
  }

  private void tick(Partitioned<?> on) {
    operations++;
    if (operations == failAt) {
      throw new InjectedFailure(operations);
    }
    if (on instanceof SparkPartitioned<?> p) {
      deepestLineage = Math.max(deepestLineage,
          (int) p.rdd().toDebugString().lines().count());
    }
  }

  private <U> Partitioned<U> unwrap(Partitioned<U> p) {
    return p instanceof Blocks<U> b ? b.delegate : p;
  }

  private final class Blocks<T> implements Partitioned<T> {
    private final Partitioned<T> delegate;

    Blocks(Partitioned<T> delegate) {
      this.delegate = delegate;
    }

    @Override
    public int numPartitions() {
      return delegate.numPartitions();
    }

    @Override
    public Execution execution() {
      return new Execution() {
        @Override
        public <V> Shared<V> share(V value) {
          liveShared++;
          return new Counted<>(execution.share(value), InstrumentedBlocks.this);
        }

        @Override
        public void describe(String phase) {
          execution.describe(phase);
        }

        @Override
        public boolean isDistributed() {
          return execution.isDistributed();
        }
      };
    }

    @Override
    public <R> Partitioned<R> map(SerializableFunction<? super T, ? extends R> f) {
      tick(delegate);
      return new Blocks<>(delegate.map(f));
    }

    @Override
    public <U, R> Partitioned<R> zip(Partitioned<U> other,
        SerializableBiFunction<? super T, ? super U, ? extends R> f) {
      tick(delegate);
      return new Blocks<>(delegate.zip(unwrap(other), f));
    }

    @Override
    public <U, R> R zipAggregate(Partitioned<U> other,
        SerializableBiFunction<? super T, ? super U, ? extends R> f,
        SerializableBinaryOperator<R> merge) {
      tick(delegate);
      return delegate.zipAggregate(unwrap(other), f, merge);
    }

    @Override
    public <U, R> List<R> zipCollect(Partitioned<U> other,
        SerializableBiFunction<? super T, ? super U, ? extends R> f) {
      tick(delegate);
      return delegate.zipCollect(unwrap(other), f);
    }

    @Override
    public <R> List<R> collect(SerializableFunction<? super T, ? extends R> f) {
      tick(delegate);
      return delegate.collect(f);
    }

    @Override
    public <R> R aggregate(SerializableFunction<? super T, ? extends R> f,
        SerializableBinaryOperator<R> merge) {
      tick(delegate);
      return delegate.aggregate(f, merge);
    }

    @Override
    public <R> Partitioned<R> crossMerge(
        SerializableBiFunction<? super T, ? super T, ? extends R> pair,
        SerializableBinaryOperator<R> merge) {
      tick(delegate);
      return new Blocks<>(delegate.crossMerge(pair, merge));
    }

    @Override
    public <R> Partitioned<R> crossMergeOnce(
        SerializableBiFunction<? super T, ? super T, Pieces<R>> pair,
        SerializableBinaryOperator<R> merge) {
      tick(delegate);
      return new Blocks<>(delegate.crossMergeOnce(pair, merge));
    }

    @Override
    public void release() {
      delegate.release();
    }
  }

  /** A shared value that counts its first release (on the driver). */
  private static final class Counted<V> implements Shared<V> {
    private static final long serialVersionUID = 1L;
    private final Shared<V> delegate;
    private final transient InstrumentedBlocks owner;
    private transient boolean released;

    Counted(Shared<V> delegate, InstrumentedBlocks owner) {
      this.delegate = delegate;
      this.owner = owner;
    }

    @Override
    public V get() {
      return delegate.get();
    }

    @Override
    public void release() {
      if (!released) {
        released = true;
        owner.liveShared--;
      }
      delegate.release();
    }
  }
}
