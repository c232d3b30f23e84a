package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamsSuite;
import org.apache.spark.ml.util.MLTestingUtils;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every estimator and model passes Spark's own Params checks (from the spark-mllib test jar):
 * {@code ParamsSuite.checkParams} (params sorted, owned, found by name; {@code copy} declared
 * with the concrete return type), {@code MLTestingUtils.checkCopyAndUids} on each
 * estimator/model pair, and a save/load round-trip that keeps every param set.
 */
@ExtendWith(SparkSessionExtension.class)
class SparkConformanceTest {

  static Stream<String> methods() {
    return Selectors.names().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("methods")
  void estimatorAndModelPassSparksChecks(String method, SparkSession spark, @TempDir Path dir)
      throws Exception {
    UnsupervisedSelector<?> estimator = SelectorContractTest.configured(method);
    ParamsSuite.checkParams(estimator);
    PlantedClusters p = new PlantedClusters(12, 3, 3, 3.0, 4);
    Dataset<Row> data = TestData.vectors(spark, p.matrix(60), 2);
    UnsupervisedSelectorModel model = estimator.fit(data);
    ParamsSuite.checkParams(model);
    MLTestingUtils.checkCopyAndUids(estimator, model);

    String path = dir.resolve(method).toString();
    estimator.write().save(path);
    UnsupervisedSelector<?> loaded = (UnsupervisedSelector<?>) estimator.getClass()
        .getMethod("load", String.class).invoke(null, path);
    assertEquals(estimator.uid(), loaded.uid());
    for (Param<?> param : estimator.params()) {
      assertEquals(estimator.isSet(param), loaded.isSet(loaded.getParam(param.name())),
          param.name() + " set");
      if (estimator.isDefined(param)) {
        assertEquals(estimator.getOrDefault(param),
            loaded.getOrDefault(loaded.getParam(param.name())), param.name());
      }
    }
  }
}
