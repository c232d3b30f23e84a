package io.github.sparkufs.ml;

import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.OrdinalConsensusSolver;
import org.apache.spark.ml.util.Identifiable;

/**
 * Ordinal-consensus self-paced feature selection (AAAI 2020, Eq. 7): a projection W
 * (d × d₂, WᵀW = I) that keeps the ordinal (triplet) structure of the feature graph while
 * clustering the projected samples, with self-paced sample weights r that down-weight hard or
 * noisy samples (Eq. 7); features score {@code ||w_i||₂}. The model's summary reports how many
 * samples ended down-weighted. CLI name {@code ordinal}.
 */
public final class OrdinalConsensusSelector extends OrdinalConsensusSelectorParams {

  private static final long serialVersionUID = 1L;

  public OrdinalConsensusSelector() {
    this(Identifiable.randomUID("ordinalConsensusSelector"));
  }

  public OrdinalConsensusSelector(String uid) {
    super(uid, OrdinalConsensusSolver.PARAMS);
  }

  @Override
  public String methodName() {
    return "ordinal";
  }

  @Override
  protected FeatureSelectionSolver createSolver(MethodOptions options) {
    return new OrdinalConsensusSolver(options);
  }
}
