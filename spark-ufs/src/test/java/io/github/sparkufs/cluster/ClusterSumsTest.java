package io.github.sparkufs.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.testing.TestData;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ClusterSumsTest {

  private static int[] randomLabels(int n, int k, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] l = new int[n];
    for (int i = 0; i < n; i++) {
      l[i] = rnd.nextInt(k);
    }
    return l;
  }

  /** The indicator matrix stored per sample, k × n (the papers' Uᵀ). */
  private static DenseMatrix indicatorT(int[] labels, int k) {
    DenseMatrix u = new DenseMatrix(k, labels.length);
    for (int i = 0; i < labels.length; i++) {
      u.set(labels[i], i, 1.0);
    }
    return u;
  }

  private static RowBlockMatrix threeBlocks(DenseMatrix x) {
    int n = x.cols();
    return RowBlockMatrix.local(List.of(new RowBlock(0, x.columns(0, 5)),
        new RowBlock(5, x.columns(5, 20)), new RowBlock(25, x.columns(25, n - 25))));
  }

  @Test
  void sumsAndCountsMatchTheIndicatorProducts() {
    DenseMatrix x = TestData.uniform(6, 40, 1);
    int[][] labelings = {randomLabels(40, 4, 2), randomLabels(40, 4, 3)};
    List<ClusterSums> got = ClusterSums.of(threeBlocks(x), labelings, 4);
    for (int t = 0; t < 2; t++) {
      DenseMatrix ut = indicatorT(labelings[t], 4);
      DenseMatrix xu = x.multiplyTranspose(ut);
      assertArrayEquals(xu.data(), got.get(t).sums().data(), 1e-12);
      DenseMatrix utu = ut.gram();
      for (int j = 0; j < 4; j++) {
        assertEquals(utu.get(j, j), got.get(t).counts()[j], 0.0);
      }
    }
  }

  @Test
  void derivedQuantitiesMatchTheirDefinitions() {
    DenseMatrix x = TestData.uniform(5, 30, 4);
    int[] labels = randomLabels(30, 3, 5);
    DenseMatrix w = TestData.uniform(5, 2, 6);
    ClusterSums s = ClusterSums.of(RowBlockMatrix.local(x), labels, 3);
    DenseMatrix y = w.transposeMultiply(x);
    // G = Wᵀ X U (UᵀU)⁻¹: the mean of each cluster's projected samples.
    DenseMatrix g = s.projectedCentroids(w);
    double between = 0;
    for (int j = 0; j < 3; j++) {
      int count = 0;
      double[] mean = new double[2];
      for (int i = 0; i < 30; i++) {
        if (labels[i] == j) {
          count++;
          mean[0] += y.get(0, i);
          mean[1] += y.get(1, i);
        }
      }
      for (int r = 0; r < 2; r++) {
        mean[r] /= count;
        assertEquals(mean[r], g.get(r, j), 1e-12);
        between += count * mean[r] * mean[r];
      }
    }
    assertEquals(between, s.projectedBetweenScatter(w), 1e-10);
    DenseMatrix b = s.scaledSums();
    DenseMatrix ut = indicatorT(labels, 3);
    DenseMatrix xu = x.multiplyTranspose(ut);
    DenseMatrix expected = xu.multiply(DenseMatrix.diagonal(
        new double[] {1.0 / s.counts()[0], 1.0 / s.counts()[1], 1.0 / s.counts()[2]}))
        .multiplyTranspose(xu);
    assertArrayEquals(expected.data(), b.gram().data(), 1e-10);
  }

  @Test
  void emptyClusterContributesNothing() {
    DenseMatrix x = TestData.uniform(4, 10, 7);
    int[] labels = randomLabels(10, 2, 8);
    ClusterSums two = ClusterSums.of(RowBlockMatrix.local(x), labels, 2);
    ClusterSums three = ClusterSums.of(RowBlockMatrix.local(x), labels, 3);
    assertEquals(0, three.counts()[2]);
    assertEquals(2, three.nonEmpty());
    DenseMatrix w = TestData.uniform(4, 2, 9);
    assertEquals(two.projectedBetweenScatter(w), three.projectedBetweenScatter(w), 1e-12);
    DenseMatrix g = three.projectedCentroids(w);
    assertEquals(0.0, g.get(0, 2), 0.0);
    assertEquals(0.0, g.get(1, 2), 0.0);
  }

  @Test
  void sameSumsWhateverTheBlocks() {
    DenseMatrix x = TestData.uniform(7, 50, 10);
    int[] labels = randomLabels(50, 5, 11);
    ClusterSums one = ClusterSums.of(RowBlockMatrix.local(x), labels, 5);
    ClusterSums three = ClusterSums.of(threeBlocks(x), labels, 5);
    assertArrayEquals(one.sums().data(), three.sums().data(), 1e-12);
    assertArrayEquals(one.counts(), three.counts());
  }

  @Test
  void rejectsBadLabels() {
    RowBlockMatrix x = RowBlockMatrix.local(TestData.uniform(3, 4, 12));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ClusterSums.of(x, new int[] {0, 1, 2, 3}, 3));
    assertEquals("label 3 outside [0, 3)", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> ClusterSums.of(x, new int[] {0, 1}, 3));
    assertEquals("a labelling has 2 labels for 4 samples", e.getMessage());
  }
}
