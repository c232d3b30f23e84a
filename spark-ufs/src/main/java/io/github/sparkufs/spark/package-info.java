/**
 * The Spark backend: input columns read and checked into row blocks, blocks as cached RDDs, broadcast values, a job group per fit.
 *
 * <p><b>Internal:</b> not part of the API; it may change in any release without notice. The
 * API is {@link io.github.sparkufs.ml}: the selectors, their model and the evaluator.
 */
package io.github.sparkufs.spark;
