package io.github.sparkufs.linalg;

import static io.github.sparkufs.linalg.GraphLaplacians.operator;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.testing.LogCapture;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LobpcgTest {

  private static double[] inverseDiagonal(DenseMatrix a) {
    double[] t = new double[a.rows()];
    for (int i = 0; i < t.length; i++) {
      t[i] = 1 / a.get(i, i);
    }
    return t;
  }

  @Test
  void matchesDenseEigenDecompositionWithConstantDeflated() {
    int n = 300;
    int c = 6;
    DenseMatrix l = GraphLaplacians.laplacian(n, c, 1);
    DenseMatrix ones = new DenseMatrix(1, n);
    Arrays.fill(ones.data(), 1 / Math.sqrt(n));
    for (double[] preconditioner : new double[][] {null, inverseDiagonal(l)}) {
      int[] count = {0};
      SmallestEigenpairs r = new Lobpcg(c, c + 2, 1e-10, 500).smallest(
          operator(SparseRowMatrix.fromDense(l), count), n, preconditioner,
          GraphLaplacians.gershgorin(l), ones, null, 7);
      assertTrue(r.converged(), "not converged, residual " + r.maxResidual());
      assertEquals(r.products(), count[0]);
      GraphLaplacians.assertDeflatedEigenpairs(l, ones, c, r);
    }
  }

  /** A graph Laplacian D − A on planted groups with a few hubs of 50 times the usual degree. */
  private static DenseMatrix hubLaplacian(int n, int groups, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix l = new DenseMatrix(n, n);
    for (int i = 0; i < n; i++) {
      int edges = i % 50 == 0 ? 150 : 3;
      for (int e = 0; e < edges; e++) {
        int j = rnd.nextDouble() < 0.95 ? (i % groups) + groups * rnd.nextInt(n / groups)
            : rnd.nextInt(n);
        if (j == i) {
          continue;
        }
        GraphLaplacians.addEdge(l, i, j, 0.5 + rnd.nextDouble());
      }
    }
    return l;
  }

  @Test
  void jacobiPreconditionerNeedsFewerProductsWhenDegreesVary() {
    int n = 400;
    int c = 4;
    DenseMatrix l = hubLaplacian(n, c, 5);
    DenseMatrix ones = new DenseMatrix(1, n);
    Arrays.fill(ones.data(), 1 / Math.sqrt(n));
    SparseRowMatrix a = SparseRowMatrix.fromDense(l);
    Lobpcg solver = new Lobpcg(c, c + 2, 1e-9, 2000);
    int[] plain = {0};
    SmallestEigenpairs r1 = solver.smallest(operator(a, plain), n, null, 1.0, ones, null, 3);
    int[] jacobi = {0};
    SmallestEigenpairs r2 = solver.smallest(operator(a, jacobi), n, inverseDiagonal(l), 1.0,
        ones, null, 3);
    assertTrue(r1.converged() && r2.converged());
    assertArrayEquals(r1.values(), r2.values(), 1e-7);
    assertTrue(jacobi[0] < plain[0] / 2, "Jacobi took " + jacobi[0] + " products, plain "
        + plain[0]);
  }

  @Test
  void warmStartConvergesInFewerProducts() {
    int n = 200;
    int c = 4;
    DenseMatrix l = GraphLaplacians.laplacian(n, c, 2);
    Lobpcg solver = new Lobpcg(c, c + 2, 1e-9, 500);
    int[] cold = {0};
    SmallestEigenpairs r1 = solver.smallest(operator(SparseRowMatrix.fromDense(l), cold), n,
        inverseDiagonal(l), 1.0, null, null, 3);
    assertArrayEquals(SymmetricEigen.smallest(l, c).values(), r1.values(), 1e-8);
    DenseMatrix l2 = GraphLaplacians.perturbed(l);
    int[] warm = {0};
    SmallestEigenpairs r2 = solver.smallest(operator(SparseRowMatrix.fromDense(l2), warm), n,
        inverseDiagonal(l2), 1.0, null, r1.block(), 4);
    assertArrayEquals(SymmetricEigen.smallest(l2, c).values(), r2.values(), 1e-8);
    assertTrue(warm[0] < cold[0] / 2, "warm start took " + warm[0] + " products, cold "
        + cold[0]);
  }

  /** A long solve says in the log how far it is (here every iteration, the interval at 0). */
  @Test
  void longSolveLogsItsProgress() {
    int n = 200;
    DenseMatrix l = GraphLaplacians.laplacian(n, 4, 3);
    DenseMatrix ones = new DenseMatrix(1, n);
    Arrays.fill(ones.data(), 1 / Math.sqrt(n));
    long interval = Lobpcg.progressIntervalNanos;
    Lobpcg.progressIntervalNanos = 0;
    int[] count = {0};
    List<String> lines;
    try {
      lines = LogCapture.infoLines(Lobpcg.class, () -> new Lobpcg(4, 6, 1e-8, 500).smallest(
          operator(SparseRowMatrix.fromDense(l), count), n, null, GraphLaplacians.gershgorin(l),
          ones, null, 1));
    } finally {
      Lobpcg.progressIntervalNanos = interval;
    }
    assertEquals(count[0], lines.size(), lines.toString());
    assertTrue(lines.get(0).startsWith("eigensolver, the 4 smallest of dimension 200: 1 products, "
        + "largest residual "), lines.get(0));
  }

  @Test
  void rejectsBadArgumentsNamingTheValue() {
    assertThrows(IllegalArgumentException.class, () -> new Lobpcg(3, 2, 1e-6, 10));
    int n = 50;
    DenseMatrix l = GraphLaplacians.laplacian(n, 2, 4);
    double[] t = inverseDiagonal(l);
    t[7] = Double.NaN;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new Lobpcg(2, 3, 1e-6, 10).smallest(operator(SparseRowMatrix.fromDense(l),
            new int[1]), n, t, 1.0, null, null, 1));
    assertTrue(e.getMessage().contains("weight 7") && e.getMessage().contains("NaN"),
        e.getMessage());
  }
}
