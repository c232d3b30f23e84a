package io.github.sparkufs.linalg;

import java.io.Serializable;

/**
 * A read-only value every block's function can read: the value itself on the driver, a
 * broadcast variable on a cluster. {@link #release()} (or {@link #close()}) frees the
 * executors' copies once no running job needs them.
 */
public interface Shared<V> extends Serializable, Releasable {

  V get();

  /** Frees the executors' copies. */
  @Override
  void release();
}
