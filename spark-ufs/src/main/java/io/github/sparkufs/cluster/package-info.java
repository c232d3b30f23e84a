/**
 * k-means over row blocks, used to start the iterative methods and by the evaluation.
 *
 * <p><b>Internal:</b> not part of the API; it may change in any release without notice. The
 * API is {@link io.github.sparkufs.ml}: the selectors, their model and the evaluator.
 */
package io.github.sparkufs.cluster;
