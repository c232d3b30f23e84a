package io.github.sparkufs.examples;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.ml.Selectors;
import io.github.sparkufs.ml.UnsupervisedSelector;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The options several commands take, each declared once as a picocli mixin. A mixin whose
 * default differs between commands takes it in its constructor; the command's field initialiser
 * chooses it, and {@code --help} shows it.
 */
final class SharedOptions {

  private SharedOptions() {}

  /** {@code -h, --help}. */
  static final class Help {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;
  }

  /** {@code --master}: where Spark runs when not under spark-submit. */
  static final class Master {
    @Option(names = "--master", paramLabel = "URL",
        description = "Spark master when run directly (default: ${DEFAULT-VALUE}; spark-submit"
            + " sets its own).")
    String master = "local[*]";

    SparkSession session(String appName) {
      return Sessions.create(appName, master);
    }
  }

  /** {@code --seed}. */
  static final class Seed {
    @Option(names = "--seed", paramLabel = "N",
        description = "Seed of the data, the methods and k-means (default: ${DEFAULT-VALUE}).")
    long seed = 1L;
  }

  /**
   * {@code --data} and how to read it: a LIBSVM file or any table Spark reads, the columns
   * that are the features, the label and the ids, the features' names, and {@code --clusters}.
   */
  static final class InputTable {
    @Option(names = "--data", required = true, paramLabel = "PATH",
        description = "File or folder Spark reads (a local path, hdfs://, s3a://, ...); labels"
            + " are used only to evaluate.")
    String path;

    @Option(names = "--format", paramLabel = "NAME",
        description = "libsvm, csv (with a header line), parquet, orc or json (default: the"
            + " path's extension, .gz aside; libsvm for any other).")
    String format;

    @Option(names = "--num-features", paramLabel = "d",
        description = "Number of features d of a LIBSVM file (required for LIBSVM).")
    Integer numFeatures;

    @Option(names = "--feature-cols", split = ",", paramLabel = "COL",
        description = "Columns of a table that are the features: numeric columns, or one vector"
            + " column (default: every numeric column but the label and id columns).")
    List<String> featureCols;

    @Option(names = "--label-col", paramLabel = "COL",
        description = "Column of a table with the labels (default: 'label' when the table has"
            + " it).")
    String labelCol;

    @Option(names = "--id-cols", split = ",", paramLabel = "COL",
        description = "Columns of a table kept beside the selected features.")
    List<String> idCols = List.of();

    @Option(names = "--feature-names", paramLabel = "FILE",
        description = "One feature name a line, in feature order (default: the columns' names,"
            + " or the vector column's ML attribute names).")
    Path featureNames;

    @Option(names = "--clusters", required = true, paramLabel = "c",
        description = "Number of clusters c the methods and k-means look for.")
    int clusters;

    LabeledData read(SparkSession spark) {
      return LabeledData.read(spark, this);
    }
  }

  /** {@code --image-shape}: the features are the pixels of images of this width and height. */
  static final class ImageShape {
    @Option(names = "--image-shape", paramLabel = "WxH", converter = ImageSizeConverter.class,
        description = "The features are the pixels of WxH images, row by row: pixel (row r,"
            + " column s) is feature r·W + s.")
    ImageSize size;

    ImageShape(ImageSize size) {
      this.size = size;
    }

    /** The size, checked to have d pixels; null when none was given. */
    ImageSize checked(int d) {
      if (size != null && size.pixels() != d) {
        throw new UsageException("--image-shape " + size + " has " + size.pixels()
            + " pixels but the data has " + d + " features");
      }
      return size;
    }
  }

  /** An image's width and height in pixels. */
  record ImageSize(int width, int height) {
    int pixels() {
      return width * height;
    }

    @Override
    public String toString() {
      return width + "x" + height;
    }
  }

  /** {@code WIDTHxHEIGHT}, e.g. {@code 32x32}. */
  static final class ImageSizeConverter implements ITypeConverter<ImageSize> {
    @Override
    public ImageSize convert(String text) {
      String[] parts = text.split("x");
      try {
        if (parts.length == 2) {
          ImageSize size = new ImageSize(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
          if (size.width() >= 1 && size.height() >= 1) {
            return size;
          }
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new TypeConversionException("'" + text + "' is not WIDTHxHEIGHT");
    }
  }

  /** {@code --method}: one method. */
  static final class Method {
    @Option(names = "--method", required = true, paramLabel = "M",
        completionCandidates = MethodNames.class,
        description = "The method: ${COMPLETION-CANDIDATES}.")
    String name;

    UnsupervisedSelector<?> create() {
      return Selectors.create(name);
    }
  }

  /** {@code --methods}: several methods, each once. */
  static final class Methods {
    @Option(names = "--methods", split = ",", paramLabel = "M",
        completionCandidates = MethodNames.class,
        description = "Methods to run, of ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    List<String> names;

    Methods(Collection<String> names) {
      this.names = new ArrayList<>(names);
    }

    /** The names, checked to be known methods listed once each. */
    List<String> checked() {
      return checkedMethods("--methods", names);
    }
  }

  /**
   * Method names, in order, each a known method listed once: a usage error names the option and
   * the method.
   */
  static List<String> checkedMethods(String option, List<String> names) {
    Set<String> seen = new LinkedHashSet<>();
    for (String name : names) {
      Selectors.create(name.trim());
      if (!seen.add(name.trim())) {
        throw new UsageException(option + " lists " + name.trim() + " twice");
      }
    }
    return List.copyOf(seen);
  }

  /** The method names for help texts and shell completion. */
  static final class MethodNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Selectors.names().iterator();
    }
  }

  /** {@code --param}: method params by name. */
  static final class Params {
    @Option(names = "--param", paramLabel = "NAME=VALUE",
        description = "A method param, e.g. numNeighbors=10 (repeatable). Where several methods"
            + " run, METHOD.NAME=VALUE sets it for that method only.")
    Map<String, String> values = new LinkedHashMap<>();

    /** Sets the params on a selector that runs alone. */
    void applyTo(UnsupervisedSelector<?> selector) {
      MethodParams.apply(selector, values);
    }

    /** Sets the unscoped params and those scoped to {@code method}. */
    void applyTo(UnsupervisedSelector<?> selector, String method) {
      MethodParams.applyScoped(selector, method, values);
    }
  }

  /** {@code --kmeans-runs}: the papers' protocol repeats k-means from random starts. */
  static final class KMeansRuns {
    @Option(names = "--kmeans-runs", paramLabel = "N",
        description = "k-means runs from random starts per evaluation (default: ${DEFAULT-VALUE}).")
    int runs;

    KMeansRuns(int runs) {
      this.runs = runs;
    }

    int checked() {
      if (runs < 1) {
        throw new UsageException("--kmeans-runs must be >= 1, got " + runs);
      }
      return runs;
    }
  }

  /** {@code --select}: the numbers of top features evaluated. */
  static final class FeatureCounts {
    static final String DEFAULT = "50,100,150,200,250,300";

    @Option(names = "--select", split = ",", paramLabel = "m", defaultValue = DEFAULT,
        description = "Numbers m of top features to evaluate (default: ${DEFAULT-VALUE}).")
    int[] counts;
  }

  /**
   * {@code --features}, {@code --informative}, {@code --clusters}, {@code --separation}:
   * generated data ({@link PlantedClusters}).
   */
  static final class Planted {
    @Option(names = "--features", paramLabel = "d",
        description = "Features in all (default: ${DEFAULT-VALUE}).")
    int features;

    @Option(names = "--informative", paramLabel = "N",
        description = "Features that carry the clusters (default: ${DEFAULT-VALUE}); the rest"
            + " are noise of the same variance.")
    int informative = 10;

    @Option(names = "--clusters", paramLabel = "c",
        description = "Planted clusters (default: ${DEFAULT-VALUE}).")
    int clusters;

    @Option(names = "--separation", paramLabel = "S",
        description = "Distance of the cluster centres in noise standard deviations"
            + " (default: ${DEFAULT-VALUE}).")
    double separation = 2.0;

    Planted(int features, int clusters) {
      this.features = features;
      this.clusters = clusters;
    }

    PlantedClusters generator(long seed) {
      return new PlantedClusters(features, informative, clusters, separation, seed);
    }
  }

  /** {@code --rows}, {@code --partitions}: the sizes of generated data and their partitions. */
  static final class GeneratedRows {
    @Option(names = "--rows", required = true, split = ",", paramLabel = "n",
        description = "Numbers of rows to run at, in order.")
    int[] sizes;

    @Option(names = "--partitions", paramLabel = "P",
        description = "Partitions of the data (default: twice Spark's default parallelism).")
    Integer partitions;

    int[] checkedSizes() {
      for (int n : sizes) {
        if (n < 1) {
          throw new UsageException("--rows must be >= 1, got " + n);
        }
      }
      return sizes;
    }

    int partitions(SparkSession spark) {
      int p = partitions != null ? partitions : 2 * spark.sparkContext().defaultParallelism();
      if (p < 1) {
        throw new UsageException("--partitions must be >= 1, got " + p);
      }
      return p;
    }
  }

  /** {@code --json}: a JSON copy of the results. */
  static final class JsonOutput {
    @Option(names = "--json", paramLabel = "FILE",
        description = "Also write the results as JSON to FILE.")
    String path;
  }
}
