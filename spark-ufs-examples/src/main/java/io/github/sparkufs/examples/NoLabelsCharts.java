package io.github.sparkufs.examples;

import io.github.sparkufs.eval.FeatureCountSuggestion;
import io.github.sparkufs.eval.StabilityCurve;
import io.github.sparkufs.ml.SelectorComparison;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The charts of {@code stability} and {@code compare}: the evidence for a number of features m
 * (the score curve over the stability and silhouette curves, the suggested m and the score
 * elbow marked), and the label-free measures of several methods side by side.
 */
final class NoLabelsCharts {

  private static final int WIDTH = 900;
  private static final int HEIGHT = 640;
  /** Okabe–Ito colours, as the bench report's. */
  private static final Color BLACK = new Color(0x00, 0x00, 0x00);
  private static final Color ORANGE = new Color(0xE6, 0x9F, 0x00);
  private static final Color BLUE = new Color(0x00, 0x72, 0xB2);
  private static final Color GREEN = new Color(0x00, 0x9E, 0x73);
  private static final Color VERMILLION = new Color(0xD5, 0x5E, 0x00);
  private static final Color GREY = new Color(0x99, 0x99, 0x99);
  private static final Color[] BARS = {BLACK, ORANGE, BLUE, GREEN, VERMILLION};
  private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 14);
  private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 16);

  private NoLabelsCharts() {}

  /**
   * Top: the features' scores, best first, against their rank. Bottom: Nogueira's Φ with its
   * 95% interval (for top-m subsets, all of size m, it equals the mean Kuncheva index) and,
   * when computed, the silhouette of the top m, the median silhouette of m random features and
   * the gain of the first over the second, against m. Dashed: the suggested m; dotted: the
   * score curve's elbow.
   */
  static void stability(FeatureCountSuggestion s, String title, Path file) throws IOException {
    XYSeries scores = new XYSeries("score, best first (negated where smaller is better)");
    double[] sorted = s.sortedScores();
    for (int r = 0; r < sorted.length && Double.isFinite(sorted[r]); r++) {
      scores.add(r + 1, sorted[r]);
    }
    XYLineAndShapeRenderer scoreLine = lines(BLACK);
    scoreLine.setSeriesShapesVisible(0, false);
    XYPlot top = new XYPlot(new XYSeriesCollection(scores), null, axis("score"), scoreLine);
    XYIntervalSeries phi = new XYIntervalSeries("stability: Nogueira Φ = Kuncheva (95% interval)");
    XYSeries silhouette = new XYSeries("silhouette of k-means on the top m");
    XYSeries random = new XYSeries("silhouette on m random features (median)");
    XYSeries gain = new XYSeries("gain of the top m over random");
    double[] gains = s.silhouetteGains();
    List<StabilityCurve.Point> points = s.stability().points();
    for (int i = 0; i < points.size(); i++) {
      StabilityCurve.Point p = points.get(i);
      int m = p.numFeatures();
      phi.add(m, m, m, p.nogueira().value(), p.nogueira().lower(), p.nogueira().upper());
      if (gains.length > 0) {
        silhouette.add(m, s.silhouettes()[i]);
        random.add(m, s.randomSilhouettes()[i]);
        gain.add(m, gains[i]);
      }
    }
    XYErrorRenderer errors = new XYErrorRenderer();
    errors.setDrawXError(false);
    errors.setDefaultLinesVisible(true);
    errors.setSeriesPaint(0, BLUE);
    errors.setSeriesStroke(0, new BasicStroke(2.2f));
    XYIntervalSeriesCollection intervals = new XYIntervalSeriesCollection();
    intervals.addSeries(phi);
    XYPlot bottom = new XYPlot(intervals, null, axis("stability, silhouette"), errors);
    XYSeriesCollection silhouettes = new XYSeriesCollection(silhouette);
    silhouettes.addSeries(random);
    silhouettes.addSeries(gain);
    XYLineAndShapeRenderer silhouetteLines = lines(GREEN, GREY, ORANGE);
    silhouetteLines.setSeriesStroke(1, new BasicStroke(2.2f, BasicStroke.CAP_BUTT,
        BasicStroke.JOIN_ROUND, 10f, new float[] {6f, 4f}, 0f));
    bottom.setDataset(1, silhouettes);
    bottom.setRenderer(1, silhouetteLines);
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(axis("m (number of top features)"));
    plot.add(top, 2);
    plot.add(bottom, 3);
    for (XYPlot p : new XYPlot[] {top, bottom}) {
      style(p);
      p.addDomainMarker(marker(s.numFeatures(), new float[] {8f, 5f},
          "suggested m = " + s.numFeatures()));
      p.addDomainMarker(marker(s.scoreElbow(), new float[] {2f, 3f},
          "elbow m = " + s.scoreElbow()));
    }
    save(new JFreeChart(title, TITLE, plot, true), file);
  }

  /** One group of bars per method: Φ, redundancy, silhouette and, with labels, ACC and NMI. */
  static void comparison(List<SelectorComparison.Result> rows, String title, Path file)
      throws IOException {
    DefaultCategoryDataset bars = new DefaultCategoryDataset();
    for (SelectorComparison.Result r : rows) {
      String method = r.method() + " (m=" + r.numFeatures() + ")";
      bars.addValue(r.stability().value(), "stability Φ", method);
      bars.addValue(r.redundancy(), "redundancy (mean |corr|)", method);
      bars.addValue(r.silhouette(), "silhouette", method);
      if (!Double.isNaN(r.accuracy())) {
        bars.addValue(r.accuracy(), "ACC", method);
        bars.addValue(r.nmi(), "NMI", method);
      }
    }
    BarRenderer renderer = new BarRenderer();
    renderer.setBarPainter(new StandardBarPainter());
    renderer.setShadowVisible(false);
    for (int i = 0; i < BARS.length; i++) {
      renderer.setSeriesPaint(i, BARS[i]);
    }
    CategoryAxis methods = new CategoryAxis("method");
    methods.setLabelFont(LABEL);
    CategoryPlot plot = new CategoryPlot(bars, methods, axis("value"), renderer);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
    save(new JFreeChart(title, TITLE, plot, true), file);
  }

  private static NumberAxis axis(String label) {
    NumberAxis axis = new NumberAxis(label);
    axis.setAutoRangeIncludesZero(false);
    axis.setLabelFont(LABEL);
    return axis;
  }

  private static XYLineAndShapeRenderer lines(Color... colours) {
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
    for (int i = 0; i < colours.length; i++) {
      renderer.setSeriesPaint(i, colours[i]);
      renderer.setSeriesStroke(i, new BasicStroke(2.2f));
    }
    return renderer;
  }

  private static ValueMarker marker(int m, float[] dash, String label) {
    ValueMarker marker = new ValueMarker(m, VERMILLION, new BasicStroke(1.8f,
        BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, dash, 0f));
    marker.setLabel(label);
    marker.setLabelFont(LABEL);
    marker.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
    marker.setLabelTextAnchor(TextAnchor.TOP_LEFT);
    marker.setLabelBackgroundColor(new Color(0, 0, 0, 0));
    return marker;
  }

  private static void style(XYPlot plot) {
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
    plot.setRangeGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
  }

  private static void save(JFreeChart chart, Path file) throws IOException {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
    chart.setBackgroundPaint(Color.WHITE);
    LegendTitle legend = chart.getLegend();
    legend.setItemFont(LABEL);
    legend.setPosition(RectangleEdge.BOTTOM);
    OutputFiles.replace(file, path -> ChartUtils.saveChartAsPNG(path.toFile(), chart, WIDTH,
        HEIGHT));
  }
}
