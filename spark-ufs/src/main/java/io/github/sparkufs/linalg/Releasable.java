package io.github.sparkufs.linalg;

/**
 * Something a fit holds on the cluster (cached blocks, a broadcast value) until it is
 * released. Closing it releases it, so it can be held in try-with-resources or in a
 * {@link ResourceScope}.
 */
public interface Releasable extends AutoCloseable {

  /** Frees what this holds; releasing twice does nothing more. */
  void release();

  /** The same as {@link #release()}. */
  @Override
  default void close() {
    release();
  }
}
