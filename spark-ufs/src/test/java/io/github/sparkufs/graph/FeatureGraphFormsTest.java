package io.github.sparkufs.graph;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.SparseRowMatrix;
import io.github.sparkufs.testing.TestData;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FeatureGraphFormsTest {

  /** d × n data with about a third of the values zero, so that sparse blocks skip some. */
  private static DenseMatrix data(int d, int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix x = new DenseMatrix(d, n);
    for (int i = 0; i < x.data().length; i++) {
      x.data()[i] = rnd.nextDouble() < 0.3 ? 0.0 : rnd.nextDouble() * 2 - 1;
    }
    return x;
  }

  /**
   * A symmetric n × n graph, S + Sᵀ of a random S with about 4 edges per row, some of them
   * self-loops (the edge {i, i} is counted once in fᵀSf, every other twice).
   */
  private static SparseRowMatrix symmetricGraph(int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[][] idx = new int[n][4];
    double[][] val = new double[n][4];
    for (int i = 0; i < n; i++) {
      for (int t = 0; t < 4; t++) {
        idx[i][t] = t == 0 && i % 7 == 0 ? i : rnd.nextInt(n);
        val[i][t] = rnd.nextDouble();
      }
    }
    return SparseRowMatrix.fromRows(0, n, idx, val).plusTranspose();
  }

  /** The same samples in {@code blocks} consecutive blocks stored sparse. */
  private static RowBlockMatrix sparseBlocks(DenseMatrix x, int blocks) {
    List<RowBlock> out = new ArrayList<>();
    for (RowBlock b : TestData.blocks(x, blocks).blocks().collect(b -> b)) {
      out.add(new RowBlock(b.offset(), SparseRowMatrix.fromDense(b.columns().transpose())));
    }
    return RowBlockMatrix.local(out);
  }

  @Test
  void equalsTheDenseSumsForAnyBlocksDenseOrSparse() {
    // n = 300: five chunks of 64 samples in one block, so the chunked sums are exercised.
    int d = 6;
    int n = 300;
    DenseMatrix x = data(d, n, 1);
    SparseRowMatrix s = symmetricGraph(n, 2);
    double[] degree = s.rowSums();
    for (int i = 0; i < n; i++) {
      degree[i] += 0.5 + (i % 3);  // node weights other than the degrees, as self-loops add
    }
    double[] weightedSums = new double[d];
    double[] weightedSquares = new double[d];
    double[] squares = new double[d];
    double[] graphForms = new double[d];
    for (int j = 0; j < d; j++) {
      for (int i = 0; i < n; i++) {
        double f = x.get(j, i);
        weightedSums[j] += degree[i] * f;
        weightedSquares[j] += degree[i] * f * f;
        squares[j] += f * f;
        for (int p = s.rowStart(i); p < s.rowStart(i + 1); p++) {
          graphForms[j] += s.value(p) * f * x.get(j, s.column(p));
        }
      }
    }
    for (int blocks : new int[] {1, 3, 7}) {
      for (boolean sparse : new boolean[] {false, true}) {
        RowBlockMatrix m = sparse ? sparseBlocks(x, blocks) : TestData.blocks(x, blocks);
        FeatureGraphForms forms = FeatureGraphForms.compute(m, s, degree);
        String what = blocks + " blocks, sparse " + sparse;
        TestData.assertClose(weightedSums, forms.weightedSums(), 1e-12, what + ": fᵀD1");
        TestData.assertClose(weightedSquares, forms.weightedSquares(), 1e-12, what + ": fᵀDf");
        TestData.assertClose(squares, forms.squares(), 1e-12, what + ": fᵀf");
        TestData.assertClose(graphForms, forms.graphForms(), 1e-12, what + ": fᵀSf");
      }
    }
  }

  @Test
  void refusesAGraphOfAnotherSize() {
    DenseMatrix x = data(3, 20, 3);
    SparseRowMatrix s = symmetricGraph(19, 4);
    assertThrows(IllegalArgumentException.class,
        () -> FeatureGraphForms.compute(RowBlockMatrix.local(x), s, s.rowSums()));
  }
}
