package io.github.sparkufs.solver;

import io.github.sparkufs.graph.KnnSearch;
import io.github.sparkufs.linalg.ColumnStatistics;
import io.github.sparkufs.linalg.FeatureScaling;
import io.github.sparkufs.linalg.ResourceScope;
import io.github.sparkufs.linalg.RowBlockMatrix;

/**
 * The params several methods share, declared once here; a method lists those it uses in its
 * solver's {@code PARAMS}. An instance reads them from a method's {@link MethodOptions}.
 */
public final class CommonOptions {

  /** c, the number of clusters; no default. */
  public static final ParamSpec<Integer> NUM_CLUSTERS = ParamSpec.integer("numClusters", null,
      Range.atLeast(2), "", "c, the number of clusters the data are expected to have");
  /** k, the neighbourhood size (5, as in every paper). */
  public static final ParamSpec<Integer> NUM_NEIGHBORS = ParamSpec.integer("numNeighbors", 5,
      Range.atLeast(1), "", "k, the neighbourhood size of the method's graph");
  /** σ of the heat kernel of a kNN graph over samples. */
  public static final ParamSpec<Double> KERNEL_WIDTH = ParamSpec.real("kernelWidth", 0.0,
      Range.atLeast(0), "", "heat-kernel width sigma of the kNN graph, "
          + "exp(-||xi - xj||^2 / sigma^2); 0 = a width from the data (the mean distance to the "
          + "k-th neighbour)");
  /** How the kNN graph over samples is searched ({@link KnnSearch#of}). */
  public static final ParamSpec<String> KNN_ALGORITHM = ParamSpec.choice("knnAlgorithm",
      KnnSearch.AUTO, KnnSearch.ALGORITHMS, "", "how the kNN graph over samples is searched: "
          + "auto (exact below " + KnnSearch.AUTO_APPROXIMATE_ROWS + " rows, else approximate), "
          + "exact (all pairs), or approximate (k-means cells, each sample compared with the "
          + "samples of the nearest cells)");
  /**
   * The unit of each feature ({@link FeatureScaling}): for UFCM, ordinal consensus and FSASL the
   * unit of the whole fit; for NDFS and RSFS, whose regressions have their own
   * {@code standardization}, the unit of the distances of their sample graph and initial
   * clustering. Range by default: it puts unrelated scales on one and leaves features that
   * share a unit nearly as they are, where standard units lift rarely lit pixels (UFCM's ACC on
   * COIL20 fell below random columns at every m up to 300; docs/methods/ufcm.md). Planted
   * recall at m = 8 over 5 draws per family (docs/recall.md), as given / by range: UFCM .80 /
   * .96, NDFS .73 / .95, RSFS .72 / .95, FSASL .56 / 1.00.
   */
  public static final ParamSpec<FeatureScaling> FEATURE_SCALING = ParamSpec.choice(
      "featureScaling", FeatureScaling.RANGE, "", "the unit of each feature, after centring "
          + "(a step the papers lack), in which the method measures distances and scatter: "
          + "range (divided by max - min), standard (by the standard deviation) or none (as "
          + "given)");
  /** The iteration budget of an iterative method. */
  public static final ParamSpec<Integer> MAX_ITER = ParamSpec.integer("maxIter", 30,
      Range.atLeast(1), "", "maximum number of iterations");
  /** The stopping tolerance of an iterative method. */
  public static final ParamSpec<Double> TOL = ParamSpec.real("tol", 1e-6, Range.atLeast(0), "",
      "stop when the objective's relative change falls to this");
  /** The random seed; no default here (a selector's default is the hash of its class name). */
  public static final ParamSpec<Long> SEED = ParamSpec.longValue("seed", null, "",
      "random seed");

  private final MethodOptions options;

  CommonOptions(MethodOptions options) {
    this.options = options;
  }

  /** c, the number of clusters. */
  public int numClusters() {
    return options.get(NUM_CLUSTERS);
  }

  /** k, the neighbourhood size of the graphs. */
  public int numNeighbors() {
    return options.get(NUM_NEIGHBORS);
  }

  public int maxIter() {
    return options.get(MAX_ITER);
  }

  public double tol() {
    return options.get(TOL);
  }

  public long seed() {
    return options.get(SEED);
  }

  public String knnAlgorithm() {
    return options.get(KNN_ALGORITHM);
  }

  /** The kNN search {@link #knnAlgorithm()} names, seeded by {@link #seed()}. */
  public KnnSearch knnSearch() {
    return KnnSearch.of(knnAlgorithm(), seed());
  }

  /** The per-feature factors of {@link #FEATURE_SCALING} for data with these statistics. */
  public double[] featureScaling(ColumnStatistics stats) {
    return options.get(FEATURE_SCALING).factors(stats);
  }

  /**
   * The samples in the unit of {@link #FEATURE_SCALING}, centred: a copy that {@code scope}
   * releases, or {@code x} itself for {@code none}.
   */
  public RowBlockMatrix scaledSamples(RowBlockMatrix x, ResourceScope scope) {
    double[] factors = featureScaling(x.columnStatistics());
    return factors == null ? x : scope.keep(x.centered(factors));
  }

  /** The unit {@link #FEATURE_SCALING} names. */
  public FeatureScaling scalingUnit() {
    return options.get(FEATURE_SCALING);
  }

  /** Whether {@link #FEATURE_SCALING} makes the fit the same for every feature in any unit. */
  public boolean isScaleFree() {
    return scalingUnit() != FeatureScaling.NONE;
  }

  /** Told of every iteration by {@link IterativeFit}; null for none. */
  public IterativeFit.Listener listener() {
    return options.listener();
  }
}
