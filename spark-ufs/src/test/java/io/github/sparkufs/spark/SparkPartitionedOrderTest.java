package io.github.sparkufs.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkufs.linalg.Partitioned;
import io.github.sparkufs.testing.SparkSessionExtension;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The distributed backend merges in block order, whatever order its tasks finish in: with
 * a merge that is not commutative (list concatenation), every merge shows the order it took.
 * The blocks' functions sleep longer for earlier blocks, so tasks finish in reverse order.
 */
@ExtendWith(SparkSessionExtension.class)
class SparkPartitionedOrderTest {

  /** Partition counts below and above the one at which aggregates merge on executors first. */
  @ParameterizedTest
  @ValueSource(ints = {3, 12, 40})
  void aggregateMergesInBlockOrder(int n, SparkSession spark) {
    assertEquals(blockOrder(n),
        blocks(spark, n).aggregate(b -> slow(b, n), SparkPartitionedOrderTest::concat));
  }

  /**
   * Aligned blocks go together, merged in block order, and nothing new stays cached (other
   * tests' RDDs in the shared session may be unpersisted meanwhile, so the check is that no
   * RDD is persisted that was not before).
   */
  @ParameterizedTest
  @ValueSource(ints = {3, 12, 40})
  void zipAggregatePairsAlignedBlocksInBlockOrder(int n, SparkSession spark) {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Partitioned<Integer> blocks = blocks(spark, n);
    Partitioned<Integer> tenfold = blocks.map(b -> 10 * b);
    Set<Integer> cachedBefore = new HashSet<>(sc.getPersistentRDDs().keySet());
    List<Integer> expected = new ArrayList<>();
    for (int b = 0; b < n; b++) {
      expected.add(b + 10 * b);
    }
    assertEquals(expected, blocks.zipAggregate(tenfold, (a, t) -> slow(a + t, 11 * n),
        SparkPartitionedOrderTest::concat));
    Set<Integer> cachedNow = new HashSet<>(sc.getPersistentRDDs().keySet());
    cachedNow.removeAll(cachedBefore);
    assertEquals(Set.of(), cachedNow);
    tenfold.release();
  }

  /** As {@link #zipAggregatePairsAlignedBlocksInBlockOrder}, each pair's result returned. */
  @ParameterizedTest
  @ValueSource(ints = {3, 12})
  void zipCollectReturnsAlignedBlocksInBlockOrder(int n, SparkSession spark) {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Partitioned<Integer> blocks = blocks(spark, n);
    Partitioned<Integer> tenfold = blocks.map(b -> 10 * b);
    Set<Integer> cachedBefore = new HashSet<>(sc.getPersistentRDDs().keySet());
    List<List<Integer>> expected = new ArrayList<>();
    for (int b = 0; b < n; b++) {
      expected.add(List.of(b + 10 * b));
    }
    assertEquals(expected, blocks.zipCollect(tenfold, (a, t) -> slow(a + t, 11 * n)));
    Set<Integer> cachedNow = new HashSet<>(sc.getPersistentRDDs().keySet());
    cachedNow.removeAll(cachedBefore);
    assertEquals(Set.of(), cachedNow);
    tenfold.release();
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 7})
  void crossMergesInBlockOrder(int n, SparkSession spark) {
    Partitioned<Integer> blocks = blocks(spark, n);
    List<List<Integer>> expected = new ArrayList<>();
    for (int a = 0; a < n; a++) {
      expected.add(blockOrder(n));
    }
    assertEquals(expected, blocks.crossMerge((a, b) -> slow(b, n),
        SparkPartitionedOrderTest::concat).collect(l -> l));
    assertEquals(expected, blocks.crossMergeOnce(
        (a, b) -> new Partitioned.Pieces<>(slow(b, n), slow(a, n)),
        SparkPartitionedOrderTest::concat).collect(l -> l));
  }

  /** Blocks 0 … n − 1, one per partition. */
  private static Partitioned<Integer> blocks(SparkSession spark, int n) {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    return new SparkPartitioned<>(sc.parallelize(blockOrder(n), n), new SparkExecution(sc, "test"));
  }

  private static List<Integer> blockOrder(int n) {
    return IntStream.range(0, n).boxed().collect(Collectors.toList());
  }

  /** Block b as a one-element list, after a wait that is longer for earlier blocks. */
  private static List<Integer> slow(int b, int n) {
    try {
      Thread.sleep(2L * (n - b));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return new ArrayList<>(List.of(b));
  }

  private static List<Integer> concat(List<Integer> a, List<Integer> b) {
    List<Integer> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
