package io.github.sparkufs.graph;

import io.github.sparkufs.linalg.BlockOperator;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.Lobpcg;
import io.github.sparkufs.linalg.SmallestEigenpairs;
import io.github.sparkufs.linalg.SparseRowMatrix;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The null space of a graph Laplacian, given by the graph's connected components, with a fixed
 * basis of it, so that a spectral method need not take whichever basis an eigensolver's random
 * start leads to. For a symmetric graph S of non-negative weights and a diagonal weight ω
 * (ω_i ≥ 0), the Laplacians served are those whose null vectors are {@code ω^{1/2} 1_C} over
 * the components C: the normalised {@code ℒ = I − A^{-1/2} S A^{-1/2}} with ω = A, the degrees
 * ({@link SpectralEmbedding}), and the unnormalised {@code L = A − S} with ω = 1 (FSASL's first
 * graph, RSFS's M). A component is a connected piece of the graph's positive weights among the
 * samples with {@code ω_i > 0}; a sample with {@code ω_i = 0} (for ℒ, one without an edge) is
 * in none, while with ω = 1 a sample without an edge is a component of its own (for L = A − S,
 * {@code L e_i = 0}).
 *
 * <p>The components are ordered by decreasing number of samples, ties by their first sample,
 * C_1, …, C_K, and, with {@code vol(C) = Σ_{i∈C} ω_i} and {@code R_k = C_k ∪ … ∪ C_K}, the
 * basis of the K − 1 null directions orthogonal to {@code ω^{1/2} 1} is
 * {@code v_k = ω^{1/2} y_k}, {@code y_k ∝ 1_{C_k} / vol(C_k) − 1_{R_{k+1}} / vol(R_{k+1})},
 * k = 1 … K − 1, normalised to {@code y_kᵀ ω y_k = 1}: the Gram–Schmidt orthogonalisation, in
 * the ω inner product, of the indicators {@code 1_{C_1}, …, 1_{C_{K−1}}} against 1
 * (Helmert-like contrasts). Each y_k is a two-valued cluster indicator, C_k against the smaller
 * components after it and 0 on the larger ones before it; taking the first vectors gives the
 * largest components one each. Nothing depends on a seed, and a permutation of the samples
 * permutes the vectors' entries, except in the order of components of equal size.
 */
public final class LaplacianNullSpace {

  private final int[] component;
  private final double[] weights;
  private final double[] volume;

  private LaplacianNullSpace(int[] component, double[] weights, double[] volume) {
    this.component = component;
    this.weights = weights;
    this.volume = volume;
  }

  /**
   * @param graph the symmetric graph S over n samples (all its rows)
   * @param weights ω, n values ≥ 0: S's degrees for ℒ, all 1 for {@code A − S}
   */
  public static LaplacianNullSpace of(SparseRowMatrix graph, double[] weights) {
    int n = weights.length;
    UnionFind pieces = new UnionFind(n);
    for (int i = 0; i < graph.numRows(); i++) {
      for (int p = graph.rowStart(i); p < graph.rowStart(i + 1); p++) {
        if (graph.value(p) > 0) {
          pieces.union(graph.firstRow() + i, graph.column(p));
        }
      }
    }
    int[] size = new int[n];
    int[] firstSample = new int[n];
    for (int i = n - 1; i >= 0; i--) {
      if (weights[i] > 0) {
        int root = pieces.find(i);
        size[root]++;
        firstSample[root] = i;
      }
    }
    int[] roots = IntStream.range(0, n).filter(r -> size[r] > 0).boxed()
        .sorted(Comparator.<Integer>comparingInt(r -> -size[r])
            .thenComparingInt(r -> firstSample[r]))
        .mapToInt(Integer::intValue).toArray();
    int[] number = new int[n];
    for (int k = 0; k < roots.length; k++) {
      number[roots[k]] = k;
    }
    int[] component = new int[n];
    double[] volume = new double[roots.length];
    for (int i = 0; i < n; i++) {
      component[i] = weights[i] > 0 ? number[pieces.find(i)] : -1;
      if (component[i] >= 0) {
        volume[component[i]] += weights[i];
      }
    }
    return new LaplacianNullSpace(component, weights.clone(), volume);
  }

  /** ω = 1 for every one of n samples: the weights of the unnormalised Laplacian. */
  public static double[] unitWeights(int n) {
    double[] ones = new double[n];
    Arrays.fill(ones, 1.0);
    return ones;
  }

  /** K, the number of components: the null space's dimension. */
  public int dimension() {
    return volume.length;
  }

  /**
   * The orthonormal vectors {@code ω^{1/2} 1_C / vol(C)^{1/2}} of the components, one per row
   * (K × n): a basis of the null space, to deflate from an eigensolver.
   */
  public DenseMatrix componentVectors() {
    int numComponents = volume.length;
    int n = component.length;
    DenseMatrix u = new DenseMatrix(numComponents, n);
    for (int i = 0; i < n; i++) {
      if (component[i] >= 0) {
        u.data()[i * numComponents + component[i]] =
            Math.sqrt(weights[i] / volume[component[i]]);
      }
    }
    return u;
  }

  /**
   * The {@code count} smallest eigenpairs, orthogonal to {@code ω^{1/2} 1}, of a Laplacian whose
   * null space this is: the first {@code min(K − 1, count)} vectors of the fixed basis
   * (eigenvalue 0), then the smallest non-zero eigenpairs, computed by {@link Lobpcg} with the K
   * component vectors deflated and {@code extra} more vectors in its block; no eigensolve when
   * {@code K − 1 ≥ count}.
   *
   * @param laplacian the Laplacian, applied to blocks of vectors
   * @param preconditioner the eigensolver's diagonal preconditioner, or null (see {@link Lobpcg})
   * @param scale the eigensolver's residual unit (see {@link Lobpcg})
   * @param seed seeds the eigensolver's random start
   */
  public Eigenpairs smallest(int count, BlockOperator laplacian, double[] preconditioner,
      double scale, int extra, double tol, int maxIterations, long seed) {
    int numNull = Math.min(dimension() - 1, count);
    int wanted = count - numNull;
    if (wanted == 0) {
      return new Eigenpairs(this, numNull, null);
    }
    int n = component.length;
    return new Eigenpairs(this, numNull, new Lobpcg(wanted,
        Math.min(wanted + extra, n - dimension()), tol, maxIterations).smallest(laplacian, n,
            preconditioner, scale, componentVectors(), null, seed));
  }

  /** What {@link #smallest} found: the fixed null directions first, then the eigensolver's. */
  public static final class Eigenpairs {
    private final LaplacianNullSpace nullSpace;
    private final int numNull;
    private final SmallestEigenpairs solved;

    private Eigenpairs(LaplacianNullSpace nullSpace, int numNull, SmallestEigenpairs solved) {
      this.nullSpace = nullSpace;
      this.numNull = numNull;
      this.solved = solved;
    }

    /** The eigenvalues, ascending: {@code min(K − 1, count)} zeros, then the eigensolver's. */
    public double[] values() {
      double[] rest = solved == null ? new double[0] : solved.values();
      double[] values = new double[numNull + rest.length];
      System.arraycopy(rest, 0, values, numNull, rest.length);
      return values;
    }

    /** The orthonormal eigenvectors, one per row (count × n). */
    public DenseMatrix vectors() {
      return nullSpace.basisThen(numNull, solved == null ? null : solved.vectors());
    }

    /** The vectors, then the eigensolver's extra Ritz vectors: the warm start of a next solve. */
    public DenseMatrix block() {
      return nullSpace.basisThen(numNull, solved == null ? null : solved.block());
    }

    /** Block products with the Laplacian (0 without an eigensolve). */
    public int products() {
      return solved == null ? 0 : solved.products();
    }

    /** Whether the eigensolver met its tolerance (true without an eigensolve). */
    public boolean converged() {
      return solved == null || solved.converged();
    }

    /** The eigensolver's largest relative residual (0 without an eigensolve). */
    public double maxResidual() {
      return solved == null ? 0 : solved.maxResidual();
    }
  }

  /**
   * The first {@code count} vectors of the fixed basis ({@code count ≤ K − 1}), then the rows
   * of {@code rest} (null for none), as the rows of one matrix. For component k (0-based) and
   * {@code R = vol(C_{k+1} ∪ … ∪ C_{K−1})}, {@code v_k} is
   * {@code (ω_i R / (vol(C_k) (vol(C_k) + R)))^{1/2}} on C_k,
   * {@code −(ω_i vol(C_k) / (R (vol(C_k) + R)))^{1/2}} on the later components and 0 on the
   * earlier ones: unit norm, orthogonal to {@code ω^{1/2} 1} and to each other.
   */
  public DenseMatrix basisThen(int count, DenseMatrix rest) {
    int numComponents = volume.length;
    if (count < 0 || count > numComponents - 1) {
      throw new IllegalArgumentException("count must be in [0, K - 1 = " + (numComponents - 1)
          + "], got " + count);
    }
    int n = component.length;
    int more = rest == null ? 0 : rest.rows();
    int rows = count + more;
    DenseMatrix vectors = new DenseMatrix(rows, n);
    double[] after = new double[numComponents];
    for (int k = numComponents - 2; k >= 0; k--) {
      after[k] = after[k + 1] + volume[k + 1];
    }
    for (int i = 0; i < n; i++) {
      int c = component[i];
      for (int k = 0; k < Math.min(c + 1, count); k++) {
        double total = volume[k] + after[k];
        vectors.data()[i * rows + k] = k == c
            ? Math.sqrt(weights[i] * after[k] / (volume[k] * total))
            : -Math.sqrt(weights[i] * volume[k] / (after[k] * total));
      }
      if (more > 0) {
        System.arraycopy(rest.data(), i * more, vectors.data(), i * rows + count, more);
      }
    }
    return vectors;
  }
}
