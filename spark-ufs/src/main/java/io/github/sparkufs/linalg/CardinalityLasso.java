package io.github.sparkufs.linalg;

import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * The LASSO {@code min_a ½ ||y − Xᵀ a||² + λ ||a||₁} with its weight λ set by a cardinality:
 * the LARS–LASSO homotopy (Efron et al. 2004) followed from {@code a = 0} down to the λ at which
 * an (m+1)-th variable would enter, so the solution has at most m non-zeros (MCFS, Cai, Zhang
 * and He, KDD 2010, Eq. 4: "the cardinality constraint ... can be solved by LARS"). It stops
 * earlier at λ = 0 (the least-squares end of the path) when fewer variables suffice.
 *
 * <p>Works on the Gram form only: {@code G = X Xᵀ} (d × d) and {@code b = X y} (d), so the n
 * samples enter through two aggregates and the path runs on the driver. Each step costs
 * {@code O(d |A|)} for the correlations of the current active set A plus an {@code O(|A|²)}
 * update of the active Gram's Cholesky factor; a variable whose column the active ones already
 * span (d > n, or duplicate features) is skipped until a variable leaves. The path reads G's
 * diagonal and the columns of the variables that enter, so G may also be given by a d × r
 * factor F ({@code G = F Fᵀ}, {@link #ofFactor}): each entering column then costs
 * {@code O(d r)} and no d × d matrix is held, the cheaper form when r = n is below d.
 */
public final class CardinalityLasso {

  /** Pivots below this fraction of the variable's Gram diagonal mark a dependent variable. */
  private static final double DEPENDENT_PIVOT = 1e-10;

  private final int d;
  private final double[] diagonal;
  private final IntFunction<double[]> column;

  private CardinalityLasso(double[] diagonal, IntFunction<double[]> column) {
    this.d = diagonal.length;
    this.diagonal = diagonal;
    this.column = column;
  }

  /** @param gram {@code X Xᵀ}, symmetric positive semi-definite (not copied) */
  public CardinalityLasso(DenseMatrix gram) {
    this(diagonalOf(gram), j -> Arrays.copyOfRange(gram.data(), j * gram.rows(),
        (j + 1) * gram.rows()));
  }

  private static double[] diagonalOf(DenseMatrix gram) {
    if (gram.rows() != gram.cols()) {
      throw new IllegalArgumentException("Gram matrix must be square, got " + gram.shape());
    }
    double[] diag = new double[gram.rows()];
    for (int j = 0; j < diag.length; j++) {
      diag[j] = gram.get(j, j);
    }
    return diag;
  }

  /**
   * The LASSO on the Gram {@code G = F Fᵀ} of a d × r factor F (not copied), whose columns are
   * formed as variables enter: {@code G e_j = F (Fᵀ e_j)}.
   */
  public static CardinalityLasso ofFactor(DenseMatrix factor) {
    return new CardinalityLasso(factor.rowNormsSquared(), j -> {
      DenseMatrix row = new DenseMatrix(factor.cols(), 1);
      for (int t = 0; t < factor.cols(); t++) {
        row.data()[t] = factor.get(j, t);
      }
      return factor.multiply(row).data();
    });
  }

  /**
   * The coefficients a (length d) at the end of the path segment with at most
   * {@code maxNonZeros} variables.
   *
   * @param xy {@code X y}, length d
   * @param maxNonZeros m ≥ 1
   */
  public double[] solve(double[] xy, int maxNonZeros) {
    if (xy.length != d) {
      throw new IllegalArgumentException("X y of length " + xy.length + " for a " + d + " x " + d
          + " Gram matrix");
    }
    if (maxNonZeros < 1) {
      throw new IllegalArgumentException("maxNonZeros must be >= 1, got " + maxNonZeros);
    }
    int cap = Math.min(maxNonZeros, d);
    double[] a = new double[d];
    double[] corr = xy.clone();
    double level = 0;
    int first = -1;
    for (int j = 0; j < d; j++) {
      if (Math.abs(corr[j]) > level && diagonal[j] > 0) {
        level = Math.abs(corr[j]);
        first = j;
      }
    }
    if (first < 0) {
      return a;
    }
    int[] active = new int[cap];
    double[][] columns = new double[cap][];
    double[] sign = new double[cap];
    double[] chol = new double[cap * cap];
    double[] w = new double[cap];
    double[] along = new double[d];
    boolean[] isActive = new boolean[d];
    boolean[] blocked = new boolean[d];
    int size = 0;
    int entering = first;
    int justDropped = -1;
    int maxSteps = 20 * (cap + 1) + d;
    for (int steps = 0; ; steps++) {
      if (steps > maxSteps) {
        throw new ArithmeticException("LARS did not reach " + maxNonZeros + " variables in "
            + maxSteps + " steps");
      }
      if (entering >= 0) {
        double[] entered = column.apply(entering);
        if (appendCholesky(active, size, entering, entered, chol, cap)) {
          active[size] = entering;
          columns[size] = entered;
          sign[size] = Math.signum(corr[entering]);
          isActive[entering] = true;
          size++;
        } else {
          blocked[entering] = true;
        }
        entering = -1;
      }
      if (size == 0) {
        return a;
      }
      // Equiangular direction: G_AA w = sign_A; the correlations move by G w.
      System.arraycopy(sign, 0, w, 0, size);
      TriangularSolve.cholesky(chol, size, cap, w);
      Arrays.fill(along, 0);
      for (int p = 0; p < size; p++) {
        double[] gp = columns[p];
        double wp = w[p];
        for (int j = 0; j < d; j++) {
          along[j] += wp * gp[j];
        }
      }
      double gamma = level;
      int enter = -1;
      int leave = -1;
      for (int j = 0; j < d; j++) {
        if (isActive[j] || blocked[j] || j == justDropped || diagonal[j] <= 0) {
          continue;
        }
        double step = Lasso.joiningStep(level, corr[j], along[j]);
        if (step < gamma) {
          gamma = step;
          enter = j;
        }
      }
      for (int p = 0; p < size; p++) {
        double step = -a[active[p]] / w[p];
        if (step > 0 && step < gamma) {
          gamma = step;
          leave = p;
          enter = -1;
        }
      }
      for (int p = 0; p < size; p++) {
        a[active[p]] += gamma * w[p];
      }
      for (int j = 0; j < d; j++) {
        corr[j] -= gamma * along[j];
      }
      level -= gamma;
      justDropped = -1;
      if (leave >= 0) {
        int j = active[leave];
        a[j] = 0;
        isActive[j] = false;
        for (int q = leave; q < size - 1; q++) {
          active[q] = active[q + 1];
          columns[q] = columns[q + 1];
          sign[q] = sign[q + 1];
        }
        size--;
        Arrays.fill(blocked, false);
        justDropped = j;
        for (int q = 0; q < size; q++) {
          appendCholesky(active, q, active[q], columns[q], chol, cap);
        }
      } else if (enter >= 0 && size < cap) {
        entering = enter;
      } else {
        return a;
      }
    }
  }

  /**
   * Extends the Cholesky factor of the active Gram (rows 0..size−1) by variable j, whose Gram
   * column is {@code gj}; false when j's column is (numerically) spanned by the active ones.
   */
  private boolean appendCholesky(int[] active, int size, int j, double[] gj, double[] l,
      int cap) {
    double diag = diagonal[j];
    double rest = diag;
    for (int p = 0; p < size; p++) {
      double s = gj[active[p]];
      for (int t = 0; t < p; t++) {
        s -= l[p * cap + t] * l[size * cap + t];
      }
      double v = s / l[p * cap + p];
      l[size * cap + p] = v;
      rest -= v * v;
    }
    if (!(rest > DEPENDENT_PIVOT * diag)) {
      return false;
    }
    l[size * cap + size] = Math.sqrt(rest);
    return true;
  }
}
