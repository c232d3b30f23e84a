package io.github.sparkufs.linalg;

import dev.ludovic.netlib.blas.BLAS;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Orthonormalisation of blocks of vectors held as rows (m × n), shared by the block
 * eigensolvers: SVQB, deflation against constraint rows, random completion of a block, and
 * the deflated image of a block under the operator.
 */
final class OrthonormalRows {

  /** Relative eigenvalue floor below which an orthonormalisation drops a direction. */
  private static final double DROP = 1e-13;

  /**
   * Samples per chunk of the products over long blocks. Each chunk of the blocks a step reads
   * (a few hundred KB) stays in cache while every product of that step is taken from it, where
   * whole-block products would stream each block from memory once per product (at 10⁷ samples a
   * block of 7 vectors is 560 MB, and the eigensolver's dense work per product took 3.4 s in
   * one thread, memory-bound); the chunks run on the driver's cores. Sums over the samples are
   * added in chunk order, so results do not depend on the number of cores, and blocks of one
   * chunk or less take the whole-block products.
   */
  static final int CHUNK = 4096;

  private OrthonormalRows() {}

  /**
   * Orthonormal start rows, deflated: the first {@code size} of {@code initial}'s rows (if
   * given) orthonormalised, completed with random rows.
   */
  static DenseMatrix start(int size, int n, DenseMatrix constraints, DenseMatrix initial,
      SplittableRandom rnd) {
    if (initial != null && initial.cols() != n) {
      throw new IllegalArgumentException("initial vectors of length " + initial.cols()
          + " for dimension " + n);
    }
    int given = initial == null ? 0 : Math.min(initial.rows(), size);
    DenseMatrix x = new DenseMatrix(given, n);
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < given; k++) {
        x.data()[i * given + k] = initial.get(k, i);
      }
    }
    if (given > 0) {
      x = orthonormalize(x, constraints);
    }
    return refill(x, size, constraints, rnd);
  }

  /** Completes orthonormal rows to {@code size} with random ones orthogonal to them. */
  static DenseMatrix refill(DenseMatrix v, int size, DenseMatrix constraints,
      SplittableRandom rnd) {
    int n = v.cols();
    for (int attempt = 0; attempt < 5 && v.rows() < size; attempt++) {
      DenseMatrix extra = new DenseMatrix(size - v.rows(), n);
      for (int i = 0; i < extra.data().length; i++) {
        extra.data()[i] = rnd.nextDouble() - 0.5;
      }
      v = stack(v, orthonormalize(extra, constraints, v));
    }
    if (v.rows() < size) {
      throw new ArithmeticException("cannot build " + size + " independent vectors");
    }
    return v;
  }

  /**
   * The rows of v made orthonormal and orthogonal to those of each (orthonormal) block in
   * {@code against} (null entries skipped): two passes of projection and SVQB. Directions
   * inside the span of {@code against} are dropped, so fewer rows may come back.
   */
  static DenseMatrix orthonormalize(DenseMatrix v, DenseMatrix... against) {
    for (int pass = 0; pass < 2 && v.rows() > 0; pass++) {
      for (DenseMatrix q : against) {
        project(v, q);
      }
      v = combine(svqb(v).transpose(), v);
    }
    return v;
  }

  /** {@code A v} for the rows of v, with the constraint rows' components removed. */
  static DenseMatrix image(BlockOperator op, DenseMatrix v, DenseMatrix constraints) {
    DenseMatrix av = op.apply(v);
    project(av, constraints);
    return av;
  }

  /** Removes from every row of v its components along the orthonormal rows of q (if any). */
  static void project(DenseMatrix v, DenseMatrix q) {
    if (q == null || q.rows() == 0 || v.rows() == 0) {
      return;
    }
    DenseMatrix coefficients = crossProducts(new DenseMatrix[] {q}, new DenseMatrix[] {v});
    addProducts(v, -1.0, coefficients.transpose(), q);
  }

  /**
   * SVQB (Stathopoulos and Wu 2002): a transform T (r × p) such that the rows of {@code T v}
   * are orthonormal, dropping directions whose scaled Gram eigenvalue is below the floor.
   */
  static DenseMatrix svqb(DenseMatrix v) {
    int p = v.rows();
    DenseMatrix g = crossProducts(new DenseMatrix[] {v}, new DenseMatrix[] {v});
    symmetrize(g);
    double[] scale = new double[p];
    for (int k = 0; k < p; k++) {
      double d = g.get(k, k);
      scale[k] = d > 0 ? 1.0 / Math.sqrt(d) : 0.0;
    }
    for (int a = 0; a < p; a++) {
      for (int b = 0; b < p; b++) {
        g.set(a, b, g.get(a, b) * scale[a] * scale[b]);
      }
    }
    SymmetricEigen eig = SymmetricEigen.largest(g, p);
    double[] lambda = eig.values();
    int keep = 0;
    while (keep < p && lambda[keep] > DROP * Math.max(lambda[0], 1.0)) {
      keep++;
    }
    DenseMatrix t = new DenseMatrix(keep, p);
    for (int r = 0; r < keep; r++) {
      double f = 1.0 / Math.sqrt(lambda[r]);
      for (int k = 0; k < p; k++) {
        t.set(r, k, f * eig.vectors().get(k, r) * scale[k]);
      }
    }
    return t;
  }

  /**
   * {@code cᵀ · v} for the rows v of the blocks one below the other (null or empty blocks hold
   * none): the j-th row of the result is {@code Σ_k c_kj v_k}. The blocks are not stacked, so
   * the only new matrix is the result.
   */
  static DenseMatrix combine(DenseMatrix c, DenseMatrix... blocks) {
    int total = totalRows(blocks);
    if (total == 0 || total != c.rows()) {
      throw new IllegalArgumentException(c.rows() + " coefficient rows for " + total + " vectors");
    }
    DenseMatrix out = new DenseMatrix(c.cols(), samples(blocks));
    addProducts(out, 1.0, c.transpose(), blocks);
    return out;
  }

  /**
   * {@code out += alpha · m · [b₁; b₂; …]}, the rows of the blocks one below the other (null or
   * empty blocks skipped), chunk by chunk over the samples.
   */
  private static void addProducts(DenseMatrix out, double alpha, DenseMatrix m,
      DenseMatrix... blocks) {
    BLAS blas = LinalgBackend.blas();
    int n = out.cols();
    chunks(n).forEach(chunk -> {
      int from = chunk * CHUNK;
      int at = 0;
      for (DenseMatrix b : blocks) {
        if (b != null && b.rows() > 0) {
          blas.dgemm("N", "N", out.rows(), chunkLength(chunk, n), b.rows(), alpha, m.data(),
              at * m.rows(), m.rows(), b.data(), from * b.rows(), b.rows(), 1.0, out.data(),
              from * out.rows(), out.rows());
          at += b.rows();
        }
      }
    });
  }

  /**
   * {@code [v₁; v₂; …] · [a₁; a₂; …]ᵀ}, the products of the rows of the blocks v with those of
   * the blocks a (each list one below the other, null or empty blocks skipped), without
   * stacking either list.
   */
  static DenseMatrix crossProducts(DenseMatrix[] v, DenseMatrix[] a) {
    int n = samples(v);
    DenseMatrix h = new DenseMatrix(totalRows(v), totalRows(a));
    chunks(n).mapToObj(c -> crossProducts(v, a, c * CHUNK, chunkLength(c, n)))
        .forEachOrdered(part -> h.addInPlace(1.0, part));
    return h;
  }

  /** The cross products of the samples {@code [from, from + length)} of the blocks. */
  private static DenseMatrix crossProducts(DenseMatrix[] v, DenseMatrix[] a, int from,
      int length) {
    BLAS blas = LinalgBackend.blas();
    DenseMatrix h = new DenseMatrix(totalRows(v), totalRows(a));
    int i0 = 0;
    for (DenseMatrix vi : v) {
      if (vi == null || vi.rows() == 0) {
        continue;
      }
      int j0 = 0;
      for (DenseMatrix aj : a) {
        if (aj == null || aj.rows() == 0) {
          continue;
        }
        blas.dgemm("N", "T", vi.rows(), aj.rows(), length, 1.0, vi.data(), from * vi.rows(),
            vi.rows(), aj.data(), from * aj.rows(), aj.rows(), 1.0, h.data(),
            j0 * h.rows() + i0, h.rows());
        j0 += aj.rows();
      }
      i0 += vi.rows();
    }
    return h;
  }

  private static int totalRows(DenseMatrix[] blocks) {
    int rows = 0;
    for (DenseMatrix b : blocks) {
      rows += b == null ? 0 : b.rows();
    }
    return rows;
  }

  /** The samples (columns) of the blocks: those of the last that holds rows, 0 if none does. */
  private static int samples(DenseMatrix[] blocks) {
    int n = 0;
    for (DenseMatrix b : blocks) {
      n = b == null || b.rows() == 0 ? n : b.cols();
    }
    return n;
  }

  /** The chunks of n samples, on the driver's cores when there are several. */
  private static IntStream chunks(int n) {
    IntStream ids = IntStream.range(0, Math.max(1, (n + CHUNK - 1) / CHUNK));
    return n > CHUNK ? ids.parallel() : ids;
  }

  private static int chunkLength(int chunk, int n) {
    return Math.min(CHUNK, n - chunk * CHUNK);
  }

  /** The rows of the blocks, one block below the other (null or empty blocks skipped). */
  static DenseMatrix stack(DenseMatrix... blocks) {
    int n = -1;
    int rows = 0;
    for (DenseMatrix b : blocks) {
      if (b != null) {
        n = b.cols();
        rows += b.rows();
      }
    }
    DenseMatrix out = new DenseMatrix(rows, n);
    int at = 0;
    for (DenseMatrix b : blocks) {
      if (b == null || b.rows() == 0) {
        continue;
      }
      for (int i = 0; i < n; i++) {
        System.arraycopy(b.data(), i * b.rows(), out.data(), i * rows + at, b.rows());
      }
      at += b.rows();
    }
    return out;
  }

  static void symmetrize(DenseMatrix h) {
    for (int a = 0; a < h.rows(); a++) {
      for (int b = a + 1; b < h.cols(); b++) {
        double v = 0.5 * (h.get(a, b) + h.get(b, a));
        h.set(a, b, v);
        h.set(b, a, v);
      }
    }
  }
}
