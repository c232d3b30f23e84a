import io.github.sparkufs.cluster.KMeans;
import io.github.sparkufs.eval.ClusteringMetrics;
import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.ml.Selectors;
import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Every method at its default params, through a Pipeline, on the data sets that
 * dev/unseen_data.py writes (issue #20: data the project was never tuned to), and on bad input.
 * For each data set and method: does the fit finish; are the scores of non-constant features
 * finite; do constant features rank last; is the ranking the same on the driver (1 partition)
 * and the distributed path (1, 2, 4 partitions); the planted features found in the top m; on
 * labelled data, k-means ACC of the m kept columns against the median of random m columns.
 * Prints one markdown row per data set and method. Not part of the test suite.
 * Usage: dev/unseen-data-sweep DIR [all|method,...] [data set,...]
 */
public final class UnseenDataSweep {

  private static final int KMEANS_RUNS = 10;
  private static final int RANDOM_DRAWS = 20;
  private static final long SEED = 1L;

  /** One data set: features, labels (-1 when none), c, m, the planted features. */
  private record DataSet(String name, double[][] x, int[] y, int c, int m, int[] informative,
      boolean sparse) {
    boolean labelled() {
      return y.length > 0 && y[0] >= 0;
    }
  }

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    List<String> methods = args.length > 1 && !args[1].equals("all")
        ? List.of(args[1].split(",")) : new ArrayList<>(Selectors.names());
    List<String> names = args.length > 2 ? List.of(args[2].split(",")) : null;
    SparkSession spark = SparkSession.builder().master("local[2]").appName("unseen-data-sweep")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
        .getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    List<DataSet> sets;
    try (Stream<Path> files = Files.list(dir)) {
      sets = files.filter(p -> p.toString().endsWith(".txt")).sorted().map(UnseenDataSweep::read)
          .filter(set -> names == null || names.contains(set.name())).toList();
    }
    System.out.println("| data | n x d, c, m | method | fit | s | finite | constant last "
        + "| same ranking, up to ties to 1e-9 (driver 1 against distributed 1/2/4) | planted in top m | ACC kept | ACC random median |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
    for (DataSet set : sets) {
      for (String method : methods) {
        System.out.println(sweep(spark, set, method));
      }
    }
    System.out.println();
    System.out.println("| bad input | method | error |");
    System.out.println("|---|---|---|");
    for (String method : methods) {
      badInput(spark, method);
    }
    spark.stop();
  }

  private static String sweep(SparkSession spark, DataSet set, String method) {
    int d = set.x()[0].length;
    String head = String.format(Locale.ROOT, "| %s | %d x %d, %d, %d | %s |", set.name(),
        set.x().length, d, set.c(), set.m(), method);
    UnsupervisedSelectorModel[] fits = new UnsupervisedSelectorModel[4];
    double seconds;
    try {
      long start = System.nanoTime();
      fits[0] = fit(spark, set, method, "driver", 1);
      seconds = (System.nanoTime() - start) / 1e9;
      int[] partitions = {1, 2, 4};
      for (int p = 0; p < partitions.length; p++) {
        fits[p + 1] = fit(spark, set, method, "distributed", partitions[p]);
      }
    } catch (RuntimeException e) {
      return head + " fails: " + firstLine(e) + " | | | | | | | |";
    }
    UnsupervisedSelectorModel model = fits[0];
    double[] scores = model.scores();
    boolean[] constant = constantColumns(set.x());
    boolean finite = true;
    for (int j = 0; j < d; j++) {
      finite &= constant[j] || Double.isFinite(scores[j]);
    }
    String constantLast = constantLast(model.ranking(), constant);
    StringBuilder same = new StringBuilder();
    for (int r = 1; r < fits.length; r++) {
      int differ = 0;
      int[] ranking = fits[r].ranking();
      for (int i = 0; i < d; i++) {
        int a = model.ranking()[i];
        int b = ranking[i];
        boolean tied = Math.abs(scores[a] - scores[b])
            <= 1e-9 * Math.max(Math.abs(scores[a]), Math.abs(scores[b]));
        differ += a == b || tied || constant[a] && constant[b] ? 0 : 1;
      }
      same.append(r > 1 ? "/" : "").append(differ == 0 ? "same" : differ + " differ");
    }
    int m = Math.min(set.m(), d);
    int[] kept = Arrays.copyOf(model.ranking(), m);
    String planted = "";
    if (set.informative().length > 0) {
      long found = Arrays.stream(kept).filter(j -> contains(set.informative(), j)).count();
      planted = found + "/" + Math.min(m, set.informative().length);
    }
    String acc = "";
    String random = "";
    if (set.labelled()) {
      acc = String.format(Locale.ROOT, "%.3f", meanAcc(set, kept));
      double[] draws = new double[RANDOM_DRAWS];
      SplittableRandom rnd = new SplittableRandom(SEED);
      for (int t = 0; t < RANDOM_DRAWS; t++) {
        draws[t] = meanAcc(set, PlantedClusters.choose(d, m, rnd));
      }
      Arrays.sort(draws);
      double median = (draws[RANDOM_DRAWS / 2 - 1] + draws[RANDOM_DRAWS / 2]) / 2;
      random = String.format(Locale.ROOT, "%.3f", median);
      acc += meanAcc(set, kept) < median - 1e-9 ? "*" : "";
    }
    return String.format(Locale.ROOT, "%s ok | %.1f | %s | %s | %s | %s | %s | %s |", head,
        seconds, finite ? "yes" : "NO", constantLast, same, planted, acc, random);
  }

  private static UnsupervisedSelectorModel fit(SparkSession spark, DataSet set, String method,
      String executionMode, int partitions) {
    UnsupervisedSelector<?> selector = Selectors.create(method)
        .setIfPresent("numClusters", set.c()).setIfPresent("seed", SEED)
        .setExecutionMode(executionMode).setNumTopFeatures(set.m());
    Dataset<Row> frame = frame(spark, set, partitions);
    PipelineModel pipeline = new Pipeline().setStages(new PipelineStage[] {selector}).fit(frame);
    pipeline.transform(frame).count();
    return (UnsupervisedSelectorModel) pipeline.stages()[0];
  }

  /** The samples in row order, cut into {@code partitions} consecutive slices. */
  private static Dataset<Row> frame(SparkSession spark, DataSet set, int partitions) {
    List<Row> rows = new ArrayList<>();
    for (double[] sample : set.x()) {
      Vector v = Vectors.dense(sample);
      rows.add(RowFactory.create(set.sparse() ? v.toSparse() : v));
    }
    StructType schema = new StructType().add("features", SQLDataTypes.VectorType(), true);
    return spark.createDataFrame(
        JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(rows, partitions),
        schema);
  }

  private static void badInput(SparkSession spark, String method) {
    double[][] base = new double[40][];
    SplittableRandom rnd = new SplittableRandom(SEED);
    for (int i = 0; i < base.length; i++) {
      base[i] = new double[] {rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian(), i % 3};
    }
    StructType vectors = new StructType().add("features", SQLDataTypes.VectorType(), true);
    List<Object[]> cases = new ArrayList<>();
    cases.add(new Object[] {"NaN in row 7", withValue(base, 7, Double.NaN), vectors});
    cases.add(new Object[] {"+Infinity in row 11", withValue(base, 11, Double.POSITIVE_INFINITY),
        vectors});
    List<Row> ragged = rows(base);
    ragged.set(5, RowFactory.create(Vectors.dense(1, 2, 3)));
    cases.add(new Object[] {"row 5 of size 3 among size 4", ragged, vectors});
    cases.add(new Object[] {"no rows", List.of(), vectors});
    List<Row> strings = new ArrayList<>();
    for (double[] r : base) {
      strings.add(RowFactory.create(Arrays.toString(r)));
    }
    cases.add(new Object[] {"string column", strings,
        new StructType().add("features", DataTypes.StringType)});
    List<Row> arrays = new ArrayList<>();
    for (double[] r : base) {
      arrays.add(RowFactory.create((Object) Arrays.stream(r).boxed().toArray(Double[]::new)));
    }
    cases.add(new Object[] {"array<double> column", arrays,
        new StructType().add("features", DataTypes.createArrayType(DataTypes.DoubleType))});
    for (Object[] c : cases) {
      @SuppressWarnings("unchecked")
      List<Row> rows = (List<Row>) c[1];
      Dataset<Row> frame = spark.createDataFrame(rows, (StructType) c[2]);
      String outcome;
      try {
        Selectors.create(method).setIfPresent("numClusters", 3).setNumTopFeatures(2).fit(frame);
        outcome = "NO ERROR";
      } catch (RuntimeException e) {
        outcome = e.getClass().getSimpleName() + ": " + firstLine(e);
      }
      System.out.println("| " + c[0] + " | " + method + " | " + outcome.replace('|', '/') + " |");
    }
  }

  private static List<Row> withValue(double[][] base, int row, double value) {
    List<Row> rows = rows(base);
    double[] r = base[row].clone();
    r[2] = value;
    rows.set(row, RowFactory.create(Vectors.dense(r)));
    return rows;
  }

  private static List<Row> rows(double[][] x) {
    List<Row> rows = new ArrayList<>();
    for (double[] r : x) {
      rows.add(RowFactory.create(Vectors.dense(r)));
    }
    return rows;
  }

  /** Mean ACC of KMEANS_RUNS k-means runs (k-means++ starts) on the given columns. */
  private static double meanAcc(DataSet set, int[] columns) {
    int n = set.x().length;
    double[] data = new double[columns.length * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < columns.length; j++) {
        data[i * columns.length + j] = set.x()[i][columns[j]];
      }
    }
    DenseMatrix samples = new DenseMatrix(columns.length, n, data);
    KMeans kmeans = new KMeans(set.c(), 100, 1e-6);
    double sum = 0;
    for (int run = 0; run < KMEANS_RUNS; run++) {
      sum += ClusteringMetrics.accuracy(set.y(), kmeans.fit(samples, run + 1).labels());
    }
    return sum / KMEANS_RUNS;
  }

  private static boolean[] constantColumns(double[][] x) {
    boolean[] constant = new boolean[x[0].length];
    for (int j = 0; j < constant.length; j++) {
      constant[j] = true;
      for (double[] row : x) {
        constant[j] &= row[j] == x[0][j];
      }
    }
    return constant;
  }

  private static String constantLast(int[] ranking, boolean[] constant) {
    int count = 0;
    for (boolean c : constant) {
      count += c ? 1 : 0;
    }
    if (count == 0) {
      return "-";
    }
    for (int i = ranking.length - count; i < ranking.length; i++) {
      if (!constant[ranking[i]]) {
        return "NO";
      }
    }
    return "yes";
  }

  private static boolean contains(int[] values, int v) {
    return Arrays.stream(values).anyMatch(x -> x == v);
  }

  private static String firstLine(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getMessage() != null
        && root.getMessage().startsWith(root.getCause().getClass().getName())) {
      root = root.getCause();
    }
    String message = String.valueOf(root.getMessage()).lines().findFirst().orElse("");
    return (message.length() > 200 ? message.substring(0, 200) + "..." : message).replace('|', '/');
  }

  private static DataSet read(Path file) {
    try {
      List<String> lines = Files.readAllLines(file);
      String[] header = lines.get(0).substring(2).split(" ");
      int c = Integer.parseInt(header[0].substring(2));
      int m = Integer.parseInt(header[1].substring(2));
      String inf = header[2].substring("informative=".length());
      int[] informative = inf.isEmpty() ? new int[0]
          : Arrays.stream(inf.split(",")).mapToInt(Integer::parseInt).toArray();
      boolean sparse = header[3].endsWith("1");
      List<String> body = lines.subList(1, lines.size());
      double[][] x = new double[body.size()][];
      int[] y = new int[body.size()];
      for (int i = 0; i < x.length; i++) {
        double[] v = Arrays.stream(body.get(i).trim().split(" "))
            .mapToDouble(Double::parseDouble).toArray();
        y[i] = (int) v[0];
        x[i] = Arrays.copyOfRange(v, 1, v.length);
      }
      String name = file.getFileName().toString().replace(".txt", "");
      return new DataSet(name, x, y, c, m, informative, sparse);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
