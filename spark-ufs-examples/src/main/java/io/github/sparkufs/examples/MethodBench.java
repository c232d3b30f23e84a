package io.github.sparkufs.examples;

import io.github.sparkufs.examples.bench.PaperProtocol;
import io.github.sparkufs.ml.UnsupervisedSelector;
import java.util.List;

/**
 * One method's result in {@code bench}: the configured selector, its fit time, its objective per
 * iteration (empty for the non-iterative methods) and the protocol's ACC/NMI row for each m.
 */
final class MethodBench {

  final String method;
  final UnsupervisedSelector<?> selector;
  final double fitSeconds;
  final double[] objectiveHistory;
  final List<PaperProtocol.Row> rows;

  MethodBench(String method, UnsupervisedSelector<?> selector, double fitSeconds,
      double[] objectiveHistory, List<PaperProtocol.Row> rows) {
    if (!(fitSeconds >= 0)) {
      throw new IllegalArgumentException("fitSeconds must be >= 0, got " + fitSeconds);
    }
    if (rows.isEmpty()) {
      throw new IllegalArgumentException("no protocol rows for method " + method);
    }
    this.method = method;
    this.selector = selector;
    this.fitSeconds = fitSeconds;
    this.objectiveHistory = objectiveHistory.clone();
    this.rows = List.copyOf(rows);
  }
}
