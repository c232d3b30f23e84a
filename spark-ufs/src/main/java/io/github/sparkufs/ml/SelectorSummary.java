package io.github.sparkufs.ml;

import io.github.sparkufs.linalg.ColumnStatistics;
import io.github.sparkufs.solver.SelectionResult;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.IntStream;
import org.apache.spark.ml.param.Param;

/**
 * What a fit was and how it went, saved with the model: which method ran on how much data,
 * with which params and seed, under which library and Spark versions, how long it took, how
 * many iterations ran and whether the stopping rule was met, the objective after each
 * iteration, the features left unscored because they are constant, the method's own
 * diagnostics, and the input features' names when the input column had them.
 *
 * <p>The diagnostics are named figures that differ by method (flags are 1 or 0; times in
 * seconds):
 * <ul>
 *   <li>maxvar: none.
 *   <li>lapscore: {@code kernelWidth}, {@code graphSeconds}.
 *   <li>spec: {@code kernelWidth}, and {@code eigenvaluesConverged} for the spectrum-based
 *       score.
 *   <li>mcfs: {@code kernelWidth}, {@code eigenvaluesConverged}, {@code meanNonZeros} (per
 *       LARS target), {@code supportUnion} (features in any target's support),
 *       {@code standardization}.
 *   <li>udfs: {@code scatterTrace}, {@code standardization}, {@code shrinkage},
 *       {@code spanDimension}.
 *   <li>ndfs: {@code objective}, {@code sigma}, {@code graphSeconds}, {@code betaEffective},
 *       {@code sampleSide}, {@code l21Norm}, {@code orthogonality}
 *       (of F), {@code minColumnNorm}, {@code maxColumnNorm}, {@code reassigned} (share of
 *       samples F moved from the initial clusters).
 *   <li>rsfs: {@code objective}, {@code huberObjective}, {@code spectralStartObjective} and/or
 *       {@code kmeansStartObjective}, {@code initStarts}, {@code initSpectral},
 *       {@code kernelWidth}, {@code graphEdges}, {@code noiseFraction},
 *       {@code orthogonalityError}, {@code sampleSide}, {@code graphSeconds},
 *       {@code initSeconds}, {@code iterationSeconds}, {@code ridgeSolves} (iterations over
 *       every start).
 *   <li>ufcm: {@code objective}, {@code projectionDim}, {@code totalScatter},
 *       {@code withinClusterScatter}, {@code l2pPenalty}, {@code nonEmptyClusters},
 *       {@code restartWins}.
 *   <li>ordinal: {@code objective}, {@code projectionDim}, {@code betweenScatter},
 *       {@code finalLambda}, {@code downWeightedSamples}, {@code zeroWeightSamples},
 *       {@code droppedSamples}, {@code meanSampleWeight}, {@code reseededClusters}.
 *   <li>ufcm and ordinal with {@code scoring=regression}, also: {@code projectionClustersResidual}
 *       and {@code weightedClustersResidual} (the relative ridge residuals of the two
 *       clusterings the scoring chooses between), {@code weightedClustersChosen}.
 *   <li>fsasl: {@code objective}, {@code stalled} (no step along the W update lowered the
 *       objective), {@code dampedWSteps}, {@code smallestWStep}, {@code mu},
 *       {@code lassoNonZerosPerSample}, {@code lassoMaxNonZeros},
 *       {@code simplexNonZerosPerSample}, {@code firstGraphNeighbors}, {@code eigenProducts},
 *       {@code eigenMaxResidual}, {@code ridgeSolves} (reweighting solves of the W step),
 *       {@code graphSeconds},
 *       {@code eigenSeconds}, {@code structureSeconds}, {@code seconds}.
 * </ul>
 */
public final class SelectorSummary implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String method;
  private final long numRows;
  private final int numFeatures;
  private final long seed;
  private final Map<String, String> params;
  private final String libraryVersion;
  private final String sparkVersion;
  private final double fitSeconds;
  private final int iterations;
  private final boolean converged;
  private final double[] objectiveHistory;
  private final int[] constantFeatures;
  private final Map<String, Double> diagnostics;
  private final List<String> featureNames;

  /**
   * @param params the estimator's param values at fit, defaults included, each as the JSON
   *     Spark saves it ({@code Param.jsonEncode})
   * @param featureNames one name per input feature, or none
   */
  public SelectorSummary(String method, long numRows, int numFeatures, long seed,
      Map<String, String> params, String libraryVersion, String sparkVersion, double fitSeconds,
      int iterations, boolean converged, double[] objectiveHistory, int[] constantFeatures,
      Map<String, Double> diagnostics, List<String> featureNames) {
    this.method = method;
    this.numRows = numRows;
    this.numFeatures = numFeatures;
    this.seed = seed;
    this.params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    this.libraryVersion = libraryVersion;
    this.sparkVersion = sparkVersion;
    this.fitSeconds = fitSeconds;
    this.iterations = iterations;
    this.converged = converged;
    this.objectiveHistory = objectiveHistory.clone();
    this.constantFeatures = constantFeatures.clone();
    this.diagnostics = Collections.unmodifiableMap(new LinkedHashMap<>(diagnostics));
    this.featureNames = List.copyOf(featureNames);
  }

  /**
   * The summary of a fit of {@code estimator} that returned {@code result}.
   *
   * @param stats the column statistics of the fitted rows, which name the constant features
   * @param featureNames the input column's feature names, or none
   */
  static SelectorSummary of(UnsupervisedSelector<?> estimator, long seed, int numRows,
      ColumnStatistics stats, SelectionResult result, String sparkVersion, double fitSeconds,
      List<String> featureNames) {
    Map<String, String> params = new LinkedHashMap<>();
    for (Param<?> declared : estimator.params()) {
      if (estimator.isDefined(declared)) {
        Param<Object> param = estimator.getParam(declared.name());
        params.put(param.name(), param.jsonEncode(estimator.getOrDefault(param)));
      }
    }
    int[] constant = IntStream.range(0, stats.numCols()).filter(stats::isConstant).toArray();
    return new SelectorSummary(estimator.methodName(), numRows, stats.numCols(), seed, params,
        LibraryVersion.VALUE, sparkVersion, fitSeconds, result.iterations(), result.converged(),
        result.objectiveHistory(), constant, result.summary(), featureNames);
  }

  /** The fitted method's name, as the CLI spells it (e.g. "ndfs"). */
  public String method() {
    return method;
  }

  /** Rows fitted on (after {@code handleInvalid} = skip left out the invalid ones). */
  public long numRows() {
    return numRows;
  }

  public int numFeatures() {
    return numFeatures;
  }

  /** The seed of every random choice of the fit. */
  public long seed() {
    return seed;
  }

  /**
   * The estimator's param values at fit, defaults included, by name; each value is the JSON
   * Spark saves for it (e.g. {@code "0.5"}, {@code "\"auto\""}).
   */
  public Map<String, String> params() {
    return params;
  }

  /** The spark-ufs version that fitted the model. */
  public String libraryVersion() {
    return libraryVersion;
  }

  /** The Spark version the model was fitted under. */
  public String sparkVersion() {
    return sparkVersion;
  }

  /** Wall-clock seconds of the fit, reading the input included. */
  public double fitSeconds() {
    return fitSeconds;
  }

  /** Iterations run; 0 for closed-form scores. */
  public int iterations() {
    return iterations;
  }

  /**
   * Whether the objective's relative change fell to {@code tol}; false when {@code maxIter}
   * ran out first or the method stopped for another reason (see the diagnostics). Closed-form
   * scores are converged.
   */
  public boolean converged() {
    return converged;
  }

  /** The objective after each iteration; empty for closed-form scores. */
  public double[] objectiveHistory() {
    return objectiveHistory.clone();
  }

  /** The features with one value over all fitted rows, ascending: left unscored (NaN). */
  public int[] constantFeatures() {
    return constantFeatures.clone();
  }

  /** The method's own named figures (see the class doc); flags are 1 or 0. */
  public Map<String, Double> diagnostics() {
    return diagnostics;
  }

  /**
   * The input features' names, in feature order, from the input column's ML attributes (as
   * {@code VectorAssembler} writes them); empty when the column had no names, and for models
   * saved before names were kept.
   */
  public List<String> featureNames() {
    return featureNames;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SelectorSummary)) {
      return false;
    }
    SelectorSummary s = (SelectorSummary) o;
    return method.equals(s.method) && numRows == s.numRows && numFeatures == s.numFeatures
        && seed == s.seed && params.equals(s.params) && libraryVersion.equals(s.libraryVersion)
        && sparkVersion.equals(s.sparkVersion) && Double.compare(fitSeconds, s.fitSeconds) == 0
        && iterations == s.iterations && converged == s.converged
        && Arrays.equals(objectiveHistory, s.objectiveHistory)
        && Arrays.equals(constantFeatures, s.constantFeatures)
        && diagnostics.equals(s.diagnostics) && featureNames.equals(s.featureNames);
  }

  @Override
  public int hashCode() {
    return Objects.hash(method, numRows, numFeatures, seed, iterations, converged);
  }

  @Override
  public String toString() {
    return "SelectorSummary(" + method + ": " + numRows + " rows x " + numFeatures
        + " features, " + iterations + " iterations" + (converged ? ", converged" : "")
        + String.format(", %.2f s", fitSeconds) + ", spark-ufs " + libraryVersion + ", Spark "
        + sparkVersion + ", params " + params + ", diagnostics " + diagnostics + ")";
  }
}
