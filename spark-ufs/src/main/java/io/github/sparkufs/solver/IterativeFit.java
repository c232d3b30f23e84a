package io.github.sparkufs.solver;

import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop of every iterative method: it runs until the relative change of the objective,
 * {@code |f_t − f_{t−1}| / max(|f_{t−1}|, 1e-300)}, falls to {@link CommonOptions#tol()} or
 * {@link CommonOptions#maxIter()} iterations have run, records the objectives, logs one line
 * per iteration (iteration, objective, relative change, seconds) and tells the
 * {@link CommonOptions#listener() listener}, if any.
 *
 * <pre>{@code
 * IterativeFit loop = new IterativeFit("NDFS", common);
 * while (loop.next()) {
 *   ... // iteration loop.iteration(), from 1
 *   loop.record(objective);
 * }
 * IterativeFit.Result result = loop.result();
 * }</pre>
 *
 * A method that finds no better point than the last one says why ({@link #leave}) and leaves by
 * {@code break} without recording; the loop then ends unconverged.
 */
public final class IterativeFit {

  private static final Logger LOG = LoggerFactory.getLogger(IterativeFit.class);

  /** Told of every recorded objective. */
  @FunctionalInterface
  public interface Listener {
    /**
     * @param iteration from 1; 0 for the objective at the starting point
     * @param relativeChange against the previous objective; NaN for the first one
     * @param seconds since the previous objective, or since the loop was created
     */
    void onIteration(String method, int iteration, double objective, double relativeChange,
        double seconds);
  }

  /**
   * How the loop ended.
   *
   * @param objectives the objective at the starting point when one was recorded, then one per
   *     iteration
   * @param iterations the iterations that recorded an objective
   * @param converged true when the stopping rule was met; false when maxIter ran out or the
   *     method left the loop
   */
  public record Result(double[] objectives, int iterations, boolean converged) {

    /** The last objective recorded. */
    public double lastObjective() {
      return objectives[objectives.length - 1];
    }
  }

  private final String method;
  private final CommonOptions common;
  private double[] values = new double[16];
  private int size;
  private int startValues;
  private int iteration;
  private boolean converged;
  private long lastNanos = System.nanoTime();

  /** @param method names the method in the log and to the listener */
  public IterativeFit(String method, CommonOptions common) {
    this.method = method;
    this.common = common;
  }

  /** Records the objective at the starting point, before the first iteration. */
  public void start(double objective) {
    if (size > 0) {
      throw new IllegalStateException(method + ": the starting objective comes first");
    }
    startValues = 1;
    log(objective);
  }

  /**
   * Starts the next iteration unless the last one met the stopping rule or maxIter iterations
   * have run; returns whether it started.
   */
  public boolean next() {
    if (recorded() != iteration) {
      throw new IllegalStateException(method + " iteration " + iteration
          + " recorded no objective");
    }
    if (converged || iteration == common.maxIter()) {
      return false;
    }
    iteration++;
    return true;
  }

  /** The running iteration, from 1. */
  public int iteration() {
    return iteration;
  }

  /** Records the objective after the running iteration; returns whether the loop converged. */
  public boolean record(double objective) {
    if (recorded() != iteration - 1) {
      throw new IllegalStateException(method + " iteration " + iteration + " recorded twice");
    }
    converged = log(objective) <= common.tol();
    return converged;
  }

  /**
   * Logs why the method leaves the loop inside the running iteration, whose step it does not
   * take (so the iteration records nothing); the caller then leaves by {@code break}.
   */
  public void leave(String reason) {
    LOG.info("{} stopped in iteration {}, keeping iteration {}: {}", method, iteration,
        iteration - 1, reason);
  }

  /** The last objective recorded; NaN before any. */
  public double lastObjective() {
    return size == 0 ? Double.NaN : values[size - 1];
  }

  /** The objectives so far and whether the stopping rule was met. */
  public Result result() {
    return new Result(Arrays.copyOf(values, size), recorded(), converged);
  }

  private int recorded() {
    return size - startValues;
  }

  /** Keeps, logs and reports one objective; returns its relative change (NaN for the first). */
  private double log(double value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, 2 * size);
    }
    values[size++] = value;
    long now = System.nanoTime();
    double seconds = (now - lastNanos) / 1e9;
    lastNanos = now;
    double change = Double.NaN;
    if (size > 1) {
      double previous = values[size - 2];
      change = Math.abs(value - previous) / Math.max(Math.abs(previous), 1e-300);
    }
    LOG.info("{} iteration {}: objective {} relative change {} ({} s)", method, recorded(),
        String.format("%.10g", value), size > 1 ? String.format("%.3e", change) : "-",
        String.format("%.3f", seconds));
    if (common.listener() != null) {
      common.listener().onIteration(method, recorded(), value, change, seconds);
    }
    return change;
  }
}
