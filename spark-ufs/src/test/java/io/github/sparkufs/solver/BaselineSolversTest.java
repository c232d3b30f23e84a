package io.github.sparkufs.solver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.graph.HeatKernelGraph;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.SparseRowMatrix;
import io.github.sparkufs.testing.TestData;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BaselineSolversTest {

  @Test
  void laplacianScoreMatchesDenseFormula() {
    for (boolean selfConnected : new boolean[] {false, true}) {
      for (boolean localScaling : new boolean[] {false, true}) {
        checkAgainstDenseFormula(selfConnected, localScaling);
      }
    }
  }

  private static void checkAgainstDenseFormula(boolean selfConnected, boolean localScaling) {
    DenseMatrix x = random(6, 40, 1);
    RowBlockMatrix m = RowBlockMatrix.local(x);
    SelectionResult r = new LaplacianScoreSolver(
        MethodOptions.of(LaplacianScoreSolver.PARAMS)
        .with(CommonOptions.NUM_NEIGHBORS, 4).with(CommonOptions.SEED, 1L)
        .with(LaplacianScoreSolver.SELF_CONNECTED, selfConnected)
        .with(LaplacianScoreSolver.LOCAL_SCALING, localScaling)).fit(m);
    assertFalse(r.largerIsBetter());
    // Dense reference: S (plus I when self-connected), D = diag(S1), L = D - S,
    // f~ = f - (f'D1 / 1'D1) 1.
    SparseRowMatrix s = (localScaling ? HeatKernelGraph.selfTuning(m, 4)
        : HeatKernelGraph.build(m, 4, 0)).weights();
    int n = 40;
    double self = selfConnected ? 1.0 : 0.0;
    double[] deg = s.rowSums();
    for (int i = 0; i < n; i++) {
      deg[i] += self;
    }
    double vol = 0;
    for (double v : deg) {
      vol += v;
    }
    for (int f = 0; f < 6; f++) {
      double mean = 0;
      for (int i = 0; i < n; i++) {
        mean += deg[i] * x.get(f, i) / vol;
      }
      double num = 0;
      double den = 0;
      for (int i = 0; i < n; i++) {
        double fi = x.get(f, i) - mean;
        den += deg[i] * fi * fi;
        num += deg[i] * fi * fi;
        for (int j = 0; j < n; j++) {
          double sij = s.get(i, j) + (i == j ? self : 0.0);
          num -= sij * fi * (x.get(f, j) - mean);
        }
      }
      assertEquals(num / den, r.scores()[f], 1e-10,
          "feature " + f + ", self " + selfConnected + ", local " + localScaling);
    }
  }

  @Test
  void laplacianScoreIsTheSameForAnyNumberOfBlocks() {
    DenseMatrix x = random(5, 90, 2);
    for (boolean localScaling : new boolean[] {false, true}) {
      LaplacianScoreSolver solver = new LaplacianScoreSolver(
          MethodOptions.of(LaplacianScoreSolver.PARAMS)
          .with(CommonOptions.NUM_NEIGHBORS, 5).with(CommonOptions.SEED, 1L)
          .with(LaplacianScoreSolver.SELF_CONNECTED, false)
          .with(LaplacianScoreSolver.LOCAL_SCALING, localScaling));
      double[] one = solver.fit(TestData.blocks(x, 1)).scores();
      for (int blocks : new int[] {3, 8}) {
        TestData.assertClose(one, solver.fit(TestData.blocks(x, blocks)).scores(), 1e-9,
            blocks + " blocks, local " + localScaling);
      }
    }
  }

  @Test
  void constantFeatureRanksLast() {
    DenseMatrix x = random(4, 30, 3);
    for (int i = 0; i < 30; i++) {
      x.set(2, i, 5.0);
    }
    SelectionResult lap = new LaplacianScoreSolver(
        MethodOptions.of(LaplacianScoreSolver.PARAMS)
        .with(CommonOptions.NUM_NEIGHBORS, 3).with(CommonOptions.SEED, 1L)
        .with(LaplacianScoreSolver.SELF_CONNECTED, false)
        .with(LaplacianScoreSolver.LOCAL_SCALING, true)).fit(RowBlockMatrix.local(x));
    assertEquals(Double.POSITIVE_INFINITY, lap.scores()[2]);
    assertEquals(2, FeatureRanking.rank(lap.scores(), false)[3]);
    SelectionResult var = new MaxVarianceSolver().fit(RowBlockMatrix.local(x));
    assertEquals(0.0, var.scores()[2], 1e-12);
  }

  @Test
  void laplacianScoreRecoversPlantedFeatures() {
    // Measured: 1.0 on every seed with either graph (native and pure-Java BLAS).
    for (boolean localScaling : new boolean[] {false, true}) {
      TestData.assertMeanRecall(TestData.plantedRecalls(
          new LaplacianScoreSolver(MethodOptions.of(LaplacianScoreSolver.PARAMS)
              .with(CommonOptions.NUM_NEIGHBORS, 5).with(CommonOptions.SEED, 1L)
              .with(LaplacianScoreSolver.SELF_CONNECTED, false)
              .with(LaplacianScoreSolver.LOCAL_SCALING, localScaling)), 400), 0.9,
          "local scaling " + localScaling);
    }
  }

  @Test
  void maxVarianceIsThePopulationVariance() {
    DenseMatrix x = random(3, 50, 4);
    double[] scores = new MaxVarianceSolver().fit(TestData.blocks(x, 3)).scores();
    for (int f = 0; f < 3; f++) {
      double mean = 0;
      for (int i = 0; i < 50; i++) {
        mean += x.get(f, i) / 50;
      }
      double var = 0;
      for (int i = 0; i < 50; i++) {
        var += (x.get(f, i) - mean) * (x.get(f, i) - mean) / 50;
      }
      assertEquals(var, scores[f], 1e-12);
    }
  }

  private static DenseMatrix random(int d, int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix x = new DenseMatrix(d, n);
    for (int i = 0; i < x.data().length; i++) {
      x.data()[i] = rnd.nextDouble() * (1 + i % d);
    }
    return x;
  }
}
