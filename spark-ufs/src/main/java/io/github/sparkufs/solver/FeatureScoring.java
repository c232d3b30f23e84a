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
 *       in its own projection are regressed on the features, all features jointly, with the
 *       ℓ2,1 penalty in standard units of FSASL's W step (FSASL paper, Eq. 14), and a feature
 *       scores its contribution to the fit, {@code σ_i ||w_i||₂} ({@link FeatureUnits}).
 *       The clusters are k-means on {@code WᵀX} ({@link KMeans}, c clusters, the lowest-cost
 *       of {@value #KMEANS_RUNS} seeded runs); their scaled indicator Y (n × c, column k equal
 *       to {@code 1/√n_k} on cluster k) is the target of
 *       {@code min_W ||XᵀW − Y||² + γ Σ_i σ_i ||w_i||₂}, solved by {@value #REWEIGHTINGS}
 *       reweighted ridge solves (NDFS paper, Eq. 12) on the centred X.
 * </ul>
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
          + "clusters in its projection, k-means on WᵀX, regressed on all features jointly with "
          + "an ℓ2,1 penalty in standard units; a feature scores its contribution)");
  private static final Logger LOG = LoggerFactory.getLogger(FeatureScoring.class);
  /** γ of the regression, in standard units (see the class comment). */
  static final double GAMMA = 10;
  /** Reweighted ridge solves of the regression, the first from uniform weights. */
  static final int REWEIGHTINGS = 10;
  /** Seeded k-means runs that label the projection; the lowest-cost one is kept. */
  private static final int KMEANS_RUNS = 10;
  /** Lloyd iterations of the k-means that labels the projection, at most. */
  private static final int KMEANS_MAX_ITER = 100;
  /** Relative cost decrease below which that k-means stops. */
  private static final double KMEANS_TOL = 1e-6;

  /**
   * The features' scores, larger is better.
   *
   * @param x the samples the method fitted, d × n (centred here, in a copy, unless every
   *     feature's mean is already zero)
   * @param gram {@code X Xᵀ} of a centred {@code x} when the caller holds it, else null (then
   *     computed if the regression needs it)
   * @param w the fitted projection, d × d'
   * @param c the number of clusters
   * @param seed seeds the k-means that labels {@code WᵀX}
   */
  public double[] scores(RowBlockMatrix x, DenseMatrix gram, DenseMatrix w, int c, long seed) {
    if (this == PROJECTION) {
      return DoubleArrays.sqrt(w.rowNormsSquared());
    }
    if (Arrays.stream(x.columnStatistics().means()).allMatch(m -> m == 0)) {
      return regressionScores(x, gram, w, c, seed);
    }
    try (RowBlockMatrix centred = x.centered()) {
      return regressionScores(centred, null, w, c, seed);
    }
  }

  private static double[] regressionScores(RowBlockMatrix x, DenseMatrix gram, DenseMatrix w,
      int c, long seed) {
    x.execution().describe("scoring: k-means on the projection and the ℓ2,1 regression");
    long start = System.nanoTime();
    int[] labels;
    try (RowBlockMatrix projected = x.projected(w)) {
      labels = new KMeans(c, KMEANS_MAX_ITER, KMEANS_TOL).fitBest(projected, KMEANS_RUNS, seed)
          .labels();
    }
    FeatureUnits units = FeatureUnits.of(x.columnStatistics(), true);
    RegularizedRegression regression = new RegularizedRegression(x, gram);
    DenseMatrix coefficients = null;
    double[] weights = units.initialWeights();
    try (Shared<DenseMatrix> targets = x.execution().share(ClusterIndicator.scaled(labels, c))) {
      DenseMatrix rhs = regression.usesSampleSide() ? null : x.multiply(targets);
      for (int t = 0; t < REWEIGHTINGS; t++) {
        coefficients = rhs == null ? regression.solve(weights, GAMMA, targets)
            : regression.solveFeatureSide(weights, GAMMA, rhs);
        weights = units.l21Weights(coefficients, RowSparsityWeights.DEFAULT_EPSILON);
      }
    }
    LOG.info("scoring: {} clusters of the projection (k-means, the lowest-cost of {} runs) "
        + "regressed on {} features, {} reweighted solves, in {} s", c, KMEANS_RUNS,
        x.numCols(), REWEIGHTINGS, String.format("%.3f", (System.nanoTime() - start) / 1e9));
    return units.scores(coefficients);
  }
}
