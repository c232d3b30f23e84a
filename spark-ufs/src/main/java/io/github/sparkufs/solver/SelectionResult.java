package io.github.sparkufs.solver;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a feature-selection method learns: one score per feature, which direction is better,
 * how the iterations went (how many ran, whether the stopping rule was met, the objective
 * after each) and the method's own diagnostics, named figures such as the graph width or the
 * samples down-weighted (each solver's {@code fit} lists its keys).
 */
public final class SelectionResult {

  private final double[] scores;
  private final boolean largerIsBetter;
  private final int iterations;
  private final boolean converged;
  private final double[] objectiveHistory;
  private final Map<String, Double> diagnostics;

  /**
   * @param iterations the iterations run
   * @param converged whether the objective's relative change fell to the tolerance (false
   *     when the iteration budget ran out or the method stopped for another reason)
   * @param objectiveHistory the objective after each iteration (a method may record its
   *     starting objective first)
   */
  public SelectionResult(double[] scores, boolean largerIsBetter, int iterations,
      boolean converged, double[] objectiveHistory, Map<String, Double> diagnostics) {
    this.scores = scores.clone();
    this.largerIsBetter = largerIsBetter;
    this.iterations = iterations;
    this.converged = converged;
    this.objectiveHistory = objectiveHistory.clone();
    this.diagnostics = Collections.unmodifiableMap(new LinkedHashMap<>(diagnostics));
  }

  /** A closed-form score: no iterations, nothing left to converge. */
  public static SelectionResult closedForm(double[] scores, boolean largerIsBetter,
      Map<String, Double> diagnostics) {
    return new SelectionResult(scores, largerIsBetter, 0, true, new double[0], diagnostics);
  }

  public double[] scores() {
    return scores.clone();
  }

  public boolean largerIsBetter() {
    return largerIsBetter;
  }

  public int iterations() {
    return iterations;
  }

  public boolean converged() {
    return converged;
  }

  public double[] objectiveHistory() {
    return objectiveHistory.clone();
  }

  /** The method's own named figures about the fit (its diagnostics). */
  public Map<String, Double> summary() {
    return diagnostics;
  }
}
