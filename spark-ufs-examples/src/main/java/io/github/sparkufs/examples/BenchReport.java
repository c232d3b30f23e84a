package io.github.sparkufs.examples;

import io.github.sparkufs.examples.bench.PaperProtocol;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.DefaultDrawingSupplier;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.xy.XYDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * The HTML report of a {@code bench} run ({@code --report DIR}): {@code acc.png} and
 * {@code nmi.png} plot the protocol's mean ACC and NMI against the number of kept features m
 * with error bars of ± one standard deviation over the k-means runs, one line per method and,
 * thin and grey without markers, one per {@link Baselines} row (maxvar dashed, with its bars;
 * random dotted, the median over the draws ± their standard deviation; all features solid and
 * flat at its mean, its spread in the table); {@code objective-METHOD.png} plots the
 * objective per iteration of each iterative method (log scale when the values are positive and
 * span a factor of ten); {@code index.html} shows the charts with the fit-time table and the
 * ACC/NMI table, baselines included.
 */
final class BenchReport {

  /** The objective axis is logarithmic when the values are positive and span this factor. */
  private static final double LOG_SCALE_SPAN = 10;

  private static final int WIDTH = 900;
  private static final int HEIGHT = 560;
  private static final int SMALL_WIDTH = 600;
  private static final int SMALL_HEIGHT = 380;

  /** Okabe–Ito colours (told apart also with colour-vision deficiency); grey is for baselines. */
  private static final Color[] COLOURS = {
      new Color(0x00, 0x00, 0x00), new Color(0xE6, 0x9F, 0x00), new Color(0x56, 0xB4, 0xE9),
      new Color(0x00, 0x9E, 0x73), new Color(0x00, 0x72, 0xB2), new Color(0xD5, 0x5E, 0x00),
      new Color(0xCC, 0x79, 0xA7)};

  /** The error bars: solid whatever the line's dash, capped. */
  private static final BasicStroke ERROR_STROKE = new BasicStroke(1.2f);
  private static final double ERROR_CAP = 6;

  /** The baselines' lines: grey, thinner than the methods', without markers. */
  private static final Color BASELINE_COLOUR = new Color(0x99, 0x99, 0x99);
  private static final float BASELINE_WIDTH = 1.6f;
  private static final float[] MAXVAR_DASH = {8f, 5f};
  private static final float[] RANDOM_DASH = {2f, 3f};

  /** Seven line patterns (solid, dashed, dotted, dash-dot, …), so lines differ without colour. */
  private static final float[][] DASHES = {
      null, {10f, 5f}, {2f, 4f}, {10f, 4f, 2f, 4f}, {18f, 6f}, {10f, 4f, 2f, 4f, 2f, 4f},
      {5f, 5f}};

  /** Of JFreeChart's standard marker shapes, the ones easy to tell apart, in this order. */
  private static final int[] SHAPES = {0, 1, 2, 3, 5, 9, 7, 6};

  private final String dataset;
  private final int n;
  private final int d;
  private final int clusters;
  private final int kmeansRuns;
  private final String blas;
  private final List<MethodBench> results;
  private final Baselines baselines;

  BenchReport(String dataset, int n, int d, int clusters, int kmeansRuns, String blas,
      List<MethodBench> results, Baselines baselines) {
    if (results.isEmpty()) {
      throw new IllegalArgumentException("a bench report needs at least one method's results");
    }
    this.dataset = dataset;
    this.n = n;
    this.d = d;
    this.clusters = clusters;
    this.kmeansRuns = kmeansRuns;
    this.blas = blas;
    this.results = List.copyOf(results);
    this.baselines = baselines;
  }

  /** One of the two clustering metrics, read from a method's row and from a random row. */
  private enum Metric {
    ACC(PaperProtocol.Row::acc, Baselines.RandomRow::acc),
    NMI(PaperProtocol.Row::nmi, Baselines.RandomRow::nmi);

    private final Function<PaperProtocol.Row, PaperProtocol.Stat> stat;
    private final Function<Baselines.RandomRow, Baselines.Spread> spread;

    Metric(Function<PaperProtocol.Row, PaperProtocol.Stat> stat,
        Function<Baselines.RandomRow, Baselines.Spread> spread) {
      this.stat = stat;
      this.spread = spread;
    }

    /** The mean over the k-means runs, ± their standard deviation. */
    void add(YIntervalSeries line, PaperProtocol.Row row) {
      PaperProtocol.Stat s = stat.apply(row);
      line.add(row.numFeatures(), s.mean(), s.mean() - s.std(), s.mean() + s.std());
    }

    /** The median over the random draws, ± their standard deviation. */
    void add(YIntervalSeries line, Baselines.RandomRow row) {
      Baselines.Spread s = spread.apply(row);
      line.add(row.numFeatures(), s.median(), s.median() - s.std(), s.median() + s.std());
    }

    double mean(PaperProtocol.Row row) {
      return stat.apply(row).mean();
    }
  }

  /** The report's page in its folder. */
  static final String INDEX = "index.html";

  /** Writes the charts and {@link #INDEX} into dir (created if missing). */
  void write(Path dir) throws IOException {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
    Files.createDirectories(dir);
    save(metricChart(Metric.ACC), dir.resolve("acc.png"), WIDTH, HEIGHT);
    save(metricChart(Metric.NMI), dir.resolve("nmi.png"), WIDTH, HEIGHT);
    List<String> objectiveCharts = new ArrayList<>();
    for (MethodBench r : results) {
      if (r.objectiveHistory.length > 0) {
        String name = "objective-" + r.method + ".png";
        save(objectiveChart(r), dir.resolve(name), SMALL_WIDTH, SMALL_HEIGHT);
        objectiveCharts.add(name);
      }
    }
    Files.writeString(dir.resolve(INDEX), html(objectiveCharts), StandardCharsets.UTF_8);
  }

  private JFreeChart metricChart(Metric metric) {
    YIntervalSeriesCollection lines = new YIntervalSeriesCollection();
    for (MethodBench r : results) {
      lines.addSeries(line(r.method, r.rows, metric));
    }
    List<float[]> baselineDashes = new ArrayList<>();
    if (baselines.maxvar != null) {
      lines.addSeries(line("maxvar (baseline)", baselines.maxvar.rows, metric));
      baselineDashes.add(MAXVAR_DASH);
    }
    if (!baselines.random.isEmpty()) {
      YIntervalSeries random = new YIntervalSeries("random (median of " + baselines.randomDraws
          + " draws)");
      for (Baselines.RandomRow row : baselines.random) {
        metric.add(random, row);
      }
      lines.addSeries(random);
      baselineDashes.add(RANDOM_DASH);
    }
    YIntervalSeries all = new YIntervalSeries("all " + d + " features");
    double allMean = metric.mean(baselines.allFeatures);
    for (PaperProtocol.Row row : results.get(0).rows) {
      all.add(row.numFeatures(), allMean, allMean, allMean);
    }
    lines.addSeries(all);
    baselineDashes.add(null);
    NumberAxis x = new NumberAxis("m (number of selected features)");
    x.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    x.setAutoRangeIncludesZero(false);
    int step = commonStep();
    if (step > 0) {
      x.setTickUnit(new NumberTickUnit(step));
    }
    NumberAxis y = new NumberAxis(metric + " (mean ± std of " + kmeansRuns
        + " k-means runs)");
    y.setAutoRangeIncludesZero(false);
    XYErrorRenderer renderer = new XYErrorRenderer();
    renderer.setDrawXError(false);
    renderer.setDefaultLinesVisible(true);
    renderer.setErrorStroke(ERROR_STROKE);
    renderer.setCapLength(ERROR_CAP);
    JFreeChart chart = chart(metric + " against m — " + dataset + " (n=" + n + ", d=" + d
        + ", c=" + clusters + ")", lines, x, y, renderer);
    for (int k = 0; k < baselineDashes.size(); k++) {
      int i = results.size() + k;
      renderer.setSeriesPaint(i, BASELINE_COLOUR);
      renderer.setSeriesStroke(i, new BasicStroke(BASELINE_WIDTH, BasicStroke.CAP_BUTT,
          BasicStroke.JOIN_ROUND, 10f, baselineDashes.get(k), 0f));
      renderer.setSeriesShapesVisible(i, false);
    }
    return chart;
  }

  private static YIntervalSeries line(String name, List<PaperProtocol.Row> rows,
      Metric metric) {
    YIntervalSeries line = new YIntervalSeries(name);
    for (PaperProtocol.Row row : rows) {
      metric.add(line, row);
    }
    return line;
  }

  /**
   * The greatest common divisor of the m values, when it ticks the m axis at most 20 times
   * (ticks at 50, 100, … for the papers' grid); 0 to let the axis choose.
   */
  private int commonStep() {
    int gcd = 0;
    int largest = 0;
    for (MethodBench r : results) {
      for (PaperProtocol.Row row : r.rows) {
        gcd = BigInteger.valueOf(gcd).gcd(BigInteger.valueOf(row.numFeatures())).intValue();
        largest = Math.max(largest, row.numFeatures());
      }
    }
    return gcd > 0 && largest / gcd <= 20 ? gcd : 0;
  }

  private JFreeChart objectiveChart(MethodBench r) {
    XYSeriesCollection lines = new XYSeriesCollection();
    XYSeries line = new XYSeries(r.method);
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (int t = 0; t < r.objectiveHistory.length; t++) {
      line.add(t + 1, r.objectiveHistory[t]);
      min = Math.min(min, r.objectiveHistory[t]);
      max = Math.max(max, r.objectiveHistory[t]);
    }
    lines.addSeries(line);
    NumberAxis x = new NumberAxis("iteration");
    x.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    ValueAxis y;
    if (min > 0 && max >= LOG_SCALE_SPAN * min) {
      LogAxis log = new LogAxis("objective (log scale)");
      log.setStandardTickUnits(NumberAxis.createStandardTickUnits());
      log.setNumberFormatOverride(new TwoSignificantDigits());
      y = log;
    } else {
      NumberAxis linear = new NumberAxis("objective");
      linear.setAutoRangeIncludesZero(false);
      y = linear;
    }
    JFreeChart chart = chart(r.method + " objective per iteration — " + dataset, lines, x, y,
        new XYLineAndShapeRenderer(true, true));
    chart.removeLegend();
    return chart;
  }

  private JFreeChart chart(String title, XYDataset lines, ValueAxis x, ValueAxis y,
      XYLineAndShapeRenderer renderer) {
    Shape[] shapes = DefaultDrawingSupplier.createStandardSeriesShapes();
    for (int i = 0; i < lines.getSeriesCount(); i++) {
      renderer.setSeriesPaint(i, COLOURS[i % COLOURS.length]);
      renderer.setSeriesStroke(i, new BasicStroke(2.2f, BasicStroke.CAP_BUTT,
          BasicStroke.JOIN_ROUND, 10f, DASHES[i % DASHES.length], 0f));
      renderer.setSeriesShape(i, shapes[SHAPES[i % SHAPES.length]]);
    }
    XYPlot plot = new XYPlot(lines, x, y, renderer);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
    plot.setRangeGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
    Font label = new Font(Font.SANS_SERIF, Font.PLAIN, 15);
    Font ticks = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    for (ValueAxis axis : new ValueAxis[] {x, y}) {
      axis.setLabelFont(label);
      axis.setTickLabelFont(ticks);
    }
    JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 17), plot,
        true);
    chart.setBackgroundPaint(Color.WHITE);
    LegendTitle legend = chart.getLegend();
    legend.setItemFont(label);
    legend.setPosition(RectangleEdge.RIGHT);
    return chart;
  }

  private static void save(JFreeChart chart, Path file, int width, int height)
      throws IOException {
    ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
  }

  private String html(List<String> objectiveCharts) {
    StringBuilder h = new StringBuilder();
    String title = "spark-ufs bench: " + dataset;
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
        .append(escape(title)).append("</title>\n<style>\n")
        .append("body{font-family:sans-serif;margin:2em;max-width:1400px}\n")
        .append("table{border-collapse:collapse;margin:1em 0}\n")
        .append("th,td{border:1px solid #ccc;padding:.3em .7em;text-align:right}\n")
        .append("th:first-child,td:first-child{text-align:left}\n")
        .append("img{max-width:100%;margin:.5em 0}\n</style>\n</head>\n<body>\n");
    h.append("<h1>").append(escape(title)).append("</h1>\n<p>")
        .append(String.format(Locale.ROOT, "n = %d samples, d = %d features, c = %d clusters; "
            + "for each m the top m features are kept and k-means runs %d times (mean ± std "
            + "over the runs); %s BLAS.", n, d, clusters, kmeansRuns, escape(blas)))
        .append(" Baselines, same protocol (grey in the charts):")
        .append(baselines.maxvar == null ? "" : " maxvar, the m features of largest variance;")
        .append(baselines.random.isEmpty() ? "" : String.format(Locale.ROOT,
            " random, the median over %d draws of m features drawn at random (± the std over "
            + "the draws);", baselines.randomDraws))
        .append(" all, k-means on all ").append(d).append(" features.</p>\n");
    h.append("<h2>Fit time</h2>\n<table>\n<tr><th>method</th><th>fit (s)</th>"
        + "<th>iterations</th></tr>\n");
    for (MethodBench r : results) {
      h.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%.2f</td><td>%d</td></tr>%n",
          escape(r.method), r.fitSeconds, r.objectiveHistory.length));
    }
    h.append("</table>\n<h2>Clustering with the selected features</h2>\n")
        .append("<img src=\"acc.png\" alt=\"ACC against m\">\n")
        .append("<img src=\"nmi.png\" alt=\"NMI against m\">\n");
    h.append(metricTable());
    if (!objectiveCharts.isEmpty()) {
      h.append("<h2>Objective per iteration</h2>\n");
      for (String chart : objectiveCharts) {
        h.append("<img src=\"").append(escape(chart)).append("\" alt=\"")
            .append(escape(chart.substring(0, chart.length() - 4))).append("\">\n");
      }
    }
    return h.append("</body>\n</html>\n").toString();
  }

  private String metricTable() {
    StringBuilder h = new StringBuilder("<table>\n<tr><th>method</th><th>m</th>"
        + "<th>ACC mean ± std</th><th>NMI mean ± std</th></tr>\n");
    for (MethodBench r : results) {
      tableRows(h, r.method, r.rows);
    }
    if (baselines.maxvar != null) {
      tableRows(h, "maxvar (baseline)", baselines.maxvar.rows);
    }
    for (Baselines.RandomRow row : baselines.random) {
      tableRow(h, "random (median)", row.numFeatures(), row.acc().median(), row.acc().std(),
          row.nmi().median(), row.nmi().std());
    }
    tableRows(h, "all features", List.of(baselines.allFeatures));
    return h.append("</table>\n").toString();
  }

  private static void tableRows(StringBuilder h, String name, List<PaperProtocol.Row> rows) {
    for (PaperProtocol.Row row : rows) {
      tableRow(h, name, row.numFeatures(), row.acc().mean(), row.acc().std(), row.nmi().mean(),
          row.nmi().std());
    }
  }

  private static void tableRow(StringBuilder h, String name, int m, double acc, double accStd,
      double nmi, double nmiStd) {
    h.append(String.format(Locale.ROOT,
        "<tr><td>%s</td><td>%d</td><td>%.4f ± %.4f</td><td>%.4f ± %.4f</td></tr>%n",
        escape(name), m, acc, accStd, nmi, nmiStd));
  }

  /**
   * Tick labels of the log axis, whose ticks fall at 10^(k/10): 1, 1.3, 1.6, 2, 2.5, 3.2, …
   * (plain notation from 0.001 to a million, scientific beyond).
   */
  private static final class TwoSignificantDigits extends NumberFormat {
    private static final long serialVersionUID = 1L;

    @Override
    public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
      double size = Math.abs(number);
      if (number == 0 || (size >= 1e-3 && size < 1e6)) {
        return to.append(new BigDecimal(number).round(new MathContext(2)).stripTrailingZeros()
            .toPlainString());
      }
      return to.append(String.format(Locale.ROOT, "%.1e", number));
    }

    @Override
    public StringBuffer format(long number, StringBuffer to, FieldPosition pos) {
      return format((double) number, to, pos);
    }

    @Override
    public Number parse(String source, ParsePosition pos) {
      throw new UnsupportedOperationException("tick labels are only formatted");
    }
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
