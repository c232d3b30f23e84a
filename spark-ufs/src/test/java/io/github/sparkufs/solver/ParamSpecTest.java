package io.github.sparkufs.solver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The declarations, and the options a solver reads them from. */
class ParamSpecTest {

  @Test
  void rangesCheckAndDescribeTheirValues() {
    assertEquals("> 0", Range.greaterThan(0).toString());
    assertEquals("in (0, 1]", Range.openClosed(0, 1).toString());
    assertEquals("-1 or >= 1", Range.atLeast(1).or(-1).toString());
    assertTrue(Range.atLeast(1).or(-1).contains(-1));
    assertFalse(Range.atLeast(1).or(-1).contains(0));
    assertFalse(Range.atLeast(0).contains(Double.NaN));
    assertFalse(Range.atLeast(0).contains(Double.POSITIVE_INFINITY));
    assertTrue(Range.open(0, 1).contains(0.5));
    assertFalse(Range.open(0, 1).contains(1));
  }

  @Test
  void optionsHoldDefaultsAndCheckEachGivenValue() {
    MethodOptions o = MethodOptions.of(NdfsSolver.PARAMS);
    assertEquals(1.0, o.get(NdfsSolver.ALPHA));
    assertEquals(2.5, o.with(NdfsSolver.ALPHA, 2.5).get(NdfsSolver.ALPHA));
    assertEquals("alpha must be > 0, got 0.0", assertThrows(IllegalArgumentException.class,
        () -> o.with(NdfsSolver.ALPHA, 0.0)).getMessage());
    assertEquals("numClusters has no default and was not given",
        assertThrows(IllegalArgumentException.class, () -> o.common().numClusters())
            .getMessage());
    IllegalArgumentException undeclared = assertThrows(IllegalArgumentException.class,
        () -> o.get(UfcmSolver.RESTARTS));
    assertTrue(undeclared.getMessage().contains("restarts"), undeclared.getMessage());
  }

  @Test
  void enumsAndChoicesHaveLowerCaseExternalForms() {
    ParamSpec<ClusterStart> init = RsfsSolver.INIT_MODE;
    assertEquals(List.of("spectral", "kmeans", "both"), init.choices());
    assertEquals(ClusterStart.KMEANS, init.fromExternal("kmeans"));
    assertEquals("both", init.toExternal(init.defaultValue()));
    assertEquals("initMode must be one of spectral, kmeans, both, got BOTH",
        assertThrows(IllegalArgumentException.class, () -> init.fromExternal("BOTH"))
            .getMessage());
  }

  @Test
  void textIsParsedByTheDeclaredType() {
    assertEquals(7, CommonOptions.MAX_ITER.parseExternal("7"));
    assertEquals(3L, CommonOptions.SEED.parseExternal("3"));
    assertEquals(true, NdfsSolver.STANDARDIZATION.parseExternal("true"));
    assertEquals("maxIter takes a whole number, got '7.5'",
        assertThrows(IllegalArgumentException.class,
            () -> CommonOptions.MAX_ITER.parseExternal("7.5")).getMessage());
    assertEquals("standardization must be true or false, got yes",
        assertThrows(IllegalArgumentException.class,
            () -> NdfsSolver.STANDARDIZATION.parseExternal("yes")).getMessage());
  }
}
