package io.github.sparkufs.solver;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.graph.KnnSearch;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.testing.TestData;
import org.junit.jupiter.api.Test;

/** Where RSFS starts F ({@link ClusterStart}) and how the start is chosen. */
class RsfsStartTest {

  private static RsfsSolver solver(int c, double gamma, ClusterStart mode) {
    return new RsfsSolver(TestData.shared(RsfsSolver.PARAMS, c, 5, 30, 0.0, 1L, KnnSearch.EXACT)
        .with(RsfsSolver.GAMMA, gamma).with(RsfsSolver.INIT_MODE, mode));
  }

  /** Both starts keep the fit with the lower final objective ({@link ClusterStartChecks}). */
  @Test
  void bothStartsKeepTheFitWithTheLowerObjective() {
    PlantedClusters planted = new PlantedClusters(40, 8, 4, 3.0, 7L);
    RowBlockMatrix x = RowBlockMatrix.local(planted.matrix(300));
    SelectionResult spectral = solver(4, 0.02, ClusterStart.SPECTRAL).fit(x);
    SelectionResult kmeans = solver(4, 0.02, ClusterStart.KMEANS).fit(x);
    SelectionResult both = solver(4, 0.02, ClusterStart.BOTH).fit(x);
    ClusterStartChecks.assertBothKeepsTheLowerObjective(spectral, kmeans, both);
  }

  /**
   * Issue #20 reported RSFS losing the planted features as n grows (0–1 of 10 at n = 40,000).
   * On the scale command's planted draw (d = 100, 10 informative, c = 5, separation 2) at n =
   * 2,000 the authors' spectral start then fell on one large cluster plus groups of a few
   * samples. That draw's samples were not independent: each sample's random stream was its
   * neighbour's shifted by a step ({@code PlantedClusters} has since hashed them apart). On
   * independent samples, seeds 1..10 at n = 2,000, the spectral start's clusters have k-means
   * ACC .76–.97 against the planted labels, and RSFS finds all 10 planted features from either
   * start and by default (measured: recall 1.0 in all 30 fits); seeds 1..3 here.
   */
  @Test
  void bothStartsFindThePlantedFeaturesAsNGrows() {
    int n = 2000;
    int c = 5;
    for (long seed = 1; seed <= 3; seed++) {
      PlantedClusters planted = new PlantedClusters(100, 10, c, 2.0, seed);
      RowBlockMatrix x = RowBlockMatrix.local(planted.matrix(n));
      for (ClusterStart mode : new ClusterStart[] {ClusterStart.SPECTRAL,
          RsfsSolver.INIT_MODE.defaultValue()}) {
        SelectionResult r = solver(c, RsfsSolver.GAMMA.defaultValue(), mode).fit(x);
        double recall = planted.recall(FeatureRanking.rank(r.scores(), true));
        assertTrue(recall >= 0.9, "seed " + seed + ", " + mode + ": recall " + recall);
      }
    }
  }
}
