/**
 * Sample graphs: exact and approximate kNN search over row blocks and the graphs the methods build from the neighbours (heat kernel, local kernel regression, spectral embedding).
 *
 * <p><b>Internal:</b> not part of the API; it may change in any release without notice. The
 * API is {@link io.github.sparkufs.ml}: the selectors, their model and the evaluator.
 */
package io.github.sparkufs.graph;
