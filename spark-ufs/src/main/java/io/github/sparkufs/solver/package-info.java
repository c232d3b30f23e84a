/**
 * The methods' numerics, free of Spark: one solver per method ({@code *Solver}), each declaring its params once ({@code ParamSpec}), the one iterate-until-converged loop ({@code IterativeFit}) and the ranking of scores.
 *
 * <p><b>Internal:</b> not part of the API; it may change in any release without notice. The
 * API is {@link io.github.sparkufs.ml}: the selectors, their model and the evaluator.
 */
package io.github.sparkufs.solver;
