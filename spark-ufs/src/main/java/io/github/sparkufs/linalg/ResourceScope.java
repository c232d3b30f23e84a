package io.github.sparkufs.linalg;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Owns what a fit, or one step of it, keeps on the cluster: closing the scope releases
 * everything it still holds, last kept first, also when the work in it throws. A value that
 * an iteration replaces is released at once by {@link #replace}.
 *
 * <pre>{@code
 * try (ResourceScope scope = new ResourceScope()) {
 *   Partitioned<Block> blocks = scope.keep(x.blocks().map(Block::of));
 *   ...
 * }
 * }</pre>
 *
 * Not thread-safe: a scope belongs to the thread that runs the fit.
 */
public final class ResourceScope implements AutoCloseable {

  private final Deque<Releasable> held = new ArrayDeque<>();

  /** Holds {@code resource} until the scope closes; returns it. */
  public <R extends Releasable> R keep(R resource) {
    held.push(resource);
    return resource;
  }

  /**
   * Releases {@code previous} (when not null) and holds {@code next} instead: the value of
   * the previous iteration, dropped as soon as the new one exists.
   */
  public <R extends Releasable> R replace(R previous, R next) {
    if (previous != null && held.removeFirstOccurrence(previous)) {
      previous.release();
    }
    return keep(next);
  }

  /** How many resources the scope still holds. */
  public int size() {
    return held.size();
  }

  /**
   * Releases everything still held, last kept first. If a release throws, the others are
   * still released, and the first failure is thrown with the later ones suppressed.
   */
  @Override
  public void close() {
    RuntimeException failure = null;
    while (!held.isEmpty()) {
      try {
        held.pop().release();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
