package io.github.sparkufs.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkufs.eval.ClusteringMetrics;
import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.testing.TestData;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KMeansTest {

  @Test
  void recoversWellSeparatedClustersWhateverTheBlocks() {
    PlantedClusters planted = new PlantedClusters(5, 5, 4, 8.0, 11);
    DenseMatrix x = planted.matrix(400);
    KMeans kmeans = new KMeans(4, 100, 0);
    KMeans.Result one = kmeans.fit(TestData.blocks(x, 1), 3);
    KMeans.Result three = kmeans.fit(TestData.blocks(x, 3), 3);
    assertEquals(1.0, ClusteringMetrics.accuracy(planted.labels(400), one.labels()), 1e-12);
    assertArrayEquals(one.labels(), three.labels());
    TestData.assertClose(one.centers().data(), three.centers().data(), 1e-12, "centres");
  }

  /**
   * Fitted on 200 of 2,000 samples, every sample is then labelled by the sample's centres: the
   * planted clusters are found, the labels are those nearest to the centres, the same from 1 and
   * 3 blocks; with the bound at n the fit is {@link KMeans#fitBest} itself.
   */
  @Test
  void aFitOnASampleLabelsEverySample() {
    PlantedClusters planted = new PlantedClusters(5, 5, 4, 8.0, 12);
    DenseMatrix x = planted.matrix(2000);
    KMeans kmeans = new KMeans(4, 100, 0);
    KMeans.Result one = kmeans.fitBestOnSample(TestData.blocks(x, 1), 3, 5, 200);
    KMeans.Result three = kmeans.fitBestOnSample(TestData.blocks(x, 3), 3, 5, 200);
    assertEquals(1.0, ClusteringMetrics.accuracy(planted.labels(2000), one.labels()), 1e-12);
    assertArrayEquals(KMeans.assign(TestData.blocks(x, 1), one.centers()), one.labels());
    assertArrayEquals(one.labels(), three.labels());
    KMeans.Result all = kmeans.fitBest(TestData.blocks(x, 2), 3, 5);
    KMeans.Result bounded = kmeans.fitBestOnSample(TestData.blocks(x, 2), 3, 5, 2000);
    assertArrayEquals(all.labels(), bounded.labels());
    assertEquals(all.cost(), bounded.cost());
  }

  @Test
  void emptyClusterIsReseeded() {
    // Five identical points and one far away: with 3 clusters one centre starts empty-prone.
    DenseMatrix x = new DenseMatrix(1, 6, new double[] {0, 0, 0, 0, 0, 100});
    KMeans.Result r = new KMeans(3, 50, 0).fit(x, 1);
    for (double c : r.centers().data()) {
      assertEquals(false, Double.isNaN(c));
    }
    assertEquals(0.0, r.cost(), 1e-12);
  }

  @Test
  void assignmentIsTheDirectSumsNearestAtExactTies() {
    // Samples a·1 in d = 37, exactly as far by the direct sum from the centres a·1 + t·e_p
    // (index 10) and a·1 + t·e_q (index 11): one square each. ||c||² − 2 xᵀc sums the two
    // differently, so a GEMM screen alone would split such ties by rounding; they must go to
    // the lower index whatever the BLAS and the blocks. Ten far centres come first.
    int d = 37;
    int far = 10;
    SplittableRandom rnd = new SplittableRandom(5);
    for (int trial = 0; trial < 200; trial++) {
      double a = rnd.nextDouble(-3, 3);
      DenseMatrix x = new DenseMatrix(d, 6);
      Arrays.fill(x.data(), a);
      DenseMatrix centers = new DenseMatrix(d, far + 2);
      for (int c = 0; c < far + 2; c++) {
        for (int j = 0; j < d; j++) {
          centers.set(j, c, a + (c < far ? rnd.nextDouble(5, 10) : 0));
        }
      }
      int p = rnd.nextInt(d);
      int q = (p + 1 + rnd.nextInt(d - 1)) % d;
      double t = rnd.nextDouble(0.01, 1);
      centers.set(p, far, a + t);
      centers.set(q, far + 1, a + t);
      assertEquals(KMeans.squaredDistance(x.data(), 0, centers, far),
          KMeans.squaredDistance(x.data(), 0, centers, far + 1), 0.0, "trial " + trial);
      for (int blocks : new int[] {1, 3}) {
        int[] expected = new int[x.cols()];
        Arrays.fill(expected, far);
        assertArrayEquals(expected, KMeans.assign(TestData.blocks(x, blocks), centers),
            "trial " + trial + ", " + blocks + " blocks");
      }
    }
  }

  @Test
  void labelsAndCostAreTheDirectSumsOnOverlappingClusters() {
    // Overlapping clusters (separation 1.5), so many samples lie near the boundary between two
    // centres: the fit's labels are those of the scalar nearest-centre rule and its cost the
    // sum of the direct squared distances, on one block and on five.
    PlantedClusters planted = new PlantedClusters(12, 6, 5, 1.5, 21);
    DenseMatrix x = planted.matrix(2000);
    for (int blocks : new int[] {1, 5}) {
      KMeans.Result r = new KMeans(5, 50, 0).fit(TestData.blocks(x, blocks), 7);
      double cost = 0;
      for (int i = 0; i < x.cols(); i++) {
        int nearest = KMeans.nearest(x.data(), i, r.centers());
        assertEquals(nearest, r.labels()[i], "sample " + i + ", " + blocks + " blocks");
        cost += KMeans.squaredDistance(x.data(), i, r.centers(), nearest);
      }
      assertEquals(cost, r.cost(), 1e-12 * cost);
    }
  }
}
