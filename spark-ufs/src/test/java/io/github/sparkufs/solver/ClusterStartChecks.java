package io.github.sparkufs.solver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** What {@link ClusterStart#BOTH} promises, for NDFS and RSFS alike. */
final class ClusterStartChecks {

  private ClusterStartChecks() {}

  /**
   * The fit from both starts is the single-start fit with the lower final objective, bit for
   * bit, and the summaries record each start's objective and which start was kept.
   */
  static void assertBothKeepsTheLowerObjective(SelectionResult spectral, SelectionResult kmeans,
      SelectionResult both) {
    double spectralObjective = spectral.summary().get("objective");
    double kmeansObjective = kmeans.summary().get("objective");
    assertEquals(1.0, spectral.summary().get("initStarts"));
    assertEquals(1.0, spectral.summary().get("initSpectral"));
    assertFalse(spectral.summary().containsKey("kmeansStartObjective"));
    assertEquals(0.0, kmeans.summary().get("initSpectral"));
    assertFalse(kmeans.summary().containsKey("spectralStartObjective"));

    assertEquals(2.0, both.summary().get("initStarts"));
    assertEquals(spectralObjective, both.summary().get("spectralStartObjective"));
    assertEquals(kmeansObjective, both.summary().get("kmeansStartObjective"));
    SelectionResult kept = kmeansObjective < spectralObjective ? kmeans : spectral;
    assertEquals(kept.summary().get("initSpectral"), both.summary().get("initSpectral"));
    assertEquals(Math.min(spectralObjective, kmeansObjective), both.summary().get("objective"));
    assertArrayEquals(kept.scores(), both.scores());
    assertArrayEquals(kept.objectiveHistory(), both.objectiveHistory());
  }
}
