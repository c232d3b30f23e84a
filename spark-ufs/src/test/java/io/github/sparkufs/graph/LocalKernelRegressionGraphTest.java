package io.github.sparkufs.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.SparseRowMatrix;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalKernelRegressionGraphTest {

  private static final DenseMatrix X = new PlantedClusters(6, 3, 3, 2.0, 5L).matrix(40);

  private static double squaredDistance(int i, int j) {
    double s = 0;
    for (int f = 0; f < X.rows(); f++) {
      double d = X.get(f, i) - X.get(f, j);
      s += d * d;
    }
    return s;
  }

  @Test
  void rowsAreTheNormalisedKernelOverTheNeighbours() {
    int k = 4;
    double width = 2.5;
    LocalKernelRegressionGraph g =
        LocalKernelRegressionGraph.build(RowBlockMatrix.local(X), k, width);
    SparseRowMatrix s = g.regression();
    assertEquals(width, g.width());
    for (int i = 0; i < X.cols(); i++) {
      int[] nb = s.columns(i);
      assertEquals(k, nb.length);
      double sum = 0;
      for (int j : nb) {
        assertTrue(j != i, "self loop at " + i);
        sum += Math.exp(-squaredDistance(i, j) / (width * width));
      }
      double rowSum = 0;
      for (int j : nb) {
        double expected = Math.exp(-squaredDistance(i, j) / (width * width)) / sum;
        assertEquals(expected, s.get(i, j), 1e-12);
        rowSum += s.get(i, j);
      }
      assertEquals(1.0, rowSum, 1e-12);
      // The neighbours are the k nearest: no other sample is closer than the farthest kept.
      final int row = i;
      double farthest = Arrays.stream(nb).mapToDouble(j -> squaredDistance(row, j)).max()
          .getAsDouble();
      for (int j = 0; j < X.cols(); j++) {
        final int jj = j;
        if (j != i && Arrays.stream(nb).noneMatch(v -> v == jj)) {
          assertTrue(squaredDistance(i, j) >= farthest);
        }
      }
    }
  }

  @Test
  void symmetricPartAndDegreesFormM() {
    LocalKernelRegressionGraph g = LocalKernelRegressionGraph.build(RowBlockMatrix.local(X), 5, 0);
    SparseRowMatrix s = g.regression();
    SparseRowMatrix sym = g.symmetric();
    int n = X.cols();
    double[] degrees = new double[n];
    for (int i = 0; i < n; i++) {
      assertEquals(0.0, sym.get(i, i));
      for (int j = 0; j < n; j++) {
        double expected = s.get(i, j) + s.get(j, i);
        assertEquals(expected, sym.get(i, j), 1e-15);
        degrees[i] += expected;
      }
    }
    assertArrayEquals(degrees, g.degrees(), 1e-12);
    // M = B − S − Sᵀ annihilates constants: M 1 = 0.
    DenseMatrix ones = new DenseMatrix(1, n);
    Arrays.fill(ones.data(), 1.0);
    double[] m1 = sym.multiply(ones).data();
    for (int i = 0; i < n; i++) {
      assertEquals(0.0, g.degrees()[i] - m1[i], 1e-12);
    }
  }

  @Test
  void defaultWidthIsTheMeanKthNeighbourDistance() {
    int k = 3;
    LocalKernelRegressionGraph g = LocalKernelRegressionGraph.build(RowBlockMatrix.local(X), k, -1);
    double sum = 0;
    for (int i = 0; i < X.cols(); i++) {
      double[] d = new double[X.cols() - 1];
      int at = 0;
      for (int j = 0; j < X.cols(); j++) {
        if (j != i) {
          d[at++] = squaredDistance(i, j);
        }
      }
      Arrays.sort(d);
      sum += Math.sqrt(d[k - 1]);
    }
    assertEquals(sum / X.cols(), g.width(), 1e-9);
  }

  @Test
  void tinyWidthDoesNotEmptyRows() {
    LocalKernelRegressionGraph g =
        LocalKernelRegressionGraph.build(RowBlockMatrix.local(X), 5, 1e-3);
    double[] sums = g.regression().rowSums();
    for (int i = 0; i < sums.length; i++) {
      assertEquals(1.0, sums[i], 1e-12, "row " + i);
      // The nearest neighbour takes (almost) all the weight.
      assertTrue(Arrays.stream(g.regression().values(i)).max().getAsDouble() > 0.99);
    }
  }

  @Test
  void blocksGiveTheSameGraph() {
    LocalKernelRegressionGraph one =
        LocalKernelRegressionGraph.build(RowBlockMatrix.local(X), 5, 0);
    RowBlockMatrix split = RowBlockMatrix.local(List.of(new RowBlock(0, X.columns(0, 13)),
        new RowBlock(13, X.columns(13, 27))));
    LocalKernelRegressionGraph two = LocalKernelRegressionGraph.build(split, 5, 0);
    assertEquals(one.width(), two.width(), 1e-12);
    for (int i = 0; i < X.cols(); i++) {
      assertArrayEquals(one.symmetric().columns(i), two.symmetric().columns(i));
      assertArrayEquals(one.symmetric().values(i), two.symmetric().values(i), 1e-12);
    }
  }
}
