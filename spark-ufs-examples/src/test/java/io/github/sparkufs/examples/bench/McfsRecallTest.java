package io.github.sparkufs.examples.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.solver.FeatureRanking;
import io.github.sparkufs.solver.McfsSolver;
import io.github.sparkufs.solver.SelectionResult;
import io.github.sparkufs.testing.TestData;
import org.junit.jupiter.api.Test;

/**
 * MCFS on the recall table's families where it fell below the authors' code (docs/recall.md):
 * the informative features are noisy copies of two signals, raw and z-scored. With c = 4
 * eigenvectors and two signals, two eigenvectors are explained poorly (R² .24 and .43 against
 * .91 and .92 on redundant draw 2) and their regressions have larger coefficients throughout;
 * compared as they are in Eq. 5's maximum, those coefficients put noise features ahead of
 * copies. Scaled to unit norm per eigenvector, as the authors' code does, each feature scores
 * its share of the regression it serves best (docs/recall.md).
 */
class McfsRecallTest {

  /**
   * Seeds 1..10 of both families at the default 50 non-zeros with unit coefficients: every fit
   * keeps at least 6 of the 8 copies, and the mean reaches .92. Measured: mean .944, min .875;
   * with {@code unitCoefficients=false} (the default, the loss this test reproduces): mean
   * .894, min .75. The authors' code on seeds 1..3: .92 and .88. The default stays off because
   * at a sparse cardinality the scaling costs recall
   * ({@code McfsSolverTest#unitCoefficientsCostRecallAtASparseCardinality}).
   */
  @Test
  void unitCoefficientsKeepTheCopiesOfTheSignals() {
    double sum = 0;
    int fits = 0;
    for (GroundTruthFamily family : new GroundTruthFamily[] {GroundTruthFamily.REDUNDANT,
        GroundTruthFamily.ZSCORED_REDUNDANT}) {
      for (long seed = 1; seed <= 10; seed++) {
        GroundTruthFamily.Draw draw = family.draw(seed);
        SelectionResult r = new McfsSolver(TestData.shared(McfsSolver.PARAMS,
            family.clusters(), 5, 1, 0, 1).with(McfsSolver.UNIT_COEFFICIENTS, true))
            .fit(RowBlockMatrix.local(draw.x()));
        double recall = draw.recall(FeatureRanking.rank(r.scores(), r.largerIsBetter()));
        assertTrue(recall >= 0.75, family.label() + " seed " + seed + ": recall " + recall);
        sum += recall;
        fits++;
      }
    }
    assertTrue(sum / fits >= 0.92, "mean recall " + sum / fits);
  }
}
