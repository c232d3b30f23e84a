package io.github.sparkufs.linalg;

/**
 * A symmetric n × n operator applied to a block of vectors in the library's per-sample
 * orientation: m vectors of length n are an m × n {@link DenseMatrix}, one vector per row, and
 * so are their m images. When the operator is distributed, one application is one pass over
 * the data.
 */
@FunctionalInterface
public interface BlockOperator {
  DenseMatrix apply(DenseMatrix vectors);
}
