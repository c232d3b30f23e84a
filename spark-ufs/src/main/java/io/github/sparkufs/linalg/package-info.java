/**
 * Dense and sparse matrices, the row blocks a fit computes on ({@code Partitioned}, on the driver or as a Spark RDD), BLAS/LAPACK through dev.ludovic.netlib, and the solvers' linear-algebra kernels (eigensolvers, regularised regressions, LASSO, simplex projections).
 *
 * <p><b>Internal:</b> not part of the API; it may change in any release without notice. The
 * API is {@link io.github.sparkufs.ml}: the selectors, their model and the evaluator.
 */
package io.github.sparkufs.linalg;
