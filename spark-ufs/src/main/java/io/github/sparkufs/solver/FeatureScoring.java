package io.github.sparkufs.solver;

import io.github.sparkufs.cluster.KMeans;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.DoubleArrays;
import io.github.sparkufs.linalg.FeatureUnits;
import io.github.sparkufs.linalg.RegularizedRegression;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.RowSparsityWeights;
import io.github.sparkufs.linalg.Shared;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How UFCM and ordinal consensus, which both learn an orthonormal projection W (d × d') and
 * clusters in {@code WᵀX}, turn their fit into feature scores ({@link #PARAM};
 * docs/methods/ufcm.md, docs/methods/ordinal.md).
 *
 * <ul>
 *   <li>{@link #PROJECTION}: the papers' score, the row norm {@code ||wⁱ||₂} of W (UFCM Eq. 1,
 *       ordinal consensus Eq. 7). The columns of an orthonormal W weigh every direction of the
 *       projection alike, and a row norm credits a feature for its part in those directions
 *       alone, so a feature the clusters hardly need can rank as high as one they are made of.
 *   <li>{@link #REGRESSION} (a step the papers do not have; the default): the method's clusters
 *       (below) are regressed on the features, all features jointly, with the
 *       ℓ2,1 penalty in standard units of FSASL's W step (FSASL paper, Eq. 14), and a feature
 *       scores its contribution to the fit, {@code σ_i ||w_i||₂} ({@link FeatureUnits}).
 *       The clusters' scaled indicator Y (n × c, column k equal to {@code 1/√n_k} on cluster
 *       k) is the target of {@code min_W ||XᵀW − Y||² + γ Σ_i σ_i ||w_i||₂}, solved by
 *       {@value #REWEIGHTINGS} reweighted ridge solves (NDFS paper, Eq. 12) on the centred X.
 * </ul>
 *
 * <p><b>Which clusters.</b> Two clusterings are found, each by k-means ({@link KMeans}, c
 * clusters, the lowest-cost of {@value #KMEANS_RUNS} seeded runs): of the projection
 * {@code WᵀX}, and of the centred samples with feature i weighted by {@code ||wⁱ||₂} (of a
 * uniform sample of at most {@value #WEIGHTED_SAMPLES} of them, then every sample labelled by
 * its nearest centre). They differ when many features with small weights move together: in
 * {@code WᵀX} their weights add up along their shared direction, and its clusters follow that
 * direction whether or not it separates the samples, while each weighs little in the weighted
 * samples. On faces the sums are the signal, groups of correlated pixels that together mark a
 * person. The features decide: each clustering's centred indicator is fitted by a ridge on the
 * standardised features, {@code min ||X̃ᵀV − Y_c||² + λ||V||²} with {@code λ = tr(X̃X̃ᵀ)/n}
 * (the number of non-constant features), and the weighted samples' clusters are the target
 * only when their relative residual {@code ||X̃ᵀV − Y_c||² / ||Y_c||²} is lower by more than
 * {@value #TARGET_MARGIN} of the projection's. At this λ the residual chose as a leave-one-out
 * error did on every case checked; the margin keeps the projection's clusters where the two fit
 * about as well: on the benchmark sets every switch that cost was by less than .05, and every
 * switch kept, on warpPIE10P, by .10 to .16 (docs/selection-check.md).
 *
 * <p>γ = {@value #GAMMA}: in standard units the penalty does not depend on the features' units,
 * and the target has c orthonormal columns whatever the data ({@code ||Y||² = c}), so one γ
 * serves every dataset, as FSASL's γ does for its orthonormal targets. Measured over 1, 3, 10,
 * 30 and 100 on seven image and speech sets and scikit-learn's digits (cells below the median of
 * as many random columns, docs/selection-check.md): 10 had the fewest for both methods; smaller
 * γ lost where d > n (3 on Yale and warpPIE10P, 1 on JAFFE), larger γ at small m on COIL20 and
 * Isolet1.
 */
public enum FeatureScoring {
  /** The row norms of the projection W, as in the papers. */
  PROJECTION,
  /** The ℓ2,1 regression of the method's clusters on the features in standard units. */
  REGRESSION;

  /** The scoring param, declared once for the methods that use it. */
  public static final ParamSpec<FeatureScoring> PARAM = ParamSpec.choice("scoring", REGRESSION,
      "", "how features are scored from the fit (a choice the papers lack): projection (the "
          + "row norms of the projection W, the papers' score) or regression (the method's "
          + "clusters, k-means on WᵀX or on the samples weighted by W's row norms, whichever "
          + "the features predict better, regressed on all features jointly with an ℓ2,1 "
          + "penalty in standard units; a feature scores its contribution)");
  private static final Logger LOG = LoggerFactory.getLogger(FeatureScoring.class);
  /** γ of the regression, in standard units (see the class comment). */
  static final double GAMMA = 10;
  /** Reweighted ridge solves of the regression, the first from uniform weights. */
  static final int REWEIGHTINGS = 10;
  /** Seeded k-means runs per clustering; the lowest-cost one is kept. */
  private static final int KMEANS_RUNS = 10;
  /** Lloyd iterations of each k-means run, at most. */
  private static final int KMEANS_MAX_ITER = 100;
  /** Relative cost decrease below which a k-means run stops. */
  private static final double KMEANS_TOL = 1e-6;
  /**
   * Weighted samples their k-means fits at most: above, a uniform sample of them, every sample
   * then labelled by its nearest centre. The weighted samples have d coordinates where
   * {@code WᵀX} has d'; on all 10⁶ samples of 100 features their Lloyd passes took about 12 s,
   * two thirds of UFCM's fit (docs/methods/ufcm.md).
   */
  static final int WEIGHTED_SAMPLES = 20_000;
  /** Values of that sample (d per sample) gathered to the driver at most, 80 MB. */
  static final long WEIGHTED_SAMPLE_VALUES = 10_000_000;
  /**
   * How much lower, relatively, the weighted samples' ridge residual must be for their clusters
   * to be the target (see the class comment).
   */
  static final double TARGET_MARGIN = 0.10;

  /**
   * The features' scores, larger is better, and what the regression chose, for the fit's summary
   * (empty for {@link #PROJECTION}).
   */
  public record Scored(double[] scores, Map<String, Double> summary) {}

  /**
   * Scores the features.
   *
   * @param x the samples the method fitted, d × n (centred here, in a copy, unless every
   *     feature's mean is already zero)
   * @param gram {@code X Xᵀ} of a centred {@code x} when the caller holds it, else null (then
   *     computed if the regression needs it)
   * @param w the fitted projection, d × d'
   * @param c the number of clusters
   * @param seed seeds the k-means runs of both clusterings
   */
  public Scored scores(RowBlockMatrix x, DenseMatrix gram, DenseMatrix w, int c, long seed) {
    if (this == PROJECTION) {
      return new Scored(DoubleArrays.sqrt(w.rowNormsSquared()), Map.of());
    }
    if (Arrays.stream(x.columnStatistics().means()).allMatch(m -> m == 0)) {
      return regressionScores(x, gram, w, c, seed);
    }
    try (RowBlockMatrix centred = x.centered()) {
      return regressionScores(centred, null, w, c, seed);
    }
  }

  private static Scored regressionScores(RowBlockMatrix x, DenseMatrix gram, DenseMatrix w,
      int c, long seed) {
    x.execution().describe("scoring: k-means on the projection and the weighted samples");
    long start = System.nanoTime();
    KMeans kmeans = new KMeans(c, KMEANS_MAX_ITER, KMEANS_TOL);
    int[] projectionClusters;
    try (RowBlockMatrix projected = x.projected(w)) {
      projectionClusters = kmeans.fitBest(projected, KMEANS_RUNS, seed).labels();
    }
    int[] weightedClusters;
    try (RowBlockMatrix weighted = x.centered(DoubleArrays.sqrt(w.rowNormsSquared()))) {
      int maxSamples = (int) Math.max(Math.min(WEIGHTED_SAMPLES,
          WEIGHTED_SAMPLE_VALUES / x.numCols()), (long) KMeans.INIT_SAMPLE_PER_CLUSTER * c);
      weightedClusters = kmeans.fitBestOnSample(weighted, KMEANS_RUNS, seed, maxSamples)
          .labels();
    }
    FeatureUnits units = FeatureUnits.of(x.columnStatistics(), true);
    RegularizedRegression regression = new RegularizedRegression(x, gram);
    x.execution().describe("scoring: the ℓ2,1 regression of the clusters on the features");
    Ridge ridge = new Ridge(x, regression, units.initialWeights(),
        units.squaredNorm(x.columnStatistics()) / x.numRows());
    Target projection = ridge.target(projectionClusters, c);
    Target weighted = Arrays.equals(projectionClusters, weightedClusters) ? projection
        : ridge.target(weightedClusters, c);
    boolean weightedChosen =
        weighted.relativeResidual() < (1 - TARGET_MARGIN) * projection.relativeResidual();
    Target target = weightedChosen ? weighted : projection;
    DenseMatrix coefficients = null;
    double[] weights = units.initialWeights();
    try (Shared<DenseMatrix> targets = x.execution().share(target.indicator())) {
      for (int t = 0; t < REWEIGHTINGS; t++) {
        coefficients = regression.usesSampleSide() ? regression.solve(weights, GAMMA, targets)
            : regression.solveFeatureSide(weights, GAMMA, target.rhs());
        weights = units.l21Weights(coefficients, RowSparsityWeights.DEFAULT_EPSILON);
      }
    }
    LOG.info(String.format(Locale.ROOT, "scoring: the %d clusters of the %s (relative ridge "
        + "residuals: projection %.4f, weighted samples %.4f) regressed on %d features, %d "
        + "reweighted solves, in %.3f s", c, weightedChosen ? "weighted samples" : "projection",
        projection.relativeResidual(), weighted.relativeResidual(), x.numCols(), REWEIGHTINGS,
        (System.nanoTime() - start) / 1e9));
    Map<String, Double> summary = new LinkedHashMap<>();
    summary.put("projectionClustersResidual", projection.relativeResidual());
    summary.put("weightedClustersResidual", weighted.relativeResidual());
    summary.put("weightedClustersChosen", weightedChosen ? 1.0 : 0.0);
    return new Scored(units.scores(coefficients), summary);
  }

  /**
   * The ridge {@code min ||X̃ᵀV − Y_c||² + λ ||V||²} on the standardised features X̃ at
   * {@code λ = tr(X̃X̃ᵀ)/n} (the number of non-constant features), solved in raw units with the
   * ridge weights {@code σ_i²}, by which a clustering's target is judged.
   */
  private record Ridge(RowBlockMatrix x, RegularizedRegression regression, double[] weights,
      double lambda) {

    /**
     * The target of a clustering: its scaled indicator Y (c × n), {@code X Y} (d × c), and the
     * relative residual {@code ||X̃ᵀV − Y_c||² / ||Y_c||²} of this ridge, {@code Y_c} the
     * centred Y.
     */
    Target target(int[] labels, int c) {
      DenseMatrix indicator = ClusterIndicator.scaled(labels, c);
      try (Shared<DenseMatrix> shared = x.execution().share(indicator)) {
        DenseMatrix rhs = x.multiply(shared);
        DenseMatrix v = regression.usesSampleSide() ? regression.solve(weights, lambda, shared)
            : regression.solveFeatureSide(weights, lambda, rhs);
        double centredNorm = ClusterIndicator.centredSquaredNorm(labels, c);
        return new Target(indicator, rhs,
            RegularizedRegression.residual(v, rhs, weights, lambda, centredNorm) / centredNorm);
      }
    }
  }

  /** A clustering's scaled indicator, {@code X Y}, and its relative ridge residual. */
  private record Target(DenseMatrix indicator, DenseMatrix rhs, double relativeResidual) {}
}
