package io.github.sparkufs.readme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md's Java quick start is {@link QuickStart}, from its first import to its end: this
 * test checks that the two texts are the same and runs the program, so the README cannot drift
 * from the API.
 */
@ExtendWith(SparkSessionExtension.class)
class ReadmeQuickStartTest {

  private static final Path README = Paths.get("..", "README.md");
  private static final Path SOURCE =
      Paths.get("src", "test", "java", "io", "github", "sparkufs", "readme", "QuickStart.java");

  @Test
  void readmeShowsQuickStartVerbatim() throws IOException {
    Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL)
        .matcher(Files.readString(README));
    assertTrue(block.find(), "README.md has no ```java block");
    String source = Files.readString(SOURCE);
    assertEquals(source.substring(source.indexOf("import ")), block.group(1),
        "README.md's java block differs from " + SOURCE + " after its package line");
    assertTrue(!block.find(), "README.md has a second ```java block that no test runs");
  }

  @Test
  void quickStartRunsAsWritten(SparkSession spark, @TempDir Path dir) throws IOException {
    // Three clusters planted on 5 of 20 features (the rest noise), written as LIBSVM.
    PlantedClusters planted = new PlantedClusters(20, 5, 3, 3.0, 9);
    String data = dir.resolve("planted.libsvm").toString();
    TestData.labeled(spark, planted.matrix(150), planted.labels(150), 2)
        .select(functions.col("label").cast("double"), functions.col("features"))
        .write().format("libsvm").save(data);
    String modelPath = dir.resolve("model").toString();

    QuickStart.main(new String[] {data, modelPath});

    UnsupervisedSelectorModel model = UnsupervisedSelectorModel.load(modelPath);
    assertEquals("ndfs", model.method());
    assertEquals(20, model.numFeatures());
    // All 5 planted features kept: on native OpenBLAS and the pure-Java BLAS alike the 5th
    // score is .0173 and the 6th (a noise feature) .0139.
    int[] informative = planted.informativeFeatures();
    Arrays.sort(informative);
    assertArrayEquals(informative, model.selectedFeatures());
    Row first = model.transform(spark.read().format("libsvm").load(data)).first();
    assertEquals(5, ((Vector) first.getAs("selectedFeatures")).size());
  }
}
