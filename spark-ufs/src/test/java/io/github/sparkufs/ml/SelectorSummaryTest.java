package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamPair;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What a fitted model remembers of its fit. */
@ExtendWith(SparkSessionExtension.class)
class SelectorSummaryTest {

  private static final PlantedClusters PLANTED = new PlantedClusters(12, 3, 3, 3.0, 21);

  @Test
  void recordsTheDataTheParamsAndTheVersions(SparkSession spark) {
    NdfsSelector selector = new NdfsSelector().setNumClusters(3).setAlpha(0.5).setSeed(11)
        .setMaxIter(3).setTol(0);
    SelectorSummary s = selector.fit(TestData.vectors(spark, PLANTED.matrix(80), 2)).summary();
    assertEquals("ndfs", s.method());
    assertEquals(80, s.numRows());
    assertEquals(12, s.numFeatures());
    assertEquals(11, s.seed());
    for (ParamPair<?> p : selector.extractParamMap().toList()) {
      Param<Object> param = selector.getParam(p.param().name());
      assertEquals(param.jsonEncode(p.value()), s.params().get(param.name()), param.name());
    }
    assertEquals(selector.extractParamMap().size(), s.params().size());
    assertEquals(spark.version(), s.sparkVersion());
    assertTrue(s.libraryVersion().matches("\\d+\\.\\d+\\.\\d+.*"), s.libraryVersion());
    assertTrue(s.fitSeconds() > 0);
    assertEquals(0, s.constantFeatures().length);
    assertTrue(s.diagnostics().containsKey("sigma"), s.diagnostics().toString());
  }

  @Test
  void tellsAStoppingRuleMetFromABudgetRunOut(SparkSession spark) {
    Dataset<Row> data = TestData.vectors(spark, PLANTED.matrix(80), 2);
    // tol 0: only an objective repeated exactly would stop the iterations.
    SelectorSummary budget = new NdfsSelector().setNumClusters(3).setMaxIter(3).setTol(0)
        .fit(data).summary();
    assertEquals(3, budget.iterations());
    assertEquals(3, budget.objectiveHistory().length);
    assertFalse(budget.converged());
    // Any relative change is below tol 10: the rule is met at the second iteration.
    SelectorSummary rule = new NdfsSelector().setNumClusters(3).setMaxIter(30).setTol(10)
        .fit(data).summary();
    assertEquals(2, rule.iterations());
    assertTrue(rule.converged());
    SelectorSummary closedForm = new MaxVarianceSelector().fit(data).summary();
    assertEquals(0, closedForm.iterations());
    assertTrue(closedForm.converged());
    assertArrayEquals(new double[0], closedForm.objectiveHistory());
  }
}
