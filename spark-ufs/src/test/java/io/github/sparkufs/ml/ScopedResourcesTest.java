package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.solver.FeatureSelectionSolver;
import io.github.sparkufs.solver.FsaslSolver;
import io.github.sparkufs.solver.IterativeFit;
import io.github.sparkufs.solver.MethodOptions;
import io.github.sparkufs.solver.SelectionResult;
import io.github.sparkufs.spark.SparkExecution;
import io.github.sparkufs.spark.VectorBlocks;
import io.github.sparkufs.testing.InstrumentedBlocks;
import io.github.sparkufs.testing.InstrumentedBlocks.InjectedFailure;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a fit caches and shares is released however the fit ends (issue #21 item 4, #22 item
 * 9): a fit that fails at any block operation leaves no shared value unreleased and, on Spark,
 * no RDD persisted beyond the input blocks its caller holds; a cancelled job group stops a fit
 * with a {@link CancellationException} and the same clean state; and the lineage of what an
 * iteration computes on does not grow with the iterations.
 */
@ExtendWith(SparkSessionExtension.class)
class ScopedResourcesTest {

  private static final DenseMatrix SAMPLES = new PlantedClusters(30, 6, 3, 3.0, 7).matrix(120);

  static Stream<String> methods() {
    return Selectors.names().stream();
  }

  static Stream<String> iterativeMethods() {
    return Stream.of("ndfs", "rsfs", "udfs", "ufcm", "ordinal", "fsasl");
  }

  /**
   * The method at its defaults, c = 3, tol 0; FSASL takes every W step in full
   * ({@code monotone = false}) so that it runs every iteration: by default it stops once no W
   * step lowers Eq. 5, on these samples after the first.
   */
  private static FeatureSelectionSolver solver(String name, int iterations,
      IterativeFit.Listener listener) {
    UnsupervisedSelector<?> selector = Selectors.create(name);
    MethodOptions options = TestData.shared(selector.declaredParams(), 3, 5, iterations, 0.0,
        7L).withListener(listener);
    return selector.createSolver("fsasl".equals(name)
        ? options.with(FsaslSolver.MONOTONE, false) : options);
  }

  private static FeatureSelectionSolver solver(String name) {
    return solver(name, 4, null);
  }

  /** {@code count} operation numbers from 1 to {@code total}, evenly spread. */
  private static long[] failurePoints(long total, int count) {
    return LongStream.range(0, count).map(i -> 1 + i * (total - 1) / (count - 1)).distinct()
        .toArray();
  }

  private static Set<Integer> persisted(JavaSparkContext sc) {
    return new TreeSet<>(sc.getPersistentRDDs().keySet());
  }

  /**
   * The RDDs persisted now and not in {@code before}. (Spark's context cleaner may unpersist
   * RDDs of earlier tests at any time, so only new ones are compared.)
   */
  private static Set<Integer> persistedSince(Set<Integer> before, JavaSparkContext sc) {
    Set<Integer> now = persisted(sc);
    now.removeAll(before);
    return now;
  }

  @ParameterizedTest
  @MethodSource("methods")
  void aDriverFitThatFailsMidwayReleasesEverythingItShared(String name) {
    RowBlockMatrix x = TestData.blocks(SAMPLES, 3);
    InstrumentedBlocks full = new InstrumentedBlocks(Long.MAX_VALUE);
    solver(name).fit(full.wrap(x));
    assertEquals(0, full.liveShared(), name + " after a complete fit");
    for (long failAt : failurePoints(full.operations(), 12)) {
      InstrumentedBlocks probe = new InstrumentedBlocks(failAt);
      assertThrows(InjectedFailure.class, () -> solver(name).fit(probe.wrap(x)));
      assertEquals(0, probe.liveShared(), name + " failing at block operation " + failAt
          + " of " + full.operations());
    }
  }

  @ParameterizedTest
  @MethodSource("iterativeMethods")
  void aDistributedFitThatFailsMidwayLeavesOnlyItsInputPersisted(String name,
      SparkSession spark) {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Set<Integer> before = persisted(sc);
    try (RowBlockMatrix x = VectorBlocks.read(TestData.vectors(spark, SAMPLES, 3), "features",
        VectorBlocks.Placement.DISTRIBUTED, name, false)) {
      Set<Integer> input = persistedSince(before, sc);
      assertEquals(1, input.size(), "the input blocks are one cached RDD");
      InstrumentedBlocks full = new InstrumentedBlocks(Long.MAX_VALUE);
      solver(name).fit(full.wrap(x));
      assertEquals(input, persistedSince(before, sc), name + " after a complete fit");
      assertEquals(0, full.liveShared(), name + " after a complete fit");
      for (long failAt : failurePoints(full.operations(), 4)) {
        InstrumentedBlocks probe = new InstrumentedBlocks(failAt);
        assertThrows(InjectedFailure.class, () -> solver(name).fit(probe.wrap(x)));
        String when = name + " failing at block operation " + failAt + " of "
            + full.operations();
        assertEquals(input, persistedSince(before, sc), when);
        assertEquals(0, probe.liveShared(), when);
      }
    }
    assertEquals(Set.of(), persistedSince(before, sc));
  }

  /**
   * Every iteration computes on the cached input blocks, or on blocks derived from them
   * afresh, never on the previous iteration's blocks: the deepest lineage an iteration touches
   * is the same at iteration 200 as at iteration 2, with no checkpoint at all.
   */
  @Test
  void lineageDoesNotGrowOverTwoHundredIterations(SparkSession spark) {
    assertLineageBounded("ndfs", 200, spark);
  }

  @ParameterizedTest
  @MethodSource("iterativeMethods")
  void lineageDoesNotGrowWithTheIterations(String name, SparkSession spark) {
    assertLineageBounded(name, 8, spark);
  }

  private static void assertLineageBounded(String name, int iterations, SparkSession spark) {
    try (RowBlockMatrix x = VectorBlocks.read(TestData.vectors(spark, SAMPLES, 3), "features",
        VectorBlocks.Placement.DISTRIBUTED, name, false)) {
      InstrumentedBlocks probe = new InstrumentedBlocks(Long.MAX_VALUE);
      int[] deepest = new int[iterations + 1];
      SelectionResult result = solver(name, iterations,
          (method, t, objective, change, seconds) -> deepest[t] = probe.takeDeepestLineage())
          .fit(probe.wrap(x));
      int ran = result.objectiveHistory().length - ("ufcm".equals(name) ? 1 : 0);
      assertEquals(iterations, ran, name + " iterations");
      // UDFS iterates on the driver (a d × d eigenproblem): its iterations touch no RDD.
      assertEquals("udfs".equals(name), deepest[2] == 0, name + ": lineage at iteration 2 is "
          + deepest[2]);
      for (int t = 3; t <= ran; t++) {
        assertEquals(deepest[2], deepest[t], name + ": lineage at iteration " + t);
      }
    }
  }

  @Test
  void cancellingTheJobGroupStopsTheFitAndReleasesItsBlocks(SparkSession spark)
      throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Dataset<Row> data = TestData.vectors(spark, SAMPLES, 3);
    Set<Integer> before = persisted(sc);
    NdfsSelector selector = new NdfsSelector().setNumClusters(3).setMaxIter(1_000_000)
        .setTol(0.0).setExecutionMode("distributed");
    String group = SparkExecution.jobGroupId(selector.uid(), 1);
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<UnsupervisedSelectorModel> fit = thread.submit(() -> selector.fit(data));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      // Cancelled early: with tol = 0 the fit still ends once an iteration leaves the
      // objective's bits unchanged, which on this small draw can come within 100 jobs.
      while (sc.statusTracker().getJobIdsForGroup(group).length < 10) {
        assertTrue(System.nanoTime() < deadline && !fit.isDone(),
            "the fit ran no 10 jobs in group " + group);
        Thread.sleep(20);
      }
      // The future jobs too: a plain cancelJobGroup between two jobs cancels nothing.
      sc.sc().cancelJobGroupAndFutureJobs(group);
      ExecutionException e = assertThrows(ExecutionException.class,
          () -> fit.get(120, TimeUnit.SECONDS));
      CancellationException cancelled = assertInstanceOf(CancellationException.class,
          e.getCause());
      assertTrue(cancelled.getMessage().contains("ndfs fit cancelled")
          && cancelled.getMessage().contains(group), cancelled.getMessage());
    } finally {
      thread.shutdownNow();
    }
    assertEquals(Set.of(), persistedSince(before, sc));
  }
}
