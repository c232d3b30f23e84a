package io.github.sparkufs.ml;

import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.RsfsSolver;
import org.apache.spark.ml.util.Identifiable;

/**
 * RSFS, robust spectral feature selection (Shi, Du and Shen, ICDM 2014): spectral
 * embedding F on the local kernel regression graph, fitted by a robust regression
 * {@code F − Z ≈ XᵀW} where the sparse matrix Z absorbs outliers, minimising Eq. 9,
 * {@code Tr(FᵀMF) + α||(F − Z) − XᵀW||² + β||W||₂,₁ + γ||Z||₁} with F ≥ 0 and FᵀF ≈ I
 * (penalty ν); features score {@code ||w_i||₂}. F starts from the spectral clusters of the
 * graph (the authors' start), from k-means clusters, or by default from both with the fit of the
 * lower objective kept ({@code initMode}). The model's summary carries the Huber form of the
 * objective (Eq. 14) of the last iteration, the final objective from each start
 * ({@code spectralStartObjective}, {@code kmeansStartObjective}), the number of starts
 * ({@code initStarts}) and whether the spectral one was kept ({@code initSpectral}). CLI name
 * {@code rsfs}.
 */
public final class RsfsSelector extends RsfsSelectorParams {

  private static final long serialVersionUID = 1L;

  public RsfsSelector() {
    this(Identifiable.randomUID("rsfsSelector"));
  }

  public RsfsSelector(String uid) {
    super(uid, RsfsSolver.PARAMS);
  }

  @Override
  public String methodName() {
    return "rsfs";
  }

  @Override
  protected FeatureSelectionSolver createSolver(MethodOptions options) {
    return new RsfsSolver(options);
  }
}
