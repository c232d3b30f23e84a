package io.github.sparkufs.solver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.testing.TestData;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link FeatureScoring}: the regression scores a feature by how it predicts the clusters of the
 * projection, whatever part it has in W, in any unit of the features and in any blocks. The fits
 * are stood in for by a projection W built by hand: unit vectors on three of the four planted
 * features of {@link PlantedClusters} (d = 20, c = 4, separation 3, n = 400), whose clusters
 * every planted feature separates alone.
 */
class FeatureScoringTest {

  private static final int D = 20;
  private static final int C = 4;
  private static final int N = 400;

  /** W (d × 3): unit vectors on the first three planted features. */
  private static DenseMatrix projection(PlantedClusters planted) {
    int[] informative = planted.informativeFeatures();
    DenseMatrix w = new DenseMatrix(D, 3);
    for (int k = 0; k < 3; k++) {
      w.set(informative[k], k, 1);
    }
    return w;
  }

  private static double recall(PlantedClusters planted, double[] scores) {
    return planted.recall(FeatureRanking.rank(scores, true));
  }

  /**
   * The row norms give the fourth planted feature, outside W, the noise features' score 0, and
   * the ties go by index to a noise feature on every one of draws 1–10: recall 3/4. The
   * regression on the clusters of {@code WᵀX} finds all four on every one of them.
   */
  @Test
  void regressionCreditsTheFeaturesThatPredictTheClustersNotThoseInW() {
    for (int seed = 1; seed <= 10; seed++) {
      PlantedClusters planted = new PlantedClusters(D, 4, C, 3.0, seed);
      DenseMatrix w = projection(planted);
      try (RowBlockMatrix x = RowBlockMatrix.local(planted.matrix(N)).centered()) {
        assertEquals(0.75,
            recall(planted, FeatureScoring.PROJECTION.scores(x, null, w, C, seed).scores()), 0,
            "row norms, draw " + seed);
        assertEquals(1.0,
            recall(planted, FeatureScoring.REGRESSION.scores(x, null, w, C, seed).scores()), 0,
            "regression, draw " + seed);
      }
    }
  }

  /**
   * Features in other units with W rescaled to the same projection (so the same clusters): the
   * same scores, since the penalty and the scores are in standard units; and uncentred data
   * score as their centred copy.
   */
  @Test
  void scoresDoNotDependOnTheFeaturesUnitsOrMeans() {
    PlantedClusters planted = new PlantedClusters(D, 4, C, 3.0, 1);
    DenseMatrix x = planted.matrix(N);
    DenseMatrix w = projection(planted);
    double[] expected;
    try (RowBlockMatrix centred = RowBlockMatrix.local(x).centered()) {
      expected = FeatureScoring.REGRESSION.scores(centred, null, w, C, 7).scores();
    }
    DenseMatrix rescaled = x.copy();
    DenseMatrix wRescaled = w.copy();
    for (int j = 0; j < D; j++) {
      double unit = Math.pow(10, j % 7 - 3);
      for (int i = 0; i < N; i++) {
        rescaled.set(j, i, rescaled.get(j, i) * unit + 5 * j);
      }
      for (int k = 0; k < w.cols(); k++) {
        wRescaled.set(j, k, w.get(j, k) / unit);
      }
    }
    TestData.assertClose(expected,
        FeatureScoring.REGRESSION.scores(RowBlockMatrix.local(rescaled), null, wRescaled, C, 7)
            .scores(), 1e-9,
        "scores of the rescaled, shifted features");
  }

  /** The same scores from one block and from three (the sums differ in their last bits only). */
  @Test
  void scoresAreTheSameInAnyBlocks() {
    PlantedClusters planted = new PlantedClusters(D, 4, C, 3.0, 2);
    DenseMatrix x = planted.matrix(N);
    DenseMatrix w = projection(planted);
    double[] one = FeatureScoring.REGRESSION.scores(RowBlockMatrix.local(x), null, w, C, 3)
        .scores();
    double[] three = FeatureScoring.REGRESSION.scores(TestData.blocks(x, 3), null, w, C, 3)
        .scores();
    TestData.assertClose(one, three, 1e-12, "scores in 1 and 3 blocks");
    assertArrayEquals(FeatureRanking.rank(one, true), FeatureRanking.rank(three, true));
  }

  /**
   * With W on three planted features, the samples weighted by its row norms are the projection's
   * samples (and zeros): the same clusters, the same residual, so the projection's clusters stay
   * the target; the summary records both residuals, each a share of the target in (0, 1).
   */
  @Test
  void theProjectionsClustersStayWhenTheWeightedSamplesFitNoBetter() {
    PlantedClusters planted = new PlantedClusters(D, 4, C, 3.0, 4);
    Map<String, Double> summary = FeatureScoring.REGRESSION.scores(
        RowBlockMatrix.local(planted.matrix(N)), null, projection(planted), C, 5).summary();
    double residual = summary.get("projectionClustersResidual");
    assertTrue(residual > 0 && residual < 1, "residual " + residual);
    assertEquals(residual, summary.get("weightedClustersResidual"), 1e-12);
    assertEquals(0.0, summary.get("weightedClustersChosen"));
    assertTrue(FeatureScoring.PROJECTION.scores(RowBlockMatrix.local(planted.matrix(N)), null,
        projection(planted), C, 5).summary().isEmpty());
  }

  /** A constant (noise) feature spans nothing the clusters could use: it scores 0. */
  @Test
  void aConstantFeatureScoresZero() {
    PlantedClusters planted = new PlantedClusters(D, 4, C, 3.0, 3);
    DenseMatrix x = planted.matrix(N);
    int constant = D - 1;
    while (Arrays.binarySearch(planted.informativeFeatures(), constant) >= 0) {
      constant--;
    }
    for (int i = 0; i < N; i++) {
      x.set(constant, i, 2.5);
    }
    double[] scores = FeatureScoring.REGRESSION.scores(RowBlockMatrix.local(x), null,
        projection(planted), C, 1).scores();
    assertEquals(0, scores[constant], 0);
    for (int j = 0; j < constant; j++) {
      assertTrue(scores[j] > 0, "feature " + j + " scores " + scores[j]);
    }
  }
}
