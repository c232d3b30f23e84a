package io.github.sparkufs.linalg;

import org.netlib.util.intW;

/** Dense linear solves on the driver by LAPACK. */
public final class LinearSolve {

  private LinearSolve() {}

  /**
   * Solves {@code a x = b} for symmetric positive definite {@code a} by Cholesky
   * ({@code dposv}); falls back to LU with partial pivoting ({@code dgesv}) when {@code a} is
   * not numerically positive definite. Inputs are not modified.
   */
  public static DenseMatrix solveSymmetric(DenseMatrix a, DenseMatrix b) {
    int n = requireSystem(a, b);
    DenseMatrix x = b.copy();
    intW info = new intW(0);
    LinalgBackend.lapack().dposv("U", n, b.cols(), a.data().clone(), n, x.data(), n, info);
    if (info.val == 0) {
      return x;
    }
    return solve(a, b);
  }

  /**
   * Solves {@code a x = b} for symmetric positive definite {@code a} by Cholesky ({@code dposv})
   * without copying: only the upper triangle of {@code a} is read, and it is overwritten by the
   * Cholesky factor; {@code b} is overwritten by the solution. Returns false, with both inputs
   * in an unspecified state, when {@code a} is not numerically positive definite.
   */
  public static boolean solveSymmetricInPlace(DenseMatrix a, DenseMatrix b) {
    int n = requireSystem(a, b);
    intW info = new intW(0);
    LinalgBackend.lapack().dposv("U", n, b.cols(), a.data(), n, b.data(), n, info);
    return info.val == 0;
  }

  /** Solves {@code a x = b} by LU with partial pivoting ({@code dgesv}). */
  public static DenseMatrix solve(DenseMatrix a, DenseMatrix b) {
    int n = requireSystem(a, b);
    DenseMatrix x = b.copy();
    intW info = new intW(0);
    LinalgBackend.lapack().dgesv(n, b.cols(), a.data().clone(), n, new int[n], x.data(), n, info);
    if (info.val != 0) {
      throw new ArithmeticException("singular " + a.shape() + " system (dgesv info = "
          + info.val + ")");
    }
    return x;
  }

  private static int requireSystem(DenseMatrix a, DenseMatrix b) {
    if (a.rows() != a.cols() || b.rows() != a.rows()) {
      throw new IllegalArgumentException("cannot solve " + a.shape() + " system with "
          + b.shape() + " right-hand side");
    }
    return a.rows();
  }
}
