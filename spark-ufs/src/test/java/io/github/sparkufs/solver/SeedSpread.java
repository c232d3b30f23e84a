package io.github.sparkufs.solver;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlockMatrix;
import java.util.Arrays;
import java.util.function.LongFunction;

/**
 * How much a solver's selection moves with its {@code seed}: fits at seeds 1–10 compared with
 * the fit at seed 1 (issue #20).
 */
final class SeedSpread {

  /** The largest score difference to seed 1, relative to seed 1's largest absolute score. */
  final double scoreSpread;
  /** Of seeds 2–10, how many changed the set of the top {@code m} features. */
  final int topChanges;

  private SeedSpread(double scoreSpread, int topChanges) {
    this.scoreSpread = scoreSpread;
    this.topChanges = topChanges;
  }

  static SeedSpread of(DenseMatrix x, int m, LongFunction<FeatureSelectionSolver> solver) {
    double[] first = null;
    int[] firstTop = null;
    double spread = 0;
    int changes = 0;
    for (long seed = 1; seed <= 10; seed++) {
      SelectionResult r = solver.apply(seed).fit(RowBlockMatrix.local(x));
      double[] scores = r.scores();
      int[] top = FeatureRanking.top(scores, r.largerIsBetter(), m);
      if (first == null) {
        first = scores;
        firstTop = top;
        continue;
      }
      double largest = Arrays.stream(first).map(Math::abs).max().getAsDouble();
      for (int i = 0; i < scores.length; i++) {
        spread = Math.max(spread, Math.abs(scores[i] - first[i]) / largest);
      }
      if (!Arrays.equals(top, firstTop)) {
        changes++;
      }
    }
    return new SeedSpread(spread, changes);
  }

  @Override
  public String toString() {
    return "scores moved up to " + scoreSpread + " of the largest, top set changed for "
        + topChanges + " of 9 seeds";
  }
}
