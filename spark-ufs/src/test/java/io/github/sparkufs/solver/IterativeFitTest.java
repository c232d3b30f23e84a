package io.github.sparkufs.solver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.testing.LogCapture;
import io.github.sparkufs.testing.TestData;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IterativeFitTest {

  private static CommonOptions options(int maxIter, double tol) {
    return methodOptions(maxIter, tol).common();
  }

  private static MethodOptions methodOptions(int maxIter, double tol) {
    return TestData.shared(List.of(CommonOptions.NUM_CLUSTERS, CommonOptions.NUM_NEIGHBORS,
        CommonOptions.MAX_ITER, CommonOptions.TOL, CommonOptions.SEED), 2, 3, maxIter, tol, 1L);
  }

  /** Runs the loop on objectives 1, 1/2, 1/4, …; returns the result. */
  private static IterativeFit.Result halving(CommonOptions common) {
    IterativeFit loop = new IterativeFit("test", common);
    while (loop.next()) {
      loop.record(Math.pow(0.5, loop.iteration() - 1));
    }
    return loop.result();
  }

  @Test
  void stopsWhenTheRelativeChangeFallsToTol() {
    // Relative changes are 1/2 then 1/2 …: tol 0.5 is met at the second iteration.
    IterativeFit.Result r = halving(options(10, 0.5));
    assertTrue(r.converged());
    assertEquals(2, r.iterations());
    assertArrayEquals(new double[] {1, 0.5}, r.objectives());
  }

  @Test
  void runsMaxIterWhenTheRuleIsNeverMet() {
    IterativeFit.Result r = halving(options(4, 0.4));
    assertFalse(r.converged());
    assertEquals(4, r.iterations());
    assertEquals(0.125, r.lastObjective());
  }

  @Test
  void aStartingObjectiveComesFirstAndIsNoIteration() {
    IterativeFit loop = new IterativeFit("test", options(3, 0));
    loop.start(8);
    while (loop.next()) {
      loop.record(8 - loop.iteration());
    }
    IterativeFit.Result r = loop.result();
    assertEquals(3, r.iterations());
    assertArrayEquals(new double[] {8, 7, 6, 5}, r.objectives());
  }

  @Test
  void leavingTheLoopEndsItUnconvergedAndSaysWhy() {
    IterativeFit loop = new IterativeFit("test", options(10, 0));
    List<String> lines = LogCapture.infoLines(IterativeFit.class, () -> {
      while (loop.next()) {
        if (loop.iteration() == 3) {
          loop.leave("no better point");
          break;
        }
        loop.record(loop.iteration());
      }
      return null;
    });
    IterativeFit.Result r = loop.result();
    assertFalse(r.converged());
    assertEquals(2, r.iterations());
    assertEquals("test stopped in iteration 3, keeping iteration 2: no better point",
        lines.get(lines.size() - 1));
  }

  @Test
  void theListenerHearsEveryObjective() {
    List<double[]> heard = new ArrayList<>();
    halving(methodOptions(3, 0).withListener((method, iteration, objective, change, seconds) -> {
      assertEquals("test", method);
      assertTrue(seconds >= 0);
      heard.add(new double[] {iteration, objective, change});
    }).common());
    assertEquals(3, heard.size());
    assertArrayEquals(new double[] {1, 1, Double.NaN}, heard.get(0));
    assertArrayEquals(new double[] {3, 0.25, 0.5}, heard.get(2));
  }

  @Test
  void anIterationMustRecordOnce() {
    IterativeFit loop = new IterativeFit("test", options(3, 0));
    loop.next();
    assertThrows(IllegalStateException.class, loop::next);
    loop.record(1);
    assertThrows(IllegalStateException.class, () -> loop.record(2));
  }
}
