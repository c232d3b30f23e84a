package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.ColumnStatistics;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.solver.FeatureRanking;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.util.Arrays;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Data far from unit scale: a value whose square overflows, or a feature whose squared
 * differences underflow, is rejected naming the feature and the value; data on a small but
 * representable scale rank as at unit scale; no non-finite score reaches a model.
 */
@ExtendWith(SparkSessionExtension.class)
class ScaleRobustnessTest {

  private static DenseMatrix planted() {
    return new PlantedClusters(24, 6, 3, 3.0, 17).matrix(150);
  }

  static java.util.stream.Stream<String> methods() {
    return Selectors.names().stream();
  }

  @ParameterizedTest
  @MethodSource("methods")
  void aValueWhoseSquareOverflowsIsRejectedNamingItsFeature(String name, SparkSession spark) {
    DenseMatrix x = planted();
    x.set(3, 10, 1e300);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SelectorContractTest.configured(name).fit(TestData.vectors(spark, x, 3)));
    assertTrue(e.getMessage().startsWith("Column 'features': feature 3 has the value 1.0E300, "
        + "beyond 1.93e+75, the largest magnitude at which Gram matrices over 150 rows x 24 "
        + "features and their products stay finite; rescale the column"), e.getMessage());
  }

  @ParameterizedTest
  @MethodSource("methods")
  void aFeatureWhoseSquaredDifferencesUnderflowIsRejected(String name, SparkSession spark) {
    DenseMatrix tiny = planted().scaleInPlace(0x1p-500);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SelectorContractTest.configured(name).fit(TestData.vectors(spark, tiny, 3)));
    assertTrue(e.getMessage().startsWith("Column 'features': feature 0 spans only [")
        && e.getMessage().contains("]: its squared differences fall below 1.00e-292, where they "
        + "lose their precision; rescale the column"), e.getMessage());
  }

  /**
   * The methods whose params do not carry the data's unit rank data scaled by 2⁻³⁰⁰ as at unit
   * scale (a power of two scales exactly). UDFS weighs its regularisers against the data's
   * absolute scale, so its ranking changes with it by design.
   */
  @ParameterizedTest
  @ValueSource(strings = {"maxvar", "lapscore", "ndfs", "rsfs", "ufcm", "ordinal", "fsasl",
      "mcfs", "spec"})
  void smallScaleRanksAsUnitScale(String name, SparkSession spark) {
    DenseMatrix x = planted();
    UnsupervisedSelectorModel unit = SelectorContractTest.configured(name)
        .fit(TestData.vectors(spark, x, 3));
    UnsupervisedSelectorModel small = SelectorContractTest.configured(name)
        .fit(TestData.vectors(spark, x.copy().scaleInPlace(0x1p-300), 3));
    assertEquals(Arrays.toString(FeatureRanking.top(unit.scores(), unit.isLargerBetter(), 6)),
        Arrays.toString(FeatureRanking.top(small.scores(), small.isLargerBetter(), 6)),
        name + " at scale 2^-300");
  }

  /**
   * The methods that measure every feature by its range by default ({@code featureScaling})
   * rank the data with feature j rescaled by 10^(j mod 7 − 3) as the data as given: their fits
   * see the same centred, range-scaled samples up to rounding.
   */
  @ParameterizedTest
  @ValueSource(strings = {"ndfs", "rsfs", "ufcm", "ordinal", "fsasl"})
  void featuresInAnyUnitRankAsGiven(String name, SparkSession spark) {
    DenseMatrix x = planted();
    DenseMatrix rescaled = x.copy();
    for (int j = 0; j < x.rows(); j++) {
      for (int i = 0; i < x.cols(); i++) {
        rescaled.set(j, i, x.get(j, i) * Math.pow(10, j % 7 - 3));
      }
    }
    UnsupervisedSelectorModel given = SelectorContractTest.configured(name)
        .fit(TestData.vectors(spark, x, 3));
    UnsupervisedSelectorModel units = SelectorContractTest.configured(name)
        .fit(TestData.vectors(spark, rescaled, 3));
    assertEquals(Arrays.toString(FeatureRanking.top(given.scores(), given.isLargerBetter(), 6)),
        Arrays.toString(FeatureRanking.top(units.scores(), units.isLargerBetter(), 6)),
        name + " with features rescaled by 10^(j mod 7 - 3)");
  }

  @Test
  void aNonFiniteScoreOfAVaryingFeatureFailsNamingMethodAndFeature() {
    ColumnStatistics stats = ColumnStatistics.of(new RowBlock(0,
        new DenseMatrix(3, 2, new double[] {1, 5, 2, 3, 5, 4})));
    assertArrayEquals(new double[] {1, Double.NaN, 2},
        FeatureRanking.withoutConstantFeatures("m", new double[] {1, Double.NaN, 2}, stats));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FeatureRanking.withoutConstantFeatures("m", new double[] {1, 0, Double.NaN}, stats));
    assertTrue(e.getMessage().startsWith("m scored feature 2 NaN"), e.getMessage());
  }
}
