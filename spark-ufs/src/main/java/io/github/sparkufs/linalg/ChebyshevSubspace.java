package io.github.sparkufs.linalg;

import java.util.SplittableRandom;

/**
 * The smallest eigenpairs of a large sparse symmetric n × n operator by Chebyshev-filtered
 * subspace iteration (Zhou and Saad 2007): a block of m vectors is repeatedly multiplied by the
 * degree-p Chebyshev polynomial of the operator that is bounded by 1 on the unwanted interval
 * {@code [a, b]} (a = the largest Ritz value of the block, b an upper bound of the spectrum) and
 * grows fast below a, then orthonormalised and rotated by a Rayleigh–Ritz step. Each
 * polynomial degree costs one application of the operator to the whole block — one pass over
 * the data when the operator is distributed — and the dense work (orthonormalisation,
 * Rayleigh–Ritz on m vectors) is done once per filter, so the cost is dominated by sparse
 * products. Warm starts (the previous eigenvectors of a slowly changing operator) make it
 * converge in one or two filters.
 *
 * <p>Vectors follow the library's per-sample orientation: a block of m vectors of length n is
 * an m × n {@link DenseMatrix}, one vector per ROW. An optional set of orthonormal constraint
 * vectors (for instance the normalised constant vector of a Laplacian) is deflated after every
 * product: the eigenpairs returned are those of the operator restricted to their orthogonal
 * complement.
 *
 * <p>Convergence: the residual {@code ||A x − θ x||} of each wanted pair falls below
 * {@code tol · b}.
 */
public final class ChebyshevSubspace {

  private final int numWanted;
  private final int blockSize;
  private final int degree;
  private final double tol;
  private final int maxFilters;

  /**
   * @param numWanted how many of the smallest eigenpairs to return, ≥ 1
   * @param blockSize vectors iterated together, > numWanted (the extra ones set the filter's
   *     cut-off; a few more than wanted speed convergence)
   * @param degree Chebyshev degree of each filter, ≥ 1
   * @param tol relative residual tolerance, > 0
   * @param maxFilters filter budget, ≥ 1
   */
  public ChebyshevSubspace(int numWanted, int blockSize, int degree, double tol,
      int maxFilters) {
    if (numWanted < 1) {
      throw new IllegalArgumentException("numWanted must be >= 1, got " + numWanted);
    }
    if (blockSize <= numWanted) {
      throw new IllegalArgumentException("blockSize must be > numWanted = " + numWanted
          + ", got " + blockSize);
    }
    if (degree < 1) {
      throw new IllegalArgumentException("degree must be >= 1, got " + degree);
    }
    if (!(tol > 0)) {
      throw new IllegalArgumentException("tol must be > 0, got " + tol);
    }
    if (maxFilters < 1) {
      throw new IllegalArgumentException("maxFilters must be >= 1, got " + maxFilters);
    }
    this.numWanted = numWanted;
    this.blockSize = blockSize;
    this.degree = degree;
    this.tol = tol;
    this.maxFilters = maxFilters;
  }

  /**
   * Runs the iteration.
   *
   * @param op the symmetric operator
   * @param n the dimension
   * @param upperBound b ≥ the largest eigenvalue of the operator (a Gershgorin bound, say)
   * @param constraints q × n orthonormal rows to deflate, or null
   * @param initial start vectors as rows (up to blockSize of them; random rows fill the rest),
   *     or null
   * @param seed seeds the random start vectors
   */
  public SmallestEigenpairs smallest(BlockOperator op, int n, double upperBound,
      DenseMatrix constraints, DenseMatrix initial, long seed) {
    int free = n - (constraints == null ? 0 : constraints.rows());
    if (blockSize > free) {
      throw new IllegalArgumentException("block of " + blockSize + " vectors in a space of "
          + "dimension " + free);
    }
    if (!(upperBound > 0) || Double.isInfinite(upperBound)) {
      throw new IllegalArgumentException("upper bound must be finite and > 0, got "
          + upperBound);
    }
    DenseMatrix v = OrthonormalRows.start(blockSize, n, constraints, initial,
        new SplittableRandom(seed));
    int products = 0;
    DenseMatrix av = OrthonormalRows.image(op, v, constraints);
    products++;
    int filters = 0;
    while (true) {
      DenseMatrix h = v.multiplyTranspose(av);
      OrthonormalRows.symmetrize(h);
      SymmetricEigen eig = SymmetricEigen.smallest(h, blockSize);
      double[] theta = eig.values();
      v = OrthonormalRows.combine(eig.vectors(), v);
      av = OrthonormalRows.combine(eig.vectors(), av);
      double maxResidual = 0;
      for (int k = 0; k < numWanted; k++) {
        double r = 0;
        for (int i = 0; i < n; i++) {
          double d = av.data()[i * blockSize + k] - theta[k] * v.data()[i * blockSize + k];
          r += d * d;
        }
        maxResidual = Math.max(maxResidual, Math.sqrt(r) / upperBound);
      }
      boolean converged = maxResidual <= tol;
      if (converged || filters == maxFilters) {
        return new SmallestEigenpairs(theta, v, numWanted, products, converged, maxResidual);
      }
      double cut = theta[blockSize - 1];
      if (!(cut < upperBound)) {
        throw new IllegalArgumentException("upper bound " + upperBound
            + " is below a Ritz value " + cut);
      }
      v = filter(op, v, av, constraints, cut, upperBound, theta[0]);
      products += degree - 1;
      v = OrthonormalRows.orthonormalize(v, constraints);
      if (v.rows() < blockSize) {
        v = OrthonormalRows.refill(v, blockSize, constraints,
            new SplittableRandom(seed + filters + 1));
      }
      av = OrthonormalRows.image(op, v, constraints);
      products++;
      filters++;
    }
  }

  /**
   * The scaled three-term Chebyshev recurrence of Zhou and Saad (2007, Algorithm 3.2): maps
   * {@code [cut, upper]} into [−1, 1] and scales so that the value at {@code lowest} stays
   * about 1. {@code av} is the operator applied to {@code v} (saves the first product).
   */
  private DenseMatrix filter(BlockOperator op, DenseMatrix v, DenseMatrix av,
      DenseMatrix constraints, double cut, double upper, double lowest) {
    double e = (upper - cut) / 2;
    double c = (upper + cut) / 2;
    double sigma = e / (lowest - c);
    double tau = 2 / sigma;
    DenseMatrix prev = v;
    DenseMatrix y = av.copy().addInPlace(-c, v).scaleInPlace(sigma / e);
    for (int step = 2; step <= degree; step++) {
      double next = 1 / (tau - sigma);
      DenseMatrix ay = OrthonormalRows.image(op, y, constraints);
      DenseMatrix z = ay.addInPlace(-c, y).scaleInPlace(2 * next / e);
      z.addInPlace(-sigma * next, prev);
      prev = y;
      y = z;
      sigma = next;
    }
    return y;
  }
}
