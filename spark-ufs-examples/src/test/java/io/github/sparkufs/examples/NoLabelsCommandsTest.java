package io.github.sparkufs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stability} and {@code compare} on planted data (3 clusters on 5 of 20 features,
 * separation 3, 150 rows), where the Laplacian Score's top 5 are the planted features with
 * Φ = 1 and the best silhouette on every data seed 1–10 (SelectionStabilityTest in the library).
 */
class NoLabelsCommandsTest {

  private static final PlantedClusters PLANTED = new PlantedClusters(20, 5, 3, 3.0, 2);

  /** The PNG decodes to the chart's size and is drawn, not blank: many colours, little white. */
  private static void assertDrawnChart(Path png) throws Exception {
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(900, image.getWidth());
    assertEquals(640, image.getHeight());
    Set<Integer> colours = new HashSet<>();
    long coloured = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int rgb = image.getRGB(x, y) & 0xFFFFFF;
        colours.add(rgb);
        if (rgb != 0xFFFFFF) {
          coloured++;
        }
      }
    }
    assertTrue(colours.size() > 20, png + " has " + colours.size() + " colours");
    assertTrue(coloured > 0.02 * image.getWidth() * image.getHeight(),
        png + " has " + coloured + " non-white pixels");
  }

  @Test
  void stabilityPrintsTheCurveAndSuggestsThePlantedM(@TempDir Path dir) throws Exception {
    Path data = SparkUfsCliTest.planted(dir, PLANTED, 150);
    Path chart = dir.resolve("stability.png");
    SparkUfsCliTest.Run r = new SparkUfsCliTest.Run("stability", "--method", "lapscore",
        "--data", data.toString(), "--num-features", "20", "--clusters", "3", "--select",
        "2,5,10", "--resamples", "8", "--chart", chart.toString(), "--master", "local[2]");
    assertEquals(0, r.status, r.err);
    assertEquals(3, r.out.lines().filter(l -> l.matches("\\s+(2|5|10)\\s+.*")).count(), r.out);
    assertTrue(r.out.contains("suggested m = 5: ") && r.out.contains(
        "largest silhouette gain over m random features"), r.out);
    assertDrawnChart(chart);
  }

  @Test
  void compareTabulatesEveryMethodWithAndWithoutLabelMeasures(@TempDir Path dir)
      throws Exception {
    Path data = SparkUfsCliTest.planted(dir, PLANTED, 150);
    Path chart = dir.resolve("compare.png");
    SparkUfsCliTest.Run r = new SparkUfsCliTest.Run("compare", "--methods", "lapscore,maxvar",
        "--data", data.toString(), "--num-features", "20", "--clusters", "3", "--top", "5",
        "--resamples", "5", "--chart", chart.toString(), "--master", "local[2]");
    assertEquals(0, r.status, r.err);
    assertTrue(r.out.lines().anyMatch(l -> l.startsWith("lapscore  ")), r.out);
    assertTrue(r.out.lines().anyMatch(l -> l.startsWith("maxvar  ")), r.out);
    assertDrawnChart(chart);
  }

  @Test
  void aGridBeyondTheFeaturesIsAUsageError(@TempDir Path dir) throws Exception {
    SparkUfsCliTest.Run r = new SparkUfsCliTest.Run("stability", "--method", "lapscore",
        "--data", SparkUfsCliTest.planted(dir, PLANTED, 30).toString(), "--num-features",
        "20", "--clusters", "3", "--select", "5,20");
    assertEquals(2, r.status, r.out);
    assertTrue(r.err.contains("--select must stay below d = 20"), r.err);
  }
}
