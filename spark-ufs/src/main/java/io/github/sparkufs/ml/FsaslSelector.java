package io.github.sparkufs.ml;

import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.FsaslSolver;
import org.apache.spark.ml.util.Identifiable;

/**
 * FSASL, feature selection with adaptive structure learning (Du and Shen, KDD 2015): alternates between learning the global (sparse reconstruction S) and local (simplex
 * neighbour weights P) structure of the projected samples and a row-sparse projection W that
 * preserves both, minimising Eq. 5; features score {@code ||w_i||₂}. CLI name {@code fsasl}.
 */
public final class FsaslSelector extends FsaslSelectorParams {

  private static final long serialVersionUID = 1L;

  public FsaslSelector() {
    this(Identifiable.randomUID("fsaslSelector"));
  }

  public FsaslSelector(String uid) {
    super(uid, FsaslSolver.PARAMS);
  }

  @Override
  public String methodName() {
    return "fsasl";
  }

  @Override
  protected FeatureSelectionSolver createSolver(MethodOptions options) {
    return new FsaslSolver(options);
  }
}
