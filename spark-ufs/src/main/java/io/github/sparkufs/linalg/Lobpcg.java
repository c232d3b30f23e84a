package io.github.sparkufs.linalg;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The smallest eigenpairs of a large sparse symmetric n × n operator by the locally optimal
 * block preconditioned conjugate gradient method (Knyazev 2001), with the basis selection of
 * Hetmaniuk and Lehoucq (2006): each iteration applies the operator once, to the block W of
 * preconditioned residuals {@code T (A X − X Θ)}, and takes the Ritz vectors of the span of
 * the current vectors X, W and the previous search directions P.
 *
 * <p>Unlike Chebyshev subspace iteration, whose filters span the whole interval up to the
 * largest eigenvalue, the iteration adapts to the spectrum it meets and takes a
 * preconditioner: with the inverse diagonal (Jacobi) the rate no longer depends on the few
 * largest diagonal entries, such as the degree of a hub in a kNN graph's Laplacian, which
 * grows with n.
 *
 * <p>Vectors follow the library's per-sample orientation ({@link BlockOperator}). The blocks X,
 * W and P are kept orthonormal and mutually orthogonal (W by projection and SVQB, P in the
 * small coefficient space), so each Rayleigh–Ritz step is a standard eigenproblem of at most
 * 3m × 3m; directions W loses to rounding (as residuals converge) are dropped. Optional
 * orthonormal constraint rows are deflated after every product.
 *
 * <p>Convergence: the residual {@code r = A x − θ x} of each wanted pair falls below
 * {@code tol · scale} in the preconditioner's norm {@code (Σ_i T_i r_i²)^{1/2}} (the Euclidean
 * norm without one). With Jacobi that is the residual of the scaled operator
 * {@code T^{1/2} A T^{1/2}}, whose spectrum lies in [0, 2] for a graph Laplacian D − A
 * whatever the degrees, so a tolerance means the same at every n.
 */
public final class Lobpcg {

  private static final Logger LOG = LoggerFactory.getLogger(Lobpcg.class);

  /**
   * How often a solve that runs long reports its progress at INFO (at 10⁷ samples one product is
   * a pass over the data, and a solve takes minutes); settable for tests.
   */
  static volatile long progressIntervalNanos = TimeUnit.SECONDS.toNanos(30);

  /** Indices of the blocks X, W and P in the basis and in its image. */
  private static final int X = 0;
  private static final int W = 1;
  private static final int P = 2;

  private final int numWanted;
  private final int blockSize;
  private final double tol;
  private final int maxIterations;

  /**
   * @param numWanted how many of the smallest eigenpairs to return, ≥ 1
   * @param blockSize vectors iterated together, ≥ numWanted (a few more speed the last
   *     wanted ones)
   * @param tol relative residual tolerance, > 0
   * @param maxIterations iteration budget (one product each), ≥ 1
   */
  public Lobpcg(int numWanted, int blockSize, double tol, int maxIterations) {
    if (numWanted < 1) {
      throw new IllegalArgumentException("numWanted must be >= 1, got " + numWanted);
    }
    if (blockSize < numWanted) {
      throw new IllegalArgumentException("blockSize must be >= numWanted = " + numWanted
          + ", got " + blockSize);
    }
    if (!(tol > 0)) {
      throw new IllegalArgumentException("tol must be > 0, got " + tol);
    }
    if (maxIterations < 1) {
      throw new IllegalArgumentException("maxIterations must be >= 1, got " + maxIterations);
    }
    this.numWanted = numWanted;
    this.blockSize = blockSize;
    this.tol = tol;
    this.maxIterations = maxIterations;
  }

  /**
   * Runs the iteration.
   *
   * @param op the symmetric operator
   * @param n the dimension
   * @param preconditioner the positive weights T of a diagonal preconditioner (for Jacobi,
   *     the inverse diagonal of the operator), or null for none
   * @param scale the residual tolerance's unit, > 0: a bound on the spectrum of
   *     {@code T^{1/2} A T^{1/2}} (of A without a preconditioner)
   * @param constraints q × n orthonormal rows to deflate, or null
   * @param initial start vectors as rows (up to blockSize of them; random rows fill the rest),
   *     or null
   * @param seed seeds the random start vectors
   */
  public SmallestEigenpairs smallest(BlockOperator op, int n, double[] preconditioner,
      double scale, DenseMatrix constraints, DenseMatrix initial, long seed) {
    int free = n - (constraints == null ? 0 : constraints.rows());
    if (blockSize > free) {
      throw new IllegalArgumentException("block of " + blockSize + " vectors in a space of "
          + "dimension " + free);
    }
    if (!(scale > 0) || Double.isInfinite(scale)) {
      throw new IllegalArgumentException("scale must be finite and > 0, got " + scale);
    }
    if (preconditioner != null) {
      if (preconditioner.length != n) {
        throw new IllegalArgumentException("preconditioner of length " + preconditioner.length
            + " for dimension " + n);
      }
      for (int i = 0; i < n; i++) {
        if (!(preconditioner[i] > 0) || Double.isInfinite(preconditioner[i])) {
          throw new IllegalArgumentException("preconditioner weight " + i
              + " must be finite and > 0, got " + preconditioner[i]);
        }
      }
    }
    // The basis [X; W; P] and its image under A, as separate blocks: at n = 10⁷ one block of
    // 14 vectors is 1.1 GB of the driver's heap, so none is stacked or copied, and each old one
    // is dropped as soon as the next is built (at most eight blocks are held at once).
    DenseMatrix[] basis = new DenseMatrix[3];
    DenseMatrix[] images = new DenseMatrix[3];
    basis[X] = OrthonormalRows.start(blockSize, n, constraints, initial,
        new SplittableRandom(seed));
    images[X] = OrthonormalRows.image(op, basis[X], constraints);
    int products = 1;
    SymmetricEigen ritz = rayleighRitz(basis, images);
    basis = next(ritz.vectors(), null, basis);
    images = next(ritz.vectors(), null, images);
    long start = System.nanoTime();
    long nextReport = start + progressIntervalNanos;
    for (int iteration = 0; ; iteration++) {
      double[] theta = ritz.values();
      DenseMatrix x = basis[X];
      DenseMatrix w = images[X].copy();
      double[] wd = w.data();
      double[] xd = x.data();
      double[] squares = new double[numWanted];
      for (int i = 0; i < n; i++) {
        for (int k = 0; k < blockSize; k++) {
          int at = i * blockSize + k;
          wd[at] -= theta[k] * xd[at];
          double t = preconditioner == null ? 1 : preconditioner[i];
          if (k < numWanted) {
            squares[k] += t * wd[at] * wd[at];
          }
          wd[at] *= t;
        }
      }
      double maxResidual = 0;
      for (double s : squares) {
        maxResidual = Math.max(maxResidual, Math.sqrt(s) / scale);
      }
      boolean converged = maxResidual <= tol;
      long now = System.nanoTime();
      if (now >= nextReport) {
        LOG.info(String.format(Locale.ROOT, "eigensolver, the %d smallest of dimension %d: %d "
            + "products, largest residual %.2e (tolerance %.1e), %.1f s", numWanted, n, products,
            maxResidual, tol, (now - start) / 1e9));
        nextReport = now + progressIntervalNanos;
      }
      if (!converged && iteration < maxIterations) {
        w = OrthonormalRows.orthonormalize(w, constraints, x, basis[P]);
      }
      if (converged || iteration == maxIterations || w.rows() == 0) {
        return new SmallestEigenpairs(theta, x, numWanted, products, converged, maxResidual);
      }
      basis[W] = w;
      images[W] = OrthonormalRows.image(op, w, constraints);
      products++;
      x = null;
      w = null;
      ritz = rayleighRitz(basis, images);
      DenseMatrix c = ritz.vectors();
      // P: the new vectors' parts along W and the old P, made orthonormal and orthogonal to the
      // new X in the coefficient space (the basis is orthonormal, so the same holds for
      // P = Qᵀ S).
      DenseMatrix ct = c.transpose();
      DenseMatrix q = ct.copy();
      for (int k = 0; k < blockSize; k++) {
        for (int j = 0; j < blockSize; j++) {
          q.set(k, j, 0.0);
        }
      }
      DenseMatrix qt = OrthonormalRows.orthonormalize(q, ct).transpose();
      basis = next(c, qt, basis);
      images = next(c, qt, images);
    }
  }

  /**
   * The next X ({@code cᵀ S}) and P ({@code qtᵀ S}, none without qt) from the blocks S of the
   * basis or of its image; W is left empty for the next residuals.
   */
  private static DenseMatrix[] next(DenseMatrix c, DenseMatrix qt, DenseMatrix[] s) {
    DenseMatrix[] out = new DenseMatrix[3];
    out[X] = OrthonormalRows.combine(c, s);
    out[P] = qt == null ? null : OrthonormalRows.combine(qt, s);
    return out;
  }

  /** The Ritz pairs of the orthonormal rows of the blocks v, given their images av under A. */
  private SymmetricEigen rayleighRitz(DenseMatrix[] v, DenseMatrix[] av) {
    DenseMatrix h = OrthonormalRows.crossProducts(v, av);
    OrthonormalRows.symmetrize(h);
    return SymmetricEigen.smallest(h, blockSize);
  }
}
