package io.github.sparkufs.eval;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A suggested number of features m with the evidence behind it: the score curve (the features'
 * scores best first), the {@link StabilityCurve} and, where given, for each m of the grid the
 * silhouette of a clustering on the top m features and the silhouette of the same clustering
 * on m features drawn at random (the median over a few draws). The rule, stated in
 * {@link #reason()}: among the m whose stability is credibly at least fair (the lower end of
 * the 95% interval of Nogueira's Φ at least {@link #STABLE}: Φ generalises Fleiss' κ, as
 * Nogueira et al. show, and 0.4 is where Fleiss' scale for κ passes from poor to fair), the m
 * of the largest {@link #silhouetteGains gain} of the top m over m random features, or without
 * silhouettes the m nearest the elbow of the score curve ({@link #elbow}); when no m is
 * stable, the m of the largest Φ. The silhouette alone favours small m, since it tends to be
 * larger in fewer dimensions whatever the features; its gain over random features of the same
 * number is fair across m.
 */
public record FeatureCountSuggestion(int numFeatures, String reason, int scoreElbow,
    double[] sortedScores, StabilityCurve stability, double[] silhouettes,
    double[] randomSilhouettes) {

  /** The lower confidence bound of Φ at which a selection counts as stable. */
  public static final double STABLE = 0.4;

  /**
   * @param sortedScores the scores best first, oriented so that larger is better; trailing NaN
   *     (constant features) are left out of the elbow
   * @param silhouettes one per point of {@code stability} (the top m features), or empty
   * @param randomSilhouettes one per point of {@code stability} (m random features), or empty
   *     with {@code silhouettes}
   */
  public static FeatureCountSuggestion of(double[] sortedScores, StabilityCurve stability,
      double[] silhouettes, double[] randomSilhouettes) {
    List<StabilityCurve.Point> points = stability.points();
    if (silhouettes.length != 0 && silhouettes.length != points.size()) {
      throw new IllegalArgumentException(silhouettes.length + " silhouettes for "
          + points.size() + " values of m");
    }
    if (randomSilhouettes.length != silhouettes.length) {
      throw new IllegalArgumentException(randomSilhouettes.length + " random silhouettes for "
          + silhouettes.length + " silhouettes");
    }
    int elbow = elbow(sortedScores);
    double[] gains = gains(silhouettes, randomSilhouettes);
    boolean anyStable = points.stream().anyMatch(p -> p.nogueira().lower() >= STABLE);
    int best = -1;
    for (int i = 0; i < points.size(); i++) {
      StabilityCurve.Point p = points.get(i);
      if (anyStable && p.nogueira().lower() < STABLE) {
        continue;
      }
      if (best < 0 || better(points, gains, elbow, anyStable, i, best)) {
        best = i;
      }
    }
    StabilityCurve.Point chosen = points.get(best);
    String why;
    if (!anyStable) {
      why = String.format(Locale.ROOT, "no m has a stability credibly at least %.2f (lower 95%% "
          + "bound of Φ); m = %d has the largest Φ = %.3f", STABLE, chosen.numFeatures(),
          chosen.nogueira().value());
    } else if (silhouettes.length > 0) {
      why = String.format(Locale.ROOT, "of the m with Φ's lower 95%% bound >= %.2f, m = %d has "
          + "the largest silhouette gain over m random features (%.3f against %.3f, %+.3f; "
          + "Φ = %.3f [%.3f, %.3f])", STABLE, chosen.numFeatures(), silhouettes[best],
          randomSilhouettes[best], gains[best],
          chosen.nogueira().value(), chosen.nogueira().lower(), chosen.nogueira().upper());
    } else {
      why = String.format(Locale.ROOT, "of the m with Φ's lower 95%% bound >= %.2f, m = %d is "
          + "nearest the elbow of the score curve (m = %d; Φ = %.3f [%.3f, %.3f])", STABLE,
          chosen.numFeatures(), elbow, chosen.nogueira().value(), chosen.nogueira().lower(),
          chosen.nogueira().upper());
    }
    return new FeatureCountSuggestion(chosen.numFeatures(), why, elbow, sortedScores.clone(),
        stability, silhouettes.clone(), randomSilhouettes.clone());
  }

  /**
   * For each m, how much better the top m features cluster than m random ones: the silhouette
   * less the random features' median silhouette; empty without silhouettes.
   */
  public double[] silhouetteGains() {
    return gains(silhouettes, randomSilhouettes);
  }

  private static double[] gains(double[] silhouettes, double[] randomSilhouettes) {
    double[] gains = new double[silhouettes.length];
    Arrays.setAll(gains, i -> silhouettes[i] - randomSilhouettes[i]);
    return gains;
  }

  /** Whether point i beats point best (earlier, so smaller, m wins ties). */
  private static boolean better(List<StabilityCurve.Point> points, double[] gains, int elbow,
      boolean anyStable, int i, int best) {
    if (!anyStable) {
      return points.get(i).nogueira().value() > points.get(best).nogueira().value();
    }
    if (gains.length > 0) {
      return gains[i] > gains[best];
    }
    return Math.abs(points.get(i).numFeatures() - elbow)
        < Math.abs(points.get(best).numFeatures() - elbow);
  }

  /**
   * The number of top features at the elbow of a score curve (best first, larger better): with
   * rank and score scaled to [0, 1], the point farthest from the line through the first and
   * last point is where the curve bends; below that line (a drop, then a flat tail) the elbow
   * keeps the features before that point, above it (a slow decline, then a drop) the features
   * up to it. 1 for a curve of fewer than 3 finite scores or no spread.
   */
  public static int elbow(double[] sortedScores) {
    int n = 0;
    while (n < sortedScores.length && Double.isFinite(sortedScores[n])) {
      n++;
    }
    double range = n == 0 ? 0 : sortedScores[0] - sortedScores[n - 1];
    if (n < 3 || range <= 0) {
      return 1;
    }
    int at = 0;
    double offset = 0;
    for (int r = 0; r < n; r++) {
      double x = r / (n - 1.0);
      double y = (sortedScores[r] - sortedScores[n - 1]) / range;
      if (Math.abs(x + y - 1) > Math.abs(offset)) {
        offset = x + y - 1;
        at = r;
      }
    }
    return Math.max(1, offset < 0 ? at : at + 1);
  }
}
