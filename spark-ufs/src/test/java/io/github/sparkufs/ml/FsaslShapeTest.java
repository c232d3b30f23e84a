package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * FSASL's least number of rows, as the README states it: numNeighbors + 2 (μ, Eq. 21, reads
 * each sample's k + 1 nearest distances) and numClusters + 6 (the eigensolver iterates c + 5
 * vectors orthogonal to the constant one).
 */
@ExtendWith(SparkSessionExtension.class)
class FsaslShapeTest {

  private static FsaslSelector fsasl(int k) {
    return new FsaslSelector().setNumClusters(2).setNumNeighbors(k).setNumTopFeatures(2)
        .setMaxIter(2).setSeed(3);
  }

  @Test
  void numNeighborsPlusOneRowsAreRejectedNamingTheLeastRows(SparkSession spark) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> fsasl(7).fit(TestData.vectors(spark, TestData.uniform(4, 8, 1), 1)));
    assertEquals("FSASL needs at least numNeighbors + 2 = 9 rows (μ, Eq. 21, reads each "
        + "sample's numNeighbors + 1 nearest distances), got 8", e.getMessage());
  }

  @Test
  void numClustersPlusFiveRowsAreRejectedNamingTheLeastRows(SparkSession spark) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> fsasl(2).fit(TestData.vectors(spark, TestData.uniform(4, 7, 1), 1)));
    assertEquals("FSASL needs at least numClusters + 6 = 8 rows (its eigensolver iterates "
        + "numClusters + 5 vectors orthogonal to the constant one), got 7", e.getMessage());
  }

  @Test
  void theLeastRowsAreAccepted(SparkSession spark) {
    assertEquals(4, fsasl(6).fit(TestData.vectors(spark, TestData.uniform(4, 8, 1), 1))
        .scores().length);
  }
}
