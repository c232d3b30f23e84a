package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.BlockOperator;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.Execution;
import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.Shared;
import io.github.sparkufs.linalg.SparseRowMatrix;

/**
 * The smallest non-trivial eigenpairs of a graph's normalised Laplacian
 * {@code ℒ = I − A^{-1/2} S A^{-1/2}} (A the degree matrix), equivalently of the generalised
 * problem {@code L y = λ A y} with {@code L = A − S} and {@code y = A^{-1/2} v}: the spectral
 * embedding of MCFS (Cai, Zhang and He, KDD 2010, Eq. 2) and the spectrum of SPEC's φ3 (Zhao
 * and Liu, ICML 2007). The trivial pair ({@code λ = 0}, {@code v ∝ A^{1/2} 1}) is left out, so
 * the values returned are those of its orthogonal complement.
 *
 * <p>The null space. ℒ's null space is spanned by the vectors {@code A^{1/2} 1_C} of the
 * graph's connected components C (the samples with an edge; {@code L y = 0} holds exactly for
 * the y constant on each component), so a graph in K components has the eigenvalue 0 K times,
 * and an eigensolver would return a basis of that space chosen by its random start. The
 * returned vectors are therefore a fixed basis of the K − 1 null directions orthogonal to the
 * trivial one ({@link LaplacianNullSpace} with ω = A), then the smallest non-zero eigenpairs,
 * which the eigensolver computes with all K component vectors deflated. The fixed basis: the
 * components ordered by decreasing number of samples (ties by their first sample), C_1, …,
 * C_K, and for k = 1 … K − 1, with {@code vol} the sum of degrees and
 * {@code R_k = C_k ∪ … ∪ C_K}, {@code y_k ∝ 1_{C_k} / vol(C_k) − 1_{R_{k+1}} / vol(R_{k+1})},
 * A-normalised: the Gram–Schmidt orthogonalisation, in the A inner product of Eq. 2's
 * constraint, of the indicators {@code 1_{C_1}, …, 1_{C_{K−1}}} against 1 (Helmert-like
 * contrasts). Each y_k is a two-valued cluster indicator, the kind of solution Eq. 2 relaxes:
 * C_k against the smaller components after it, 0 on the larger ones before it. With more
 * components than vectors wanted, the largest components get one each. The result depends
 * neither on the seed nor on the order of the samples (a permutation of the samples permutes
 * the vectors' entries), except in the order of components of equal size.
 *
 * <p>Computed by {@link io.github.sparkufs.linalg.Lobpcg} (ℒ's diagonal is 1, so it needs no
 * preconditioner) through {@link LaplacianNullSpace#smallest}; each product
 * {@code v ↦ v − Ŝ v} runs over the row blocks of the normalised adjacency Ŝ aligned with the
 * data blocks (one pass, one job when distributed), so no n × n matrix is ever dense. ℒ's
 * spectrum lies in [0, 2]. When the null space alone fills the vectors wanted, there is no
 * eigensolve.
 *
 * <p>A sample without an edge (a gross outlier, every heat-kernel weight to its neighbours
 * underflowing to 0) has a zero row in Ŝ, so {@code e_i} is an eigenvector of ℒ with
 * eigenvalue 1 and every eigenvector below 1 is 0 at i: its embedding coordinates are 0, where
 * {@code L y = λ A y} leaves them undetermined ({@code A_ii = 0}). It is no component of the
 * null space ({@code A^{1/2} 1_{i}} is 0).
 */
public final class SpectralEmbedding {

  /**
   * Relative residual tolerance of the eigensolver by default (near working precision; a caller
   * whose use of the vectors needs less passes its own to
   * {@link #compute(RowBlockMatrix, SparseRowMatrix, int, double, long)}).
   */
  static final double TOL = 1e-11;
  /** Vectors iterated beyond the wanted ones (fewer when n is small). */
  static final int EXTRA = 5;
  /** Iteration budget (one product each). */
  static final int MAX_ITERATIONS = 2000;

  private final double[] values;
  private final DenseMatrix vectors;
  private final double[] degrees;
  private final boolean converged;

  private SpectralEmbedding(double[] values, DenseMatrix vectors, double[] degrees,
      boolean converged) {
    this.values = values;
    this.vectors = vectors;
    this.degrees = degrees;
    this.converged = converged;
  }

  /**
   * @param x the data, whose blocks the graph's rows follow
   * @param graph the symmetric graph S over x's samples (some degree > 0)
   * @param numVectors how many non-trivial eigenpairs, 1 ≤ numVectors ≤ n − 2
   * @param seed seeds the eigensolver's random start
   */
  public static SpectralEmbedding compute(RowBlockMatrix x, SparseRowMatrix graph, int numVectors,
      long seed) {
    return compute(x, graph, numVectors, TOL, seed);
  }

  /**
   * @param x the data, whose blocks the graph's rows follow
   * @param graph the symmetric graph S over x's samples (some degree > 0)
   * @param numVectors how many non-trivial eigenpairs, 1 ≤ numVectors ≤ n − 2
   * @param tol the eigensolver's relative residual tolerance, > 0: each pair's residual
   *     {@code ||ℒ v − λ v||} ends below {@code 2 tol} (ℒ's spectrum lies in [0, 2])
   * @param seed seeds the eigensolver's random start
   */
  public static SpectralEmbedding compute(RowBlockMatrix x, SparseRowMatrix graph, int numVectors,
      double tol, long seed) {
    Problem problem = Problem.of(graph, numVectors);
    if (problem.nullSpaceSuffices()) {
      return problem.nullSpaceBasis();
    }
    double[] inverseRoot = new double[problem.degrees.length];
    for (int i = 0; i < inverseRoot.length; i++) {
      inverseRoot[i] = inverseRoot(problem.degrees[i]);
    }
    Execution ex = x.execution();
    Partitioned<SparseRowMatrix> rows;
    try (Shared<SparseRowMatrix> normalized = ex.share(graph.scale(inverseRoot, inverseRoot))) {
      rows = x.blocks().map(b -> normalized.get().rows(b.offset(), b.numRows()));
    }
    try (rows) {
      return problem.solve(ex, rows, tol, seed);
    }
  }

  /**
   * As {@link #compute(RowBlockMatrix, SparseRowMatrix, int, double, long)}, from the
   * normalised adjacency {@code A^{-1/2} S A^{-1/2}} already cut into the rows of the data's
   * blocks (as {@link HeatKernelGraph#normalizedAdjacency} gives it), for a caller that holds
   * them anyway; they are read, not closed.
   *
   * @param ex the execution the rows live in
   * @param graph the symmetric graph S (some degree > 0)
   * @param normalizedRows each data block's rows of {@code A^{-1/2} S A^{-1/2}}, in block order
   */
  public static SpectralEmbedding compute(Execution ex, SparseRowMatrix graph,
      Partitioned<SparseRowMatrix> normalizedRows, int numVectors, double tol, long seed) {
    Problem problem = Problem.of(graph, numVectors);
    return problem.nullSpaceSuffices() ? problem.nullSpaceBasis()
        : problem.solve(ex, normalizedRows, tol, seed);
  }

  /** The graph's degrees and null space, and the number of vectors wanted (checked). */
  private record Problem(double[] degrees, LaplacianNullSpace nullSpace, int numVectors) {

    static Problem of(SparseRowMatrix graph, int numVectors) {
      int n = graph.numRows();
      if (numVectors < 1 || numVectors > n - 2) {
        throw new IllegalArgumentException("numVectors must be in [1, n - 2 = " + (n - 2)
            + "], got " + numVectors);
      }
      double[] degrees = graph.rowSums();
      LaplacianNullSpace nullSpace = LaplacianNullSpace.of(graph, degrees);
      if (nullSpace.dimension() == 0) {
        throw new IllegalArgumentException("the graph over the " + n + " samples has no edge");
      }
      return new Problem(degrees, nullSpace, numVectors);
    }

    /** Whether the null space's fixed basis alone fills the vectors wanted (no eigensolve). */
    boolean nullSpaceSuffices() {
      return nullSpace.dimension() - 1 >= numVectors;
    }

    SpectralEmbedding nullSpaceBasis() {
      return new SpectralEmbedding(new double[numVectors], nullSpace.basisThen(numVectors, null),
          degrees, true);
    }

    /** The eigensolve, each product {@code v ↦ v − Ŝ v} one pass over the rows of Ŝ. */
    SpectralEmbedding solve(Execution ex, Partitioned<SparseRowMatrix> normalizedRows,
        double tol, long seed) {
      BlockOperator laplacian = v -> {
        try (Shared<DenseMatrix> sv = ex.share(v)) {
          return v.copy().addInPlace(-1.0, RowBlockMatrix.concatColumns(v.rows(),
              normalizedRows.collect(g -> g.multiply(sv.get()))));
        }
      };
      ex.describe("eigenvectors of the normalised Laplacian");
      LaplacianNullSpace.Eigenpairs eig = nullSpace.smallest(numVectors, laplacian, null, 2.0,
          EXTRA, tol, MAX_ITERATIONS, seed);
      return new SpectralEmbedding(eig.values(), eig.vectors(), degrees, eig.converged());
    }
  }

  /** {@code A_ii^{-1/2}}, or 0 for a sample without an edge. */
  private static double inverseRoot(double degree) {
    return degree > 0 ? 1.0 / Math.sqrt(degree) : 0.0;
  }

  /**
   * The eigenvalues λ_1 ≤ … ≤ λ_c of ℒ (the trivial λ_0 = 0 left out): K − 1 zeros first for a
   * graph in K components (exactly 0), then the eigensolver's.
   */
  public double[] values() {
    return values.clone();
  }

  /**
   * Orthonormal eigenvectors v of ℒ, one per row (c × n): the fixed null basis first, then the
   * eigensolver's.
   */
  public DenseMatrix normalizedVectors() {
    return vectors.copy();
  }

  /** The generalised eigenvectors {@code y = A^{-1/2} v} of {@code L y = λ A y}, one per row. */
  public DenseMatrix generalizedVectors() {
    DenseMatrix y = vectors.copy();
    int c = y.rows();
    for (int i = 0; i < y.cols(); i++) {
      double s = inverseRoot(degrees[i]);
      for (int k = 0; k < c; k++) {
        y.data()[i * c + k] *= s;
      }
    }
    return y;
  }

  /** The degrees A_ii of the graph. */
  public double[] degrees() {
    return degrees.clone();
  }

  /** Whether the eigensolver met its tolerance within its budget (true without an eigensolve). */
  public boolean converged() {
    return converged;
  }
}
