package io.github.sparkufs.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.SparseRowMatrix;
import io.github.sparkufs.linalg.SymmetricEigen;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

public class SpectralEmbeddingTest {

  /** Sizes of the generated blobs: distinct, so the order of the components is by size alone. */
  private static final int[] BLOB_SIZES = {18, 30, 12, 24};
  /** Heat-kernel width: blobs of unit spread, 100 apart, share no weight at this width. */
  private static final double SIGMA = 1.0;
  private static final int K = 5;
  /** Vectors wanted: the 3 null directions of 4 components and 3 from the eigensolver. */
  private static final int C = 6;

  /**
   * Gaussian blobs of unit spread in d dimensions, blob b centred at {@code 100 b} on the first
   * coordinate, samples in the blobs' order, then (if {@code outlier}) one sample 10⁴ away from
   * them all: with k = 5 and σ = 1 its heat-kernel weights underflow to 0 (degree 0).
   */
  public static DenseMatrix blobs(int[] sizes, int d, boolean outlier, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int n = (outlier ? 1 : 0);
    for (int size : sizes) {
      n += size;
    }
    DenseMatrix x = new DenseMatrix(d, n);
    int i = 0;
    for (int b = 0; b < sizes.length; b++) {
      for (int s = 0; s < sizes[b]; s++, i++) {
        for (int f = 0; f < d; f++) {
          x.set(f, i, gaussian(rnd) + (f == 0 ? 100.0 * b : 0.0));
        }
      }
    }
    if (outlier) {
      x.set(1, i, 1e4);
    }
    return x;
  }

  private static double gaussian(SplittableRandom rnd) {
    return Math.sqrt(-2 * Math.log(1 - rnd.nextDouble())) * Math.cos(2 * Math.PI * rnd.nextDouble());
  }

  private static SparseRowMatrix graph(DenseMatrix x) {
    return HeatKernelGraph.build(RowBlockMatrix.local(x), K, SIGMA).weights();
  }

  private static SpectralEmbedding embed(DenseMatrix x, int numVectors, long seed) {
    return SpectralEmbedding.compute(RowBlockMatrix.local(x), graph(x), numVectors, seed);
  }

  /** The dense normalised Laplacian {@code I − A^{-1/2} S A^{-1/2}} (0 rows for degree 0). */
  private static DenseMatrix denseLaplacian(SparseRowMatrix s) {
    double[] deg = s.rowSums();
    int n = deg.length;
    DenseMatrix l = new DenseMatrix(n, n);
    for (int i = 0; i < n; i++) {
      l.set(i, i, 1);
      for (int j = 0; j < n; j++) {
        if (deg[i] > 0 && deg[j] > 0) {
          l.set(i, j, l.get(i, j) - s.get(i, j) / Math.sqrt(deg[i] * deg[j]));
        }
      }
    }
    return l;
  }

  /** Row k of a c × n matrix, with its sign flipped if needed to agree with {@code like}. */
  private static double[] row(DenseMatrix v, int k, double[] like) {
    double[] r = new double[v.cols()];
    double dot = 0;
    for (int i = 0; i < r.length; i++) {
      r[i] = v.get(k, i);
      dot += like == null ? 0 : r[i] * like[i];
    }
    if (dot < 0) {
      for (int i = 0; i < r.length; i++) {
        r[i] = -r[i];
      }
    }
    return r;
  }

  /**
   * Four components and an outlier: the 3 null vectors are the same, bit for bit, whatever the
   * eigensolver's seed (before the fixed basis the eigensolver's random start chose them: seed 2
   * moved an entry of the first from −.040 to −.076); the eigensolver's 3 vectors agree up to
   * sign within 1e-8 (measured max 1.7e-11 over seeds 2-10 against seed 1, at the default
   * tolerance 1e-11).
   */
  @Test
  void vectorsDoNotDependOnTheSeed() {
    DenseMatrix x = blobs(BLOB_SIZES, 3, true, 7);
    SpectralEmbedding first = embed(x, C, 1);
    DenseMatrix v1 = first.normalizedVectors();
    for (long seed = 2; seed <= 10; seed++) {
      SpectralEmbedding e = embed(x, C, seed);
      DenseMatrix v = e.normalizedVectors();
      assertArrayEquals(first.values(), e.values(), 1e-12, "seed " + seed + ": values");
      for (int k = 0; k < C; k++) {
        double[] expected = row(v1, k, null);
        double tol = k < BLOB_SIZES.length - 1 ? 0.0 : 1e-8;
        assertArrayEquals(expected, row(v, k, k < BLOB_SIZES.length - 1 ? null : expected), tol,
            "seed " + seed + ": vector " + k);
      }
    }
  }

  /**
   * The K − 1 = 3 null vectors solve ℒ v = 0 (the outlier, degree 0, is no component), every
   * returned vector is orthonormal to the others and to the trivial {@code A^{1/2} 1}, the
   * values are the dense eigendecomposition's, and the first null vector is the documented
   * contrast: its generalised vector is positive and constant on the largest blob, negative and
   * constant on the others.
   */
  @Test
  void nullVectorsSolveTheLaplacianAndAreOrthonormalToTheRest() {
    DenseMatrix x = blobs(BLOB_SIZES, 3, true, 7);
    SparseRowMatrix s = graph(x);
    int n = x.cols();
    double[] deg = s.rowSums();
    assertEquals(0.0, deg[n - 1], "the outlier has no edge");
    SpectralEmbedding e = SpectralEmbedding.compute(RowBlockMatrix.local(x), s, C, 3);
    DenseMatrix v = e.normalizedVectors();
    DenseMatrix laplacian = denseLaplacian(s);
    double[] values = e.values();
    for (int k = 0; k < C; k++) {
      boolean isNull = k < BLOB_SIZES.length - 1;
      assertEquals(isNull, values[k] == 0.0, "value " + k + " = " + values[k]);
      double[] vk = row(v, k, null);
      DenseMatrix lv = laplacian.multiply(new DenseMatrix(n, 1, vk));
      double trivial = 0;
      for (int i = 0; i < n; i++) {
        assertEquals(values[k] * vk[i], lv.get(i, 0), isNull ? 1e-14 : 1e-9,
            "(ℒ v)_" + i + " of vector " + k);
        trivial += Math.sqrt(deg[i]) * vk[i];
      }
      assertEquals(0.0, trivial, 1e-12, "vector " + k + " against the trivial one");
      // e_outlier is an eigenvector (value 1), so every vector below 1 is 0 there.
      assertEquals(0.0, vk[n - 1], isNull ? 0.0 : 1e-9, "vector " + k + " at the outlier");
      for (int m = 0; m < C; m++) {
        double dot = 0;
        for (int i = 0; i < n; i++) {
          dot += vk[i] * v.get(m, i);
        }
        assertEquals(k == m ? 1.0 : 0.0, dot, 1e-12, "vectors " + k + " and " + m);
      }
    }
    double[] dense = SymmetricEigen.smallest(laplacian, C + 1).values();
    for (int k = 0; k < C; k++) {
      assertEquals(dense[k + 1], values[k], 1e-10, "value " + k + " against the dense one");
    }
    DenseMatrix y = e.generalizedVectors();
    int largestStart = BLOB_SIZES[0];
    double positive = y.get(0, largestStart);
    double negative = y.get(0, 0);
    assertTrue(positive > 0 && negative < 0, positive + " and " + negative);
    int i = 0;
    for (int b = 0; b < BLOB_SIZES.length; b++) {
      for (int t = 0; t < BLOB_SIZES[b]; t++, i++) {
        assertEquals(b == 1 ? positive : negative, y.get(0, i), 1e-12, "y_1 at sample " + i);
      }
    }
  }

  /** Wanting no more than the null space needs no eigensolve and gives its first vectors. */
  @Test
  void theNullSpaceAloneNeedsNoEigensolve() {
    DenseMatrix x = blobs(BLOB_SIZES, 3, true, 7);
    SpectralEmbedding all = embed(x, C, 1);
    SpectralEmbedding two = embed(x, 2, 5);
    assertTrue(two.converged());
    assertArrayEquals(new double[2], two.values(), 0.0);
    for (int k = 0; k < 2; k++) {
      assertArrayEquals(row(all.normalizedVectors(), k, null),
          row(two.normalizedVectors(), k, null), 0.0, "vector " + k);
    }
  }

  /**
   * Permuting the samples permutes the vectors' entries: the null vectors within 1e-14
   * (measured max 1.1e-16; the volumes are summed in another order), the eigensolver's up to
   * sign within 1e-8 (measured max 1.1e-11). Before the fixed basis the null vectors did not
   * follow (the first entry of the first: .023 against .015), the eigensolver's random start
   * being drawn over the samples in their order.
   */
  @Test
  void permutingTheSamplesPermutesTheVectors() {
    DenseMatrix x = blobs(BLOB_SIZES, 3, true, 7);
    int n = x.cols();
    int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    DenseMatrix permuted = new DenseMatrix(x.rows(), n);
    for (int i = 0; i < n; i++) {
      for (int f = 0; f < x.rows(); f++) {
        permuted.set(f, i, x.get(f, perm[i]));
      }
    }
    SpectralEmbedding e = embed(x, C, 1);
    SpectralEmbedding p = embed(permuted, C, 1);
    assertArrayEquals(e.values(), p.values(), 1e-12);
    DenseMatrix v = e.normalizedVectors();
    DenseMatrix vp = p.normalizedVectors();
    for (int k = 0; k < C; k++) {
      double[] expected = new double[n];
      for (int i = 0; i < n; i++) {
        expected[i] = v.get(k, perm[i]);
      }
      boolean isNull = k < BLOB_SIZES.length - 1;
      assertArrayEquals(expected, row(vp, k, isNull ? null : expected), isNull ? 1e-14 : 1e-8,
          "vector " + k);
    }
  }

  /**
   * A connected graph has no null direction but the trivial one: values and vectors (up to
   * sign) are the dense eigendecomposition's, as before the fixed basis (the same eigensolve:
   * the one deflated component vector is the trivial vector).
   */
  @Test
  void connectedGraphGivesTheDenseEigenpairs() {
    DenseMatrix x = blobs(new int[] {60}, 3, false, 11);
    SparseRowMatrix s = graph(x);
    int n = x.cols();
    SpectralEmbedding e = SpectralEmbedding.compute(RowBlockMatrix.local(x), s, C, 1);
    SymmetricEigen dense = SymmetricEigen.smallest(denseLaplacian(s), C + 1);
    assertTrue(dense.values()[1] > 1e-6, "connected: λ_1 = " + dense.values()[1]);
    for (int k = 0; k < C; k++) {
      assertEquals(dense.values()[k + 1], e.values()[k], 1e-10, "value " + k);
      double[] expected = new double[n];
      for (int i = 0; i < n; i++) {
        expected[i] = dense.vectors().get(i, k + 1);
      }
      assertArrayEquals(expected, row(e.normalizedVectors(), k, expected), 1e-8, "vector " + k);
    }
  }
}
