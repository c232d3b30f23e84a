package io.github.sparkufs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.zip.GZIPOutputStream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A small local LIBSVM file read on the driver while the session starts gives the frame and
 * the mistakes Spark's reading of it gives: the same rows in the same order, the same schema,
 * the same line numbers.
 */
class LibsvmReadAheadTest {

  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = SparkSession.builder().master("local[2]").appName("LibsvmReadAheadTest")
        .config("spark.ui.enabled", "false").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  /**
   * 300 lines of random rows on 7 features (some with none), ending in \n, \r\n or \r, with
   * blank and comment lines between them, and {@code last} as the final line.
   */
  private static String lines(String last) {
    SplittableRandom rnd = new SplittableRandom(11);
    String[] ends = {"\n", "\r\n", "\r"};
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      int kind = rnd.nextInt(10);
      if (kind == 0) {
        sb.append(rnd.nextBoolean() ? "" : "# a comment");
      } else {
        sb.append(rnd.nextInt(4)).append(kind == 1 ? ".5" : "");
        for (int f = 1; f <= 7; f++) {
          if (rnd.nextInt(3) > 0) {
            sb.append(rnd.nextBoolean() ? ' ' : '\t').append(f).append(':')
                .append(rnd.nextDouble() * 100 - 50);
          }
        }
      }
      sb.append(ends[rnd.nextInt(ends.length)]);
    }
    return sb.append(last).toString();
  }

  private static Path write(Path dir, String name, String text) throws Exception {
    Path file = dir.resolve(name);
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    if (name.endsWith(".gz")) {
      try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
        out.write(bytes);
      }
    } else {
      Files.write(file, bytes);
    }
    return file;
  }

  private static SharedOptions.InputTable input(Path file, int numFeatures) {
    SharedOptions.InputTable in = new SharedOptions.InputTable();
    in.path = file.toString();
    in.numFeatures = numFeatures;
    in.clusters = 2;
    return in;
  }

  @ParameterizedTest
  @ValueSource(strings = {"rows.libsvm", "rows.libsvm.gz"})
  void theDriverReadsTheRowsSparkReads(String name, @TempDir Path dir) throws Exception {
    SharedOptions.InputTable in = input(write(dir, name, lines("2 3:1.25")), 7);
    LabeledData bySpark = LabeledData.read(spark, in, null);
    LabeledData byDriver = LabeledData.read(spark, in, assertReadsAhead(in));
    List<Row> rows = bySpark.frame.collectAsList();
    assertEquals(rows, byDriver.frame.collectAsList());
    assertEquals(bySpark.frame.schema(), byDriver.frame.schema());
    assertEquals(bySpark.frame.schema().apply(LabeledData.FEATURES).metadata(),
        byDriver.frame.schema().apply(LabeledData.FEATURES).metadata());
    assertEquals(7, byDriver.numFeatures);
    assertEquals(lines("2 3:1.25").lines().filter(l -> !l.isBlank() && !l.startsWith("#"))
        .count(), rows.size());
  }

  @ParameterizedTest
  @ValueSource(strings = {"3 1:0.5 2:x", "3 4:1 8:2", ""})
  void theDriverReportsTheMistakesSparkReports(String last, @TempDir Path dir)
      throws Exception {
    // "": a file of comment and blank lines only.
    String text = last.isEmpty() ? "# nothing\n\n# here\r\n" : lines(last);
    SharedOptions.InputTable in = input(write(dir, "bad.libsvm.gz", text), 7);
    UsageException bySpark = assertThrows(UsageException.class,
        () -> LabeledData.read(spark, in, null));
    UsageException byDriver = assertThrows(UsageException.class,
        () -> LabeledData.read(spark, in, assertReadsAhead(in)));
    assertEquals(bySpark.getMessage(), byDriver.getMessage());
  }

  @Test
  void foldersTablesAndRemotePathsAreLeftToSpark(@TempDir Path dir) throws Exception {
    write(dir, "part-0.libsvm", lines(""));
    assertNull(LabeledData.readAhead(input(dir, 7)));
    assertNull(LabeledData.readAhead(input(write(dir, "t.csv", "a,b\n1,2\n"), 7)));
    assertNull(LabeledData.readAhead(input(write(dir, "_hidden.libsvm", lines("")), 7)));
    SharedOptions.InputTable remote = input(dir, 7);
    remote.path = "hdfs://namenode/data.libsvm";
    assertNull(LabeledData.readAhead(remote));
  }

  private static CompletableFuture<LabeledData.DriverRead> assertReadsAhead(
      SharedOptions.InputTable in) {
    CompletableFuture<LabeledData.DriverRead> ahead = LabeledData.readAhead(in);
    assertNotNull(ahead, "not read ahead");
    return ahead;
  }
}
