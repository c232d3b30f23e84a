package io.github.sparkufs.solver;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.testing.TestData;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Where NDFS starts F ({@link ClusterStart}) and how the start is chosen. */
class NdfsStartTest {

  private static NdfsSolver solver(ClusterStart mode) {
    return new NdfsSolver(TestData.shared(NdfsSolver.PARAMS, 4, 5, 30, 0.0, 1L)
        .with(NdfsSolver.INIT_MODE, mode));
  }

  /**
   * Planted clusters in 8 of 50 features whose 42 noise features each take 0.8 of their
   * variance from one of 3 shared Gaussian factors (a batch or size effect): the factors hold
   * the largest principal directions, so k-means on the top principal scores splits the samples
   * along them, while the kNN graph still follows the clusters.
   */
  private static DenseMatrix correlatedNoise(PlantedClusters planted, int n, long seed) {
    DenseMatrix x = planted.matrix(n);
    int[] informative = planted.informativeFeatures();
    SplittableRandom rnd = new SplittableRandom(seed);
    double variance = 0;
    for (int f : informative) {
      variance += rowVariance(x, f) / informative.length;
    }
    double scale = Math.sqrt(variance);
    for (int i = 0; i < n; i++) {
      double[] factor = {PlantedClusters.gaussian(rnd), PlantedClusters.gaussian(rnd),
          PlantedClusters.gaussian(rnd)};
      for (int f = 0; f < x.rows(); f++) {
        if (Arrays.binarySearch(informative, f) < 0) {
          x.set(f, i, scale * (Math.sqrt(0.8) * factor[f % 3]
              + Math.sqrt(0.2) * PlantedClusters.gaussian(rnd)));
        }
      }
    }
    return x;
  }

  private static double rowVariance(DenseMatrix x, int f) {
    double mean = 0;
    for (int i = 0; i < x.cols(); i++) {
      mean += x.get(f, i) / x.cols();
    }
    double v = 0;
    for (int i = 0; i < x.cols(); i++) {
      v += (x.get(f, i) - mean) * (x.get(f, i) - mean) / x.cols();
    }
    return v;
  }

  /** Both starts keep the fit with the lower Eq. 10 ({@link ClusterStartChecks}). */
  @Test
  void bothStartsKeepTheFitWithTheLowerObjective() {
    PlantedClusters planted = new PlantedClusters(50, 8, 4, 3.0, 3L);
    RowBlockMatrix x = RowBlockMatrix.local(correlatedNoise(planted, 400, 3L));
    SelectionResult spectral = solver(ClusterStart.SPECTRAL).fit(x);
    SelectionResult kmeans = solver(ClusterStart.KMEANS).fit(x);
    SelectionResult both = solver(ClusterStart.BOTH).fit(x);
    ClusterStartChecks.assertBothKeepsTheLowerObjective(spectral, kmeans, both);
  }

  /**
   * On correlated noise the k-means start follows the factors and NDFS from it keeps noise
   * features; the objective of Eq. 10 prefers the spectral start's fit, which finds the planted
   * ones. Measured over seeds 1..10 (n = 400), the share of the 8 planted features among the
   * top 8: from the k-means start 0 to .625, mean .31; by default (both starts) 1.0 on every
   * seed. Asserted with a margin: at least 7 of 8 on each seed by default, and the k-means
   * start's mean below .6 (so that the data stay the case the test is about).
   */
  @Test
  void theObjectiveChoosesTheStartThatFindsThePlantedFeaturesUnderCorrelatedNoise() {
    double kmeansTotal = 0;
    for (long seed = 1; seed <= 10; seed++) {
      PlantedClusters planted = new PlantedClusters(50, 8, 4, 3.0, seed);
      RowBlockMatrix x = RowBlockMatrix.local(correlatedNoise(planted, 400, seed));
      double kmeans = planted.recall(
          FeatureRanking.rank(solver(ClusterStart.KMEANS).fit(x).scores(), true));
      double both = planted.recall(FeatureRanking.rank(
          solver(NdfsSolver.INIT_MODE.defaultValue()).fit(x).scores(), true));
      assertTrue(both >= 0.875, "seed " + seed + ": recall " + both + " by default");
      kmeansTotal += kmeans;
    }
    assertTrue(kmeansTotal / 10 < 0.6, "mean recall from the k-means start " + kmeansTotal / 10);
  }
}
