package io.github.sparkufs.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FeatureCountSuggestionTest {

  /**
   * Eight rankings that agree on features 0–3, in rotating order, and rotate the other eight
   * after them. By symmetry every run contributes alike, so Φ's variance is 0: Φ is about .31
   * at m = 2 (half the runs agree on each of 0–3), 1 at m = 4, .43 at m = 6 and .14 at m = 8.
   */
  private static StabilityCurve stableUpTo4() {
    int d = 12;
    int[][] rankings = new int[8][d];
    for (int r = 0; r < rankings.length; r++) {
      for (int i = 0; i < 4; i++) {
        rankings[r][i] = (i + r) % 4;
      }
      for (int i = 4; i < d; i++) {
        rankings[r][i] = 4 + (i - 4 + r) % (d - 4);
      }
    }
    return StabilityCurve.of(rankings, new int[] {2, 4, 6, 8});
  }

  @Test
  void theElbowIsWhereTheScoresStopFalling() {
    assertEquals(3, FeatureCountSuggestion.elbow(new double[] {10, 9, 8, 1, 1, 1, 1, 1, 1}));
    assertEquals(5, FeatureCountSuggestion.elbow(new double[] {10, 9.9, 9.8, 9.7, 9.6, 1, 0}));
    assertEquals(1, FeatureCountSuggestion.elbow(new double[] {5, 5, 5}));
    assertEquals(1, FeatureCountSuggestion.elbow(new double[] {9, 1, 1, Double.NaN}));
  }

  @Test
  void picksTheStableMWithTheLargestGainOverRandomFeatures() {
    StabilityCurve curve = stableUpTo4();
    FeatureCountSuggestion s = FeatureCountSuggestion.of(new double[12], curve,
        new double[] {0.9, 0.7, 0.6, 0.95}, new double[] {0.1, 0.5, 0.3, 0.1});
    // m = 2 and m = 8 gain most but are unstable; of m = 4 and 6, m = 4 has the larger
    // silhouette but m = 6 the larger gain over random features (.3 against .2).
    assertTrue(curve.points().get(0).nogueira().lower() < FeatureCountSuggestion.STABLE);
    assertTrue(curve.points().get(3).nogueira().lower() < FeatureCountSuggestion.STABLE);
    assertEquals(6, s.numFeatures(), s.reason());
    assertArrayEquals(new double[] {0.8, 0.2, 0.3, 0.85}, s.silhouetteGains(), 1e-12);
    assertTrue(s.reason().contains("largest silhouette gain over m random features (0.600 "
        + "against 0.300, +0.300"), s.reason());
  }

  @Test
  void rejectsRandomSilhouettesThatDoNotMatchTheSilhouettes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FeatureCountSuggestion.of(new double[12], stableUpTo4(),
            new double[] {0.9, 0.7, 0.6, 0.95}, new double[0]));
    assertTrue(e.getMessage().contains("0 random silhouettes for 4"), e.getMessage());
  }

  @Test
  void withoutAStableMPicksTheMostStable() {
    // Φ = −1/9 at m = 1 ({0} twice, {1}, {2}) and −1/6 at m = 2: the silhouettes do not count.
    int[][] rankings = {{0, 1, 2, 3}, {0, 2, 1, 3}, {1, 0, 3, 2}, {2, 3, 0, 1}};
    FeatureCountSuggestion s = FeatureCountSuggestion.of(new double[4],
        StabilityCurve.of(rankings, new int[] {1, 2}), new double[] {0.1, 0.9},
        new double[] {0, 0});
    assertEquals(1, s.numFeatures(), s.reason());
    assertTrue(s.reason().startsWith("no m"), s.reason());
  }

  @Test
  void withoutSilhouettesPicksTheStableMNearestTheElbow() {
    double[] scores = {9, 8.5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    FeatureCountSuggestion s = FeatureCountSuggestion.of(scores, stableUpTo4(), new double[0],
        new double[0]);
    assertEquals(2, s.scoreElbow());
    assertEquals(4, s.numFeatures(), s.reason());
    assertTrue(s.reason().contains("elbow"), s.reason());
  }
}
