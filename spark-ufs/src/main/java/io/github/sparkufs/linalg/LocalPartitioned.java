package io.github.sparkufs.linalg;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The driver-only backend of {@link Partitioned}: blocks in a list, functions run in the
 * calling thread, no Spark job. Several blocks are allowed so that tests can check that results
 * do not depend on how rows are split.
 */
public final class LocalPartitioned<T> implements Partitioned<T> {

  /** The driver backend's {@link Execution}. */
  public static final Execution DRIVER = new Execution() {
    @Override
    public <V> Shared<V> share(V value) {
      return new Held<>(value);
    }

    @Override
    public void describe(String phase) {}

    @Override
    public boolean isDistributed() {
      return false;
    }
  };

  private final List<T> blocks;

  public LocalPartitioned(List<T> blocks) {
    if (blocks.isEmpty()) {
      throw new IllegalArgumentException("at least one block is needed");
    }
    this.blocks = Collections.unmodifiableList(new ArrayList<>(blocks));
  }

  /** The blocks themselves. */
  public List<T> blocks() {
    return blocks;
  }

  @Override
  public int numPartitions() {
    return blocks.size();
  }

  @Override
  public Execution execution() {
    return DRIVER;
  }

  @Override
  public <R> Partitioned<R> map(SerializableFunction<? super T, ? extends R> f) {
    return new LocalPartitioned<>(collect(f));
  }

  @Override
  public <U, R> Partitioned<R> zip(Partitioned<U> other,
      SerializableBiFunction<? super T, ? super U, ? extends R> f) {
    List<U> others = aligned(other);
    List<R> out = new ArrayList<>(blocks.size());
    for (int i = 0; i < blocks.size(); i++) {
      out.add(f.apply(blocks.get(i), others.get(i)));
    }
    return new LocalPartitioned<>(out);
  }

  @Override
  public <U, R> R zipAggregate(Partitioned<U> other,
      SerializableBiFunction<? super T, ? super U, ? extends R> f,
      SerializableBinaryOperator<R> merge) {
    List<U> others = aligned(other);
    R acc = null;
    for (int i = 0; i < blocks.size(); i++) {
      R r = f.apply(blocks.get(i), others.get(i));
      acc = acc == null ? r : merge.apply(acc, r);
    }
    return acc;
  }

  @Override
  public <U, R> List<R> zipCollect(Partitioned<U> other,
      SerializableBiFunction<? super T, ? super U, ? extends R> f) {
    return local(this.<U, R>zip(other, f)).blocks;
  }

  /** The blocks of {@code other}, as many as this has. */
  private <U> List<U> aligned(Partitioned<U> other) {
    List<U> others = local(other).blocks;
    if (others.size() != blocks.size()) {
      throw new IllegalArgumentException("cannot zip " + blocks.size() + " blocks with "
          + others.size());
    }
    return others;
  }

  @Override
  public <R> List<R> collect(SerializableFunction<? super T, ? extends R> f) {
    List<R> out = new ArrayList<>(blocks.size());
    for (T b : blocks) {
      out.add(f.apply(b));
    }
    return out;
  }

  @Override
  public <R> R aggregate(SerializableFunction<? super T, ? extends R> f,
      SerializableBinaryOperator<R> merge) {
    R acc = null;
    for (T b : blocks) {
      R r = f.apply(b);
      acc = acc == null ? r : merge.apply(acc, r);
    }
    return acc;
  }

  @Override
  public <R> Partitioned<R> crossMerge(SerializableBiFunction<? super T, ? super T, ? extends R> pair,
      SerializableBinaryOperator<R> merge) {
    List<R> out = new ArrayList<>(blocks.size());
    for (T a : blocks) {
      R acc = null;
      for (T b : blocks) {
        R r = pair.apply(a, b);
        acc = acc == null ? r : merge.apply(acc, r);
      }
      out.add(acc);
    }
    return new LocalPartitioned<>(out);
  }

  @Override
  public <R> Partitioned<R> crossMergeOnce(
      SerializableBiFunction<? super T, ? super T, Pieces<R>> pair,
      SerializableBinaryOperator<R> merge) {
    List<R> out = new ArrayList<>(Collections.nCopies(blocks.size(), null));
    for (int i = 0; i < blocks.size(); i++) {
      for (int j = i; j < blocks.size(); j++) {
        Pieces<R> p = pair.apply(blocks.get(i), blocks.get(j));
        out.set(i, out.get(i) == null ? p.first() : merge.apply(out.get(i), p.first()));
        if (j > i) {
          out.set(j, out.get(j) == null ? p.second() : merge.apply(out.get(j), p.second()));
        }
      }
    }
    return new LocalPartitioned<>(out);
  }

  @Override
  public void release() {}

  private static <U> LocalPartitioned<U> local(Partitioned<U> other) {
    if (!(other instanceof LocalPartitioned)) {
      throw new IllegalArgumentException("cannot zip driver blocks with " + other.getClass().getSimpleName());
    }
    LocalPartitioned<U> o = (LocalPartitioned<U>) other;
    return o;
  }

  /** A value held on the driver. */
  private static final class Held<V> implements Shared<V> {
    private static final long serialVersionUID = 1L;
    private final transient V value;

    Held(V value) {
      this.value = value;
    }

    @Override
    public V get() {
      return value;
    }

    @Override
    public void release() {}
  }
}
