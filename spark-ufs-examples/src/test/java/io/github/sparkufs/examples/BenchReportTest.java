package io.github.sparkufs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.examples.bench.PaperProtocol;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.ml.Selectors;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's ACC and NMI charts decode to their size, are drawn, and carry error bars: on
 * planted data (3 clusters on 4 of 12 features, separation 1.5, 90 rows) the method that
 * ranks the planted features first is drawn in the report's second colour (orange, a dashed
 * line). A vertical orange run longer than the line's 10-pixel dashes can only be an error bar:
 * with 5 k-means runs the longest was 105 px (ACC) and 116 px (NMI), with one run (no spread)
 * 7 px, the marker.
 */
class BenchReportTest {

  private static final PlantedClusters PLANTED = new PlantedClusters(12, 4, 3, 1.5, 5);
  private static final int N = 90;
  private static final int[] MS = {2, 4, 6, 8};
  /** The report's second colour (Okabe–Ito orange). */
  private static final int ORANGE = 0xE69F00;

  private static Path report(Path dir, int kmeansRuns) throws Exception {
    DenseMatrix x = PLANTED.matrix(N);
    int[] classes = PLANTED.labels(N);
    PaperProtocol protocol = new PaperProtocol(3, kmeansRuns, 1);
    double[] planted = new double[12];
    for (int f : PLANTED.informativeFeatures()) {
      planted[f] = 1;
    }
    double[] noiseFirst = planted.clone();
    for (int f = 0; f < noiseFirst.length; f++) {
      noiseFirst[f] = 1 - planted[f] + 0.01 * f;
    }
    List<MethodBench> methods = List.of(
        new MethodBench("noise", Selectors.create("lapscore"), 0.1, new double[0],
            protocol.evaluate(x, classes, noiseFirst, true, MS)),
        new MethodBench("planted", Selectors.create("lapscore"), 0.1, new double[0],
            protocol.evaluate(x, classes, planted, true, MS)));
    Baselines baselines = new Baselines(Baselines.allFeatures(protocol, x, classes), null, 5,
        Baselines.random(protocol, x, classes, MS, 5, 1));
    Path out = dir.resolve("report-" + kmeansRuns);
    new BenchReport("planted", N, 12, 3, kmeansRuns, "test", methods, baselines).write(out);
    return out;
  }

  /** The longest vertical run of pixels within a small distance of {@code rgb}. */
  private static int longestVerticalRun(BufferedImage image, int rgb) {
    int longest = 0;
    for (int x = 0; x < image.getWidth(); x++) {
      int run = 0;
      for (int y = 0; y < image.getHeight(); y++) {
        run = near(image.getRGB(x, y), rgb) ? run + 1 : 0;
        longest = Math.max(longest, run);
      }
    }
    return longest;
  }

  private static boolean near(int a, int b) {
    int distance = 0;
    for (int shift = 0; shift < 24; shift += 8) {
      distance += Math.abs(((a >> shift) & 0xFF) - ((b >> shift) & 0xFF));
    }
    return distance < 60;
  }

  private static BufferedImage decodeDrawn(Path png) throws Exception {
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(900, image.getWidth());
    assertEquals(560, image.getHeight());
    long coloured = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if ((image.getRGB(x, y) & 0xFFFFFF) != 0xFFFFFF) {
          coloured++;
        }
      }
    }
    assertTrue(coloured > 0.02 * image.getWidth() * image.getHeight(),
        png + " has " + coloured + " non-white pixels");
    return image;
  }

  @Test
  void theMetricChartsHaveErrorBarsOverTheKMeansRuns(@TempDir Path dir) throws Exception {
    Path spread = report(dir, 5);
    Path single = report(dir, 1);
    for (String png : new String[] {"acc.png", "nmi.png"}) {
      int withBars = longestVerticalRun(decodeDrawn(spread.resolve(png)), ORANGE);
      int withoutBars = longestVerticalRun(decodeDrawn(single.resolve(png)), ORANGE);
      assertTrue(withBars > 40, png + ": longest orange vertical run " + withBars + " px");
      assertTrue(withoutBars <= 12, png + " of one k-means run: " + withoutBars + " px");
    }
    String html = Files.readString(spread.resolve(BenchReport.INDEX));
    assertTrue(html.contains("<img src=\"acc.png\"") && html.contains("<img src=\"nmi.png\""),
        html);
  }
}
