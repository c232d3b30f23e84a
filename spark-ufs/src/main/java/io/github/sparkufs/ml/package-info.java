/**
 * The API: one Spark ML {@code Estimator} per method ({@code NdfsSelector}, {@code
 * RsfsSelector}, …, all {@link io.github.sparkufs.ml.UnsupervisedSelector}), the fitted
 * {@link io.github.sparkufs.ml.UnsupervisedSelectorModel} with its
 * {@link io.github.sparkufs.ml.SelectorSummary}, and
 * {@link io.github.sparkufs.ml.ClusteringAgreementEvaluator}. Every other package of this
 * library is internal.
 */
package io.github.sparkufs.ml;
