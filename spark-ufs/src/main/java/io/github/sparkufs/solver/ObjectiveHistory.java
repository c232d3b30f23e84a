package io.github.sparkufs.solver;

import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records an iterative method's objective, logs one line per iteration (iteration, objective,
 * relative change, seconds) and says when the relative change has fallen below the tolerance.
 */
public final class ObjectiveHistory {

  private static final Logger LOG = LoggerFactory.getLogger(ObjectiveHistory.class);

  private final String method;
  private final double tol;
  private double[] values = new double[16];
  private int size;
  private boolean converged;
  private long lastNanos = System.nanoTime();

  /** @param tol stop when {@code |f_t − f_{t−1}| ≤ tol · max(|f_{t−1}|, 1e-300)}; 0 never stops early */
  public ObjectiveHistory(String method, double tol) {
    if (!(tol >= 0)) {
      throw new IllegalArgumentException("tol must be >= 0, got " + tol);
    }
    this.method = method;
    this.tol = tol;
  }

  /** Records the objective after one iteration; returns true when converged. */
  public boolean record(double value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, 2 * size);
    }
    values[size++] = value;
    long now = System.nanoTime();
    double seconds = (now - lastNanos) / 1e9;
    lastNanos = now;
    double change = relativeChange();
    LOG.info("{} iteration {}: objective {} relative change {} ({} s)", method, size,
        String.format("%.10g", value), size > 1 ? String.format("%.3e", change) : "-",
        String.format("%.3f", seconds));
    converged = size > 1 && change <= tol;
    return converged;
  }

  /** Whether the last recorded value met the tolerance (false when the budget ran out). */
  public boolean converged() {
    return converged;
  }

  /** {@code |f_t − f_{t−1}| / |f_{t−1}|} of the last two values (NaN before two). */
  public double relativeChange() {
    if (size < 2) {
      return Double.NaN;
    }
    double prev = values[size - 2];
    return Math.abs(values[size - 1] - prev) / Math.max(Math.abs(prev), 1e-300);
  }

  public int size() {
    return size;
  }

  public double[] values() {
    return Arrays.copyOf(values, size);
  }
}
