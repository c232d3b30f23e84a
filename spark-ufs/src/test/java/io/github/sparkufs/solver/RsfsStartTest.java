package io.github.sparkufs.solver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.ClusteringMetrics;
import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.graph.KnnSearch;
import io.github.sparkufs.graph.LocalKernelRegressionGraph;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.testing.TestData;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Where RSFS starts F ({@link RsfsSolver.InitMode}) and how the start is chosen. */
class RsfsStartTest {

  private static RsfsSolver solver(int c, double gamma, RsfsSolver.InitMode mode) {
    return new RsfsSolver(TestData.shared(RsfsSolver.PARAMS, c, 5, 30, 0.0, 1L, KnnSearch.EXACT)
        .with(RsfsSolver.GAMMA, gamma).with(RsfsSolver.INIT_MODE, mode));
  }

  /**
   * Both starts: the kept fit is the single-start fit with the lower final objective, bit for
   * bit, and the summary records both objectives and which start was kept.
   */
  @Test
  void bothStartsKeepTheFitWithTheLowerObjective() {
    PlantedClusters planted = new PlantedClusters(40, 8, 4, 3.0, 7L);
    RowBlockMatrix x = RowBlockMatrix.local(planted.matrix(300));
    SelectionResult spectral = solver(4, 0.02, RsfsSolver.InitMode.SPECTRAL).fit(x);
    SelectionResult kmeans = solver(4, 0.02, RsfsSolver.InitMode.KMEANS).fit(x);
    SelectionResult both = solver(4, 0.02, RsfsSolver.InitMode.BOTH).fit(x);

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

  /**
   * Issue #20 at unit-test size. The scale command's planted draw (d = 100, 10 informative,
   * c = 5, separation 2, seed 1) at n = 2,000: the spectral start of the authors' code is one
   * large cluster plus groups of a few loosely attached samples (the smallest eigenvectors of M
   * sit on them), and Algorithm 1 from there ends in a local minimum of Eq. 9 that is worse
   * than the one reached from the k-means start and selects none of the planted features.
   * γ = 10 (inside the paper's grid) keeps Z at zero: with the default γ the soft threshold
   * γ/(2α) = 0.05 lets Z absorb the large F entries of groups of fewer than (2α/γ)² = 400
   * samples, which makes that solution cheap up to n ≈ 5,000 on this draw (see the class
   * comment of {@link RsfsSolver}). Over the planted seeds 1..10 at n = 2,000 and γ = 10 the
   * k-means start ended at the lower or an equal objective in all 10 (equal in the 2 draws
   * whose spectral start was already the planted clusters).
   */
  @Test
  void spectralStartOnSmallGroupsLosesToTheKMeansStart() {
    int n = 2000;
    int c = 5;
    PlantedClusters planted = new PlantedClusters(100, 10, c, 2.0, 1L);
    RowBlockMatrix x = RowBlockMatrix.local(planted.matrix(n));
    LocalKernelRegressionGraph g = LocalKernelRegressionGraph.build(x, 5, 0.0);
    int[] start = RsfsSolver.spectralClusters(x.execution(), RsfsSolver.attachGraph(x, g), g, n,
        c, 1L);
    int[] sizes = new int[c];
    for (int l : start) {
      sizes[l]++;
    }
    // The symptom (measured: ACC .201, smallest group 4 samples).
    assertTrue(Arrays.stream(sizes).min().getAsInt() < n / 100, Arrays.toString(sizes));
    assertTrue(ClusteringMetrics.accuracy(planted.labels(n), start) < 0.3);
    // Measured: recall 0 from the spectral start alone.
    SelectionResult spectral = solver(c, 10, RsfsSolver.InitMode.SPECTRAL).fit(x);
    assertTrue(planted.recall(FeatureRanking.rank(spectral.scores(), true)) <= 0.2);

    // Measured: objective 2.424 from the spectral start, 2.269 from k-means; recall 1.0.
    SelectionResult both = solver(c, 10, RsfsSolver.INIT_MODE.defaultValue()).fit(x);
    assertEquals(spectral.summary().get("objective"),
        both.summary().get("spectralStartObjective"));
    assertTrue(both.summary().get("kmeansStartObjective")
        < both.summary().get("spectralStartObjective"), both.summary().toString());
    assertEquals(0.0, both.summary().get("initSpectral"));
    assertTrue(planted.recall(FeatureRanking.rank(both.scores(), true)) >= 0.9);
  }
}
