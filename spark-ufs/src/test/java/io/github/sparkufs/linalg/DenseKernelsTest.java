package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.testing.TestData;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

class DenseKernelsTest {

  private static DenseMatrix random(int r, int c, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix m = new DenseMatrix(r, c);
    for (int i = 0; i < m.data().length; i++) {
      m.data()[i] = rnd.nextDouble() - 0.5;
    }
    return m;
  }

  @Test
  void gemmVariantsAgreeWithLoops() {
    DenseMatrix a = random(5, 4, 1);
    DenseMatrix b = random(4, 3, 2);
    DenseMatrix c = a.multiply(b);
    for (int i = 0; i < 5; i++) {
      for (int j = 0; j < 3; j++) {
        double s = 0;
        for (int k = 0; k < 4; k++) {
          s += a.get(i, k) * b.get(k, j);
        }
        assertEquals(s, c.get(i, j), 1e-12);
      }
    }
    TestData.assertClose(c.data(), a.transpose().transposeMultiply(b).data(), 1e-12, "AᵀᵀB");
    TestData.assertClose(c.data(), a.multiplyTranspose(b.transpose()).data(), 1e-12, "A(Bᵀ)ᵀ");
    TestData.assertClose(a.multiplyTranspose(a).data(), a.gram().data(), 1e-12, "gram");
    DenseMatrix d = random(5, 3, 3);
    DenseMatrix sum = d.copy().addProductInPlace(true, false, -2.0, a.transpose(), b);
    TestData.assertClose(d.copy().addInPlace(-2.0, c).data(), sum.data(), 1e-12, "D − 2AB");
  }

  /**
   * The eigensolver's products over blocks that are never stacked equal those of the stacked
   * blocks, null and empty blocks holding no rows.
   */
  @Test
  void blockProductsEqualThoseOfTheStackedBlocks() {
    DenseMatrix[] v = {random(3, 40, 4), null, random(0, 40, 5), random(2, 40, 6)};
    DenseMatrix[] av = {random(3, 40, 7), null, random(0, 40, 8), random(2, 40, 9)};
    DenseMatrix stacked = OrthonormalRows.stack(v);
    DenseMatrix c = random(5, 4, 10);
    TestData.assertClose(c.transposeMultiply(stacked).data(),
        OrthonormalRows.combine(c, v).data(), 1e-12, "cᵀ S");
    TestData.assertClose(stacked.multiplyTranspose(OrthonormalRows.stack(av)).data(),
        OrthonormalRows.crossProducts(v, av).data(), 1e-12, "S ASᵀ");
    assertThrows(IllegalArgumentException.class,
        () -> OrthonormalRows.combine(random(4, 4, 11), v));
  }

  /**
   * Over blocks longer than a chunk the products are taken chunk by chunk on the driver's
   * cores: they equal the whole-block products to rounding, and the same bits come out with
   * one thread as with all of them (the chunks' sums are added in chunk order).
   */
  @Test
  void chunkedProductsEqualWholeBlockOnesOnAnyNumberOfThreads() throws Exception {
    int n = 3 * OrthonormalRows.CHUNK + 123;
    DenseMatrix[] v = {random(3, n, 12), random(2, n, 13)};
    DenseMatrix[] av = {random(3, n, 14), random(2, n, 15)};
    DenseMatrix q = OrthonormalRows.orthonormalize(random(2, n, 16));
    DenseMatrix c = random(5, 4, 17);
    DenseMatrix stacked = OrthonormalRows.stack(v);
    Callable<double[][]> products = () -> {
      DenseMatrix projected = v[0].copy();
      OrthonormalRows.project(projected, q);
      return new double[][] {OrthonormalRows.combine(c, v).data(),
          OrthonormalRows.crossProducts(v, av).data(), projected.data()};
    };
    double[][] all = products.call();
    TestData.assertClose(c.transposeMultiply(stacked).data(), all[0], 1e-12, "cᵀ S");
    TestData.assertClose(stacked.multiplyTranspose(OrthonormalRows.stack(av)).data(), all[1],
        1e-12, "S ASᵀ");
    DenseMatrix projected = v[0].copy().addProductInPlace(true, false, -1.0,
        q.multiplyTranspose(v[0]), q);
    TestData.assertClose(projected.data(), all[2], 1e-12, "v − (q vᵀ)ᵀ q");
    ForkJoinPool one = new ForkJoinPool(1);
    try {
      double[][] single = one.submit(products).get();
      for (int k = 0; k < all.length; k++) {
        assertArrayEquals(all[k], single[k], "product " + k);
      }
    } finally {
      one.shutdown();
    }
  }

  @Test
  void eigenpairsSatisfyDefinition() {
    DenseMatrix r = random(8, 8, 3);
    DenseMatrix a = r.multiplyTranspose(r);
    SymmetricEigen small = SymmetricEigen.smallest(a, 3);
    SymmetricEigen large = SymmetricEigen.largest(a, 2);
    for (SymmetricEigen e : new SymmetricEigen[] {small, large}) {
      DenseMatrix av = a.multiply(e.vectors());
      for (int j = 0; j < e.values().length; j++) {
        for (int i = 0; i < 8; i++) {
          assertEquals(e.values()[j] * e.vectors().get(i, j), av.get(i, j), 1e-10);
        }
      }
    }
    SymmetricEigen all = SymmetricEigen.smallest(a, 8);
    assertEquals(all.values()[0], small.values()[0], 1e-10);
    assertEquals(all.values()[7], large.values()[0], 1e-10);
    assertEquals(all.values()[6], large.values()[1], 1e-10);
  }

  @Test
  void solvesAgreeAndFallBackFromCholesky() {
    DenseMatrix r = random(70, 70, 4);
    DenseMatrix spd = r.multiplyTranspose(r).addDiagonalInPlace(1.0);
    DenseMatrix b = random(70, 3, 5);
    DenseMatrix x1 = LinearSolve.solveSymmetric(spd, b);
    TestData.assertClose(b.data(), spd.multiply(x1).data(), 1e-9, "SPD solve");
    DenseMatrix indefinite = r.copy().addInPlace(1.0, r.transpose());
    DenseMatrix x2 = LinearSolve.solveSymmetric(indefinite, b);
    TestData.assertClose(b.data(), indefinite.multiply(x2).data(), 1e-8, "indefinite solve");
  }

  @Test
  void woodburyPathEqualsFeatureSidePath() {
    DenseMatrix x = random(30, 12, 6);
    DenseMatrix targets = random(4, 12, 7);
    double[] d = new double[30];
    SplittableRandom rnd = new SplittableRandom(8);
    for (int i = 0; i < d.length; i++) {
      d[i] = 0.1 + rnd.nextDouble();
    }
    for (int blocks : new int[] {1, 3}) {
      RowBlockMatrix m = TestData.blocks(x, blocks);
      Shared<DenseMatrix> t = m.execution().share(targets);
      DenseMatrix features = new RegularizedRegression(m, false).solve(d, 0.7, t);
      DenseMatrix samples = new RegularizedRegression(m, true).solve(d, 0.7, t);
      TestData.assertClose(features.data(), samples.data(), 1e-9, "W, " + blocks + " blocks");
    }
    DenseMatrix a = x.gram().addDiagonalInPlace(scaled(d, 0.7));
    DenseMatrix w = new RegularizedRegression(RowBlockMatrix.local(x)).solve(d, 0.7,
        LocalPartitioned.DRIVER.share(targets));
    TestData.assertClose(x.multiplyTranspose(targets).data(), a.multiply(w).data(), 1e-9,
        "normal equations");
  }

  /** The residual from the normal equations is the one measured sample by sample. */
  @Test
  void ridgeResidualFollowsFromTheNormalEquations() {
    DenseMatrix x = random(6, 20, 14);
    DenseMatrix targets = random(3, 20, 15);
    double[] d = {0.5, 2, 1, 0.1, 3, 1};
    for (boolean sampleSide : new boolean[] {false, true}) {
      RowBlockMatrix m = TestData.blocks(x, 3);
      Shared<DenseMatrix> t = m.execution().share(targets);
      DenseMatrix w = new RegularizedRegression(m, sampleSide).solve(d, 0.7, t);
      DenseMatrix misfit = w.transposeMultiply(x);
      double direct = 0;
      double targetNorm = 0;
      for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 20; i++) {
          double r = misfit.get(k, i) - targets.get(k, i);
          direct += r * r;
          targetNorm += targets.get(k, i) * targets.get(k, i);
        }
      }
      assertEquals(direct, RegularizedRegression.residual(w, m.multiply(t), d, 0.7, targetNorm),
          1e-9 * targetNorm, sampleSide ? "sample side" : "feature side");
    }
  }

  @Test
  void featureSideSolveReusesItsWorkMatrixAcrossDiagonals() {
    DenseMatrix x = random(6, 20, 12);
    DenseMatrix rhs = random(6, 3, 13);
    DenseMatrix before = rhs.copy();
    RegularizedRegression regression = new RegularizedRegression(RowBlockMatrix.local(x), false);
    double[][] diagonals = {{1, 2, 3, 4, 5, 6}, {0.01, 50, 0.3, 7, 1e-4, 2}, {1, 1, 1, 1, 1, 1}};
    for (double[] d : diagonals) {
      DenseMatrix w = regression.solveFeatureSide(d, 0.7, rhs);
      DenseMatrix a = x.gram().addDiagonalInPlace(scaled(d, 0.7));
      TestData.assertClose(rhs.data(), a.multiply(w).data(), 1e-9,
          "normal equations for D = " + Arrays.toString(d));
    }
    TestData.assertClose(before.data(), rhs.data(), 0.0, "right-hand side unchanged");
  }

  @Test
  void rowBlockProductsMatchDenseOnes() {
    DenseMatrix x = random(6, 20, 9);
    DenseMatrix f = random(3, 20, 10);
    DenseMatrix w = random(6, 3, 11);
    RowBlockMatrix m = TestData.blocks(x, 4);
    TestData.assertClose(x.gram().data(), m.gram().data(), 1e-12, "gram");
    TestData.assertClose(x.multiplyTranspose(f).data(),
        m.multiply(m.execution().share(f)).data(), 1e-12, "X F");
    TestData.assertClose(w.transposeMultiply(x).data(), m.project(w).data(), 1e-12, "Wᵀ X");
    double[] mean = m.columnStatistics().means();
    RowBlockMatrix centered = m.centered();
    for (int j = 0; j < 6; j++) {
      double sum = 0;
      for (int i = 0; i < 20; i++) {
        sum += x.get(j, i);
      }
      assertEquals(sum / 20, mean[j], 1e-12);
      assertEquals(x.get(j, 5) - mean[j], centered.blocks().collect(b -> b).get(1).get(0, j),
          1e-12);
    }
  }

  @Test
  void aCenteredCopysDerivedStatisticsAreThoseOfAPassOverIt() {
    DenseMatrix x = random(6, 20, 12);
    for (int i = 0; i < 20; i++) {
      x.set(4, i, 3.5);
    }
    RowBlockMatrix m = TestData.blocks(x, 4);
    double[] factors = {2.0, 0.5, 1.0, 1e-3, 0.0, 7.0};
    for (double[] f : new double[][] {null, factors}) {
      ColumnStatistics derived = m.centered(f).columnStatistics();
      ColumnStatistics passed = m.centered(f).blocks()
          .aggregate(ColumnStatistics::of, ColumnStatistics::merge);
      for (int j = 0; j < 6; j++) {
        assertEquals(passed.variance(j), derived.variance(j), 1e-12 * passed.variance(j));
        assertEquals(passed.range(j), derived.range(j), 0.0, "extremes exactly as a pass");
        assertEquals(passed.isConstant(j), derived.isConstant(j));
        assertEquals(0.0, derived.means()[j]);
        assertEquals(0.0, passed.means()[j], 1e-12);
      }
      assertTrue(derived.isConstant(4), "the constant feature");
    }
  }

  private static double[] scaled(double[] d, double s) {
    double[] out = d.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] *= s;
    }
    return out;
  }
}
