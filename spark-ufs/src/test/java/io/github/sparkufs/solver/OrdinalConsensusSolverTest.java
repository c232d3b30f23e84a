package io.github.sparkufs.solver;

import static io.github.sparkufs.solver.DenseReference.eigenvectors;
import static io.github.sparkufs.solver.DenseReference.multiplyTranspose;
import static io.github.sparkufs.solver.DenseReference.transposeMultiply;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.graph.TripletGraph;
import io.github.sparkufs.graph.TripletGraph.Weighting;
import io.github.sparkufs.linalg.DenseMatrix;
import io.github.sparkufs.linalg.FeatureScaling;
import io.github.sparkufs.linalg.RowBlock;
import io.github.sparkufs.linalg.RowBlockMatrix;
import io.github.sparkufs.linalg.RowSparsityWeights;
import io.github.sparkufs.linalg.SymmetricEigen;
import io.github.sparkufs.testing.TestData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class OrdinalConsensusSolverTest {

  private static final PlantedClusters PLANTED = new PlantedClusters(40, 8, 4, 3.0, 11);
  private static final DenseMatrix X = PLANTED.matrix(300);

  private static OrdinalConsensusSolver solver(int maxIter, double tol, long seed, double alpha,
      double beta, double keep, Weighting weighting, boolean fixedSchedule) {
    return new OrdinalConsensusSolver(
        TestData.shared(OrdinalConsensusSolver.PARAMS, 4, 5, maxIter, tol, seed)
        .with(OrdinalConsensusSolver.ALPHA, alpha).with(OrdinalConsensusSolver.BETA, beta)
        .with(OrdinalConsensusSolver.PROJECTION_DIM, 0)
        .with(OrdinalConsensusSolver.KEEP_PROBABILITY, keep)
        .with(OrdinalConsensusSolver.LAMBDA0, 1e-6).with(OrdinalConsensusSolver.MU, 1.1)
        .with(OrdinalConsensusSolver.TRIPLET_WEIGHTING, weighting)
        .with(OrdinalConsensusSolver.SCATTER_CRITERION, OrdinalConsensusSolver.Criterion.WITHIN)
        .with(OrdinalConsensusSolver.UNIT_SCALE, false)
        .with(CommonOptions.FEATURE_SCALING, FeatureScaling.NONE),
        fixedSchedule);
  }

  /** The columns of x as {@code parts} consecutive blocks. */
  private static RowBlockMatrix split(DenseMatrix x, int parts) {
    List<RowBlock> blocks = new ArrayList<>();
    int n = x.cols();
    for (int p = 0; p < parts; p++) {
      int from = p * n / parts;
      int to = (p + 1) * n / parts;
      blocks.add(new RowBlock(from, x.columns(from, to - from)));
    }
    return RowBlockMatrix.local(blocks);
  }

  @Test
  void augmentedObjectiveNeverIncreasesForFixedLambdaAndMask() {
    for (Weighting weighting : Weighting.values()) {
      SelectionResult r = solver(25, 0, 5, 1.0, 1e-2, 0.8, weighting, true)
          .fit(RowBlockMatrix.local(X));
      double[] h = r.objectiveHistory();
      assertEquals(25, h.length, "tol 0 runs every iteration");
      for (int t = 1; t < h.length; t++) {
        assertTrue(h[t] <= h[t - 1] + 1e-9 * Math.abs(h[t - 1]),
            weighting + ": objective rose at iteration " + (t + 1) + ": " + h[t - 1] + " -> "
                + h[t]);
      }
      assertTrue(h[h.length - 1] < h[0], weighting + ": the objective should decrease");
      assertTrue(r.summary().get("droppedSamples") > 0, "z must drop some samples");
    }
  }

  /** Every default, c clusters, 30 iterations. */
  private static MethodOptions defaultOptions(int c, long seed) {
    return TestData.shared(OrdinalConsensusSolver.PARAMS, c, 5, 30, 1e-6, seed);
  }

  /** The solver at every default but {@code featureScaling = none}: the data as given. */
  private static OrdinalConsensusSolver asGiven(int c, long seed) {
    return new OrdinalConsensusSolver(
        defaultOptions(c, seed).with(CommonOptions.FEATURE_SCALING, FeatureScaling.NONE));
  }

  /** The solver at every default, c clusters, 30 iterations. */
  private static OrdinalConsensusSolver defaults(int c, long seed) {
    return new OrdinalConsensusSolver(defaultOptions(c, seed));
  }

  /**
   * Over the 10 draws of {@link TestData#plantedRecalls} (40 features, 8 planted, 300
   * samples). Measured at the defaults: mean .975, min .875 (draws 3 and 7); with
   * {@code featureScaling=none} .9375, min .75; in the data's raw unit as well
   * ({@code unitScale=false}) .9625, min .875: the unit's softer self-paced weights cost these
   * draws 2 of 80 features and keep the weights from collapsing when d > n
   * ({@link #recoversPlantedFeaturesAmongMoreNoiseColumnsThanSamples}). The bar leaves 10.
   */
  @Test
  void recoversPlantedInformativeFeatures() {
    double[] recalls = TestData.plantedRecalls(defaults(4, 3), 300);
    TestData.assertMeanRecall(recalls, 0.85, "ordinal consensus");
    SelectionResult r = defaults(4, 3).fit(RowBlockMatrix.local(X));
    assertTrue(r.largerIsBetter());
    assertEquals(40, r.scores().length);
  }

  /**
   * The paper's W step (within-cluster scatter under {@code WᵀW = I}) ranks near-constant
   * features first. Here 6 informative features carry 4 clusters, 24 features are noise of the
   * same variance and 10 are near-constant (spread 1e-3); over 10 data draws the default's top
   * 6 must hold no near-constant feature. Under the within criterion the top 6 are
   * near-constant on every draw. On the data as given: by range (the default) a near-constant
   * feature is a noise feature like the others.
   */
  @Test
  void doesNotPreferNearConstantFeatures() {
    for (long draw = 1; draw <= 10; draw++) {
      PlantedClusters planted = new PlantedClusters(30, 6, 4, 3.0, draw);
      DenseMatrix signal = planted.matrix(240);
      DenseMatrix x = new DenseMatrix(40, 240);
      SplittableRandom rnd = new SplittableRandom(draw);
      for (int i = 0; i < 240; i++) {
        for (int j = 0; j < 30; j++) {
          x.set(j, i, signal.get(j, i));
        }
        for (int j = 30; j < 40; j++) {
          x.set(j, i, 5 + 1e-3 * rnd.nextGaussian());
        }
      }
      SelectionResult r = asGiven(4, draw).fit(RowBlockMatrix.local(x));
      int[] rank = FeatureRanking.rank(r.scores(), r.largerIsBetter());
      for (int p = 0; p < 6; p++) {
        assertTrue(rank[p] < 30, "draw " + draw + ": near-constant feature " + rank[p]
            + " ranked " + (p + 1));
      }
    }
  }

  @Test
  void sameResultWithOneOrThreeBlocks() {
    OrdinalConsensusSolver s = solver(20, 0, 9, 1.0, 1e-2, 0.8, Weighting.SCALED, false);
    SelectionResult one = s.fit(RowBlockMatrix.local(X));
    SelectionResult three = s.fit(split(X, 3));
    double[] a = one.scores();
    double[] b = three.scores();
    for (int i = 0; i < a.length; i++) {
      assertEquals(a[i], b[i], 1e-12 * Math.max(1, Math.abs(a[i])), "score " + i);
    }
    double[] ha = one.objectiveHistory();
    double[] hb = three.objectiveHistory();
    assertEquals(ha.length, hb.length);
    for (int t = 0; t < ha.length; t++) {
      assertEquals(ha[t], hb[t], 1e-12 * Math.abs(ha[t]), "objective " + t);
    }
    assertEquals(one.summary().keySet(), three.summary().keySet());
    for (String key : one.summary().keySet()) {
      double va = one.summary().get(key);
      assertEquals(va, three.summary().get(key), 1e-12 * Math.max(1, Math.abs(va)), key);
    }
  }

  @Test
  void sampleWeightsStayInUnitInterval() {
    double[] losses = {0, 1e-300, 1e-9, 0.5, 1, 10, 700, 800, 1e300, Double.MAX_VALUE};
    double[] lambdas = {0, 1e-6, 1, 50, 800};
    for (double lambda : lambdas) {
      for (double loss : losses) {
        double r = OrdinalConsensusSolver.weight(loss, lambda);
        assertTrue(r >= 0 && r <= 1, "r(" + loss + ", " + lambda + ") = " + r);
        // The closed form minimises r ℓ + f(λ, r, 1) over [0, 1] (the r-step is exact).
        if (loss < 1e6) {
          double best = OrdinalConsensusSolver.sampleTerm(r, loss, lambda);
          for (int g = 0; g <= 1000; g++) {
            double other = OrdinalConsensusSolver.sampleTerm(g / 1000.0, loss, lambda);
            assertTrue(best <= other + 1e-12 * Math.max(1, Math.abs(other)),
                "r-step not minimal at loss " + loss + ", lambda " + lambda);
          }
        }
      }
    }
    assertEquals(1.0, OrdinalConsensusSolver.weight(0, 0), 1e-15);
    assertEquals(0.0, OrdinalConsensusSolver.weight(1e4, 1e-6), 0.0);

    SelectionResult r = solver(15, 0, 2, 1.0, 1e-2, 0.7, Weighting.SCALED, false)
        .fit(RowBlockMatrix.local(X));
    double mean = r.summary().get("meanSampleWeight");
    assertTrue(mean > 0 && mean <= 0.7, "mean weight " + mean + " with 30% of samples dropped");
    assertTrue(r.summary().get("zeroWeightSamples") >= r.summary().get("droppedSamples"));
    assertTrue(r.summary().get("downWeightedSamples") >= r.summary().get("zeroWeightSamples"));
  }

  @Test
  void keepMaskDependsOnlyOnSeedIterationAndSample() {
    int kept = 0;
    for (int i = 0; i < 20000; i++) {
      boolean z = OrdinalConsensusSolver.keep(4, 3, i, 0.8);
      assertEquals(z, OrdinalConsensusSolver.keep(4, 3, i, 0.8));
      kept += z ? 1 : 0;
    }
    assertEquals(0.8, kept / 20000.0, 0.01);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
      differ += OrdinalConsensusSolver.keep(4, 3, i, 0.5)
          != OrdinalConsensusSolver.keep(4, 4, i, 0.5) ? 1 : 0;
    }
    assertTrue(differ > 350 && differ < 650, "masks of two iterations must be independent");
  }

  /**
   * The W step (Eq. 12 with the U step's closed form, Eq. 8, substituted) against brute force:
   * on a small problem with unequal weights r_i, the d₂ smallest eigenvectors of
   * {@code Q = αL + X R Xᵀ − X R Vᵀ (V R Vᵀ)^{-1} V R Xᵀ + (β/2) P} must attain
   * {@code min_U Σ_i r_i ||Wᵀx_i − U v_i||² + α Tr(WᵀLW) + (β/2) Tr(WᵀPW)} at its minimum
   * over {@code WᵀW = I}: no random orthonormal W does better, and {@code Tr(WᵀQW)} equals
   * that profiled objective for every W. A wrong sign, a transpose or the largest instead of
   * the smallest eigenvectors fails here.
   */
  @Test
  void wStepMinimisesTheObjectiveProfiledOverTheCentres() {
    int d = 5;
    int n = 60;
    int c = 3;
    int d2 = 2;
    SplittableRandom rnd = new SplittableRandom(17);
    DenseMatrix x = new DenseMatrix(d, n);
    DenseMatrix means = new DenseMatrix(d, c);
    for (int i = 0; i < n; i++) {
      int k = i % c;
      for (int j = 0; j < d; j++) {
        double offset = j == k ? 3.0 : 0.5 * j;
        x.set(j, i, offset + rnd.nextGaussian());
        means.set(j, k, means.get(j, k) + offset / (n / c));
      }
    }
    // λ = 2 with losses measured against the planted means: weights spread over (0, 1].
    OrdinalConsensusSolver.Snapshot snap = new OrdinalConsensusSolver.Snapshot(
        DenseMatrix.identity(d), means, DenseMatrix.identity(d), means, null, 1.0, 2.0, 0, 1, 1.0);
    RowBlock block = new RowBlock(0, x);
    OrdinalConsensusSolver.BlockState st = snap.evaluate(block);
    OrdinalConsensusSolver.WStats stats = OrdinalConsensusSolver.WStats.of(block, snap, means,
        true);
    double alpha = 0.7;
    double beta = 0.3;
    DenseMatrix lap = TripletGraph.fromGram(x.gram(), 2, Weighting.RAW).laplacian().toDense();
    double[] p = {1.0, 0.2, 3.0, 0.5, 1.5};
    DenseMatrix q = stats.scatter(null);
    q.addInPlace(alpha, lap);
    double[] halfBetaP = new double[d];
    for (int j = 0; j < d; j++) {
      halfBetaP[j] = beta / 2 * p[j];
    }
    q.addDiagonalInPlace(halfBetaP);
    DenseMatrix best = SymmetricEigen.smallest(q, d2).vectors();
    double optimum = profiledObjective(x, st, c, best, alpha, lap, halfBetaP);
    assertEquals(best.dot(q.multiply(best)), optimum, 1e-9 * Math.abs(optimum));
    double minWeight = 1;
    for (double r : st.weights) {
      minWeight = Math.min(minWeight, r);
    }
    assertTrue(minWeight < 0.5, "weights must be unequal, smallest " + minWeight);
    DenseMatrix implied = best.transposeMultiply(stats.impliedMeans());
    DenseMatrix direct = centres(x, st, c, best);
    assertArrayEquals(direct.data(), implied.data(), 1e-9, "implied centres (Eq. 8)");
    for (int trial = 0; trial < 2000; trial++) {
      DenseMatrix w = new DenseMatrix(d, d2);
      for (int a = 0; a < d2; a++) {
        for (int j = 0; j < d; j++) {
          w.set(j, a, rnd.nextGaussian());
        }
        for (int b = 0; b < a; b++) {
          double dot = 0;
          for (int j = 0; j < d; j++) {
            dot += w.get(j, a) * w.get(j, b);
          }
          for (int j = 0; j < d; j++) {
            w.set(j, a, w.get(j, a) - dot * w.get(j, b));
          }
        }
        double norm = 0;
        for (int j = 0; j < d; j++) {
          norm += w.get(j, a) * w.get(j, a);
        }
        for (int j = 0; j < d; j++) {
          w.set(j, a, w.get(j, a) / Math.sqrt(norm));
        }
      }
      double value = profiledObjective(x, st, c, w, alpha, lap, halfBetaP);
      assertEquals(w.dot(q.multiply(w)), value, 1e-9 * Math.abs(value), "Tr(WᵀQW)");
      assertTrue(value >= optimum - 1e-9 * Math.abs(optimum),
          "a random orthonormal W scores " + value + " below the W step's " + optimum);
    }
  }

  /** The r-weighted class means of {@code Wᵀx_i} under the labels of st (Eq. 8). */
  private static DenseMatrix centres(DenseMatrix x, OrdinalConsensusSolver.BlockState st, int c,
      DenseMatrix w) {
    DenseMatrix y = w.transposeMultiply(x);
    DenseMatrix u = new DenseMatrix(w.cols(), c);
    double[] mass = new double[c];
    for (int i = 0; i < x.cols(); i++) {
      mass[st.labels[i]] += st.weights[i];
      for (int a = 0; a < w.cols(); a++) {
        u.set(a, st.labels[i], u.get(a, st.labels[i]) + st.weights[i] * y.get(a, i));
      }
    }
    for (int k = 0; k < c; k++) {
      for (int a = 0; a < w.cols(); a++) {
        u.set(a, k, u.get(a, k) / mass[k]);
      }
    }
    return u;
  }

  /** {@code min_U Σ r_i ||Wᵀx_i − U v_i||² + α Tr(WᵀLW) + Σ_j h_j ||w_j||²}, directly. */
  private static double profiledObjective(DenseMatrix x, OrdinalConsensusSolver.BlockState st,
      int c, DenseMatrix w, double alpha, DenseMatrix lap, double[] h) {
    DenseMatrix y = w.transposeMultiply(x);
    DenseMatrix u = centres(x, st, c, w);
    double value = 0;
    for (int i = 0; i < x.cols(); i++) {
      for (int a = 0; a < w.cols(); a++) {
        double diff = y.get(a, i) - u.get(a, st.labels[i]);
        value += st.weights[i] * diff * diff;
      }
    }
    double[] rows = w.rowNormsSquared();
    for (int j = 0; j < rows.length; j++) {
      value += h[j] * rows[j];
    }
    return value + alpha * w.dot(lap.multiply(w));
  }

  /**
   * Algorithm 1 replayed densely on a tiny problem, by a path independent of the solver's:
   * U by Eq. 8 (the r-weighted class means), V by exhaustive search (Eq. 9), P by Eq. 11, W the
   * d₂ smallest eigenvectors (Jacobi) of Q formed as Eq. 12 with the minus of Eq. 8 substituted
   * (or its between form), L built from M by its definition after Eq. 10, r by the closed form
   * of the r-step, and Eq. 7 term by term: {@code Σ r_i ℓ_i + f(λ, r, z) + β Σ sqrt(||W_i||² + ε)
   * + (α/2) Σ_ij M_ij ||W_i − W_j||²}. Only the random draws come from the solver: the initial
   * basis (Algorithm 1, line 2) and z. The recorded objective must equal the replay value by
   * value.
   */
  @Test
  void objectiveHistoryEqualsAlgorithm1ReplayedDensely() {
    int d = 5;
    int n = 30;
    int c = 3;
    int d2 = 2;
    int k = 2;
    long seed = 3;
    double alpha = 0.5;
    double beta = 0.3;
    double s = 0.8;
    double lambda0 = 0.5;
    double mu = 1.1;
    SplittableRandom rnd = new SplittableRandom(29);
    double[][] x = new double[d][n];
    int[] planted = new int[n];
    for (int i = 0; i < n; i++) {
      planted[i] = i % c;
      for (int j = 0; j < d; j++) {
        // Every feature alone separates the three clusters (levels 0, 1.5, 3), so k-means on
        // any two of them, the random initial basis, finds the planted clustering.
        x[j][i] = 1.5 * ((planted[i] + j) % c) + 0.2 * rnd.nextGaussian();
      }
    }
    // M of Eq. 5 from the library's graph (TripletGraphTest checks it against Eq. 5).
    DenseMatrix weights = TripletGraph.fromGram(toDense(multiplyTranspose(x, x)), k,
        Weighting.SCALED).weights().toDense();
    double[][] m = new double[d][d];
    for (int i = 0; i < d; i++) {
      for (int j = 0; j < d; j++) {
        m[i][j] = weights.get(i, j);
      }
    }
    double[][] lap = new double[d][d];
    for (int i = 0; i < d; i++) {
      for (int j = 0; j < d; j++) {
        double sym = (m[i][j] + m[j][i]) / 2;
        lap[i][j] -= sym;
        lap[i][i] += sym;
      }
    }
    double[] mean = new double[d];
    for (int j = 0; j < d; j++) {
      mean[j] = Arrays.stream(x[j]).average().orElseThrow();
    }
    for (OrdinalConsensusSolver.Criterion criterion : OrdinalConsensusSolver.Criterion.values()) {
      boolean between = criterion == OrdinalConsensusSolver.Criterion.BETWEEN;
      DenseMatrix w0 = OrdinalConsensusSolver.randomFeatures(d, d2, seed);
      double[][] w = new double[d][d2];
      for (int j = 0; j < d; j++) {
        for (int a = 0; a < d2; a++) {
          w[j][a] = w0.get(j, a);
        }
      }
      int[] labels = planted.clone();
      double[] r = new double[n];
      Arrays.fill(r, 1.0);
      double lambda = lambda0;
      List<Double> replay = new ArrayList<>();
      for (int t = 1; t <= 6; t++) {
        lambda *= mu;
        double[][] centres = weightedMeans(x, labels, r, c); // Eq. 8, lifted to the d features
        double[][] y = transposeMultiply(w, x);
        double[][] projectedCentres = transposeMultiply(w, centres);
        for (int i = 0; i < n; i++) {
          labels[i] = nearest(y, i, projectedCentres); // Eq. 9
        }
        double[][] implied = weightedMeans(x, labels, r, c);
        double[] classWeights = new double[c];
        for (int i = 0; i < n; i++) {
          classWeights[labels[i]] += r[i];
        }
        double[][] q = new double[d][d];
        for (int a = 0; a < d; a++) {
          for (int b = 0; b < d; b++) {
            double data = 0;
            if (between) {
              for (int j = 0; j < c; j++) {
                data -= classWeights[j] * (implied[a][j] - mean[a]) * (implied[b][j] - mean[b]);
              }
            } else {
              for (int i = 0; i < n; i++) {
                data += r[i] * x[a][i] * x[b][i];
              }
              for (int j = 0; j < c; j++) {
                data -= classWeights[j] * implied[a][j] * implied[b][j];
              }
            }
            q[a][b] = alpha * lap[a][b] + data;
          }
          q[a][a] += beta / 2 / Math.sqrt(rowSquared(w, a) + OrdinalConsensusSolver.EPSILON);
        }
        w = eigenvectors(q, d2, false); // Eq. 12 with P of Eq. 11
        double a0 = 1 + Math.exp(-lambda);
        double objective = 0;
        for (int i = 0; i < n; i++) {
          double loss = 0;
          for (int a = 0; a < d2; a++) {
            double fit = 0;
            double spread = 0;
            for (int j = 0; j < d; j++) {
              fit += w[j][a] * (x[j][i] - implied[j][labels[i]]);
              spread += w[j][a] * (x[j][i] - mean[j]);
            }
            loss += fit * fit - (between ? spread * spread : 0);
          }
          if (OrdinalConsensusSolver.keep(seed, t, i, s)) {
            r[i] = Math.min(1, Math.max(0, a0 / (1 + Math.exp(loss - lambda))));
            objective += r[i] * loss + (a0 - r[i]) * Math.log(a0 - r[i])
                + (r[i] > 0 ? r[i] * Math.log(r[i]) : 0) - lambda * r[i];
          } else {
            r[i] = 0;
          }
        }
        for (int j = 0; j < d; j++) {
          objective += beta * Math.sqrt(rowSquared(w, j) + OrdinalConsensusSolver.EPSILON);
          for (int l = 0; l < d; l++) {
            double squared = 0;
            for (int a = 0; a < d2; a++) {
              squared += (w[j][a] - w[l][a]) * (w[j][a] - w[l][a]);
            }
            objective += alpha / 2 * m[j][l] * squared;
          }
        }
        replay.add(objective);
      }
      double[] recorded = new OrdinalConsensusSolver(TestData.shared(
          OrdinalConsensusSolver.PARAMS, c, k, 6, 0, seed)
          .with(OrdinalConsensusSolver.ALPHA, alpha).with(OrdinalConsensusSolver.BETA, beta)
          .with(OrdinalConsensusSolver.PROJECTION_DIM, d2)
          .with(OrdinalConsensusSolver.KEEP_PROBABILITY, s)
          .with(OrdinalConsensusSolver.LAMBDA0, lambda0).with(OrdinalConsensusSolver.MU, mu)
          .with(OrdinalConsensusSolver.TRIPLET_WEIGHTING, Weighting.SCALED)
          .with(OrdinalConsensusSolver.SCATTER_CRITERION, criterion)
          .with(OrdinalConsensusSolver.UNIT_SCALE, false)
          .with(CommonOptions.FEATURE_SCALING, FeatureScaling.NONE))
          .fit(RowBlockMatrix.local(toDense(x))).objectiveHistory();
      assertEquals(6, recorded.length, criterion + ": tol 0 runs every iteration");
      boolean rose = false;
      for (int t = 0; t < recorded.length; t++) {
        double expected = replay.get(t);
        // Measured: largest relative difference 8.7e-16 over both criteria.
        assertEquals(expected, recorded[t], 1e-10 * Math.abs(expected),
            criterion + ": objective at iteration " + (t + 1));
        rose |= t > 0 && recorded[t] > recorded[t - 1];
      }
      // §3.2's descent holds for fixed λ and z only (augmentedObjectiveNeverIncreases...): under
      // Algorithm 1's schedule λ grows and z is redrawn, and Eq. 7 rises (here WITHIN at
      // iterations 2 and 4, BETWEEN at 4 and 6).
      assertTrue(rose, criterion + ": the objective never rose under the growing λ");
    }
  }

  /**
   * The closed-form updates are stationary points of their subproblems, by central
   * differences: the solver's P (Eq. 11, {@code RowSparsityWeights.l21} = P_ii / 2) makes
   * {@code (β/2) Σ P_ii ||W_i||²} tangent to {@code β Σ sqrt(||W_i||² + ε)} at the current W
   * (Lemma 1), and the r-step's weight zeroes the derivative of {@code r ℓ + f(λ, r, 1)} where it
   * lies inside (0, 1).
   */
  @Test
  void pAndRStepsAreStationaryByCentralDifferences() {
    SplittableRandom rnd = new SplittableRandom(41);
    int d = 6;
    int d2 = 3;
    DenseMatrix w = new DenseMatrix(d, d2);
    for (int j = 0; j < d; j++) {
      for (int a = 0; a < d2; a++) {
        // Row 5 is small, where the smoothed norm curves most.
        w.set(j, a, (j == 5 ? 1e-2 : 1) * rnd.nextGaussian());
      }
    }
    double[] halfP = RowSparsityWeights.l21(w, OrdinalConsensusSolver.EPSILON);
    double h = 1e-6;
    for (int trial = 0; trial < 5; trial++) {
      DenseMatrix e = new DenseMatrix(d, d2);
      for (int j = 0; j < d; j++) {
        for (int a = 0; a < d2; a++) {
          e.set(j, a, rnd.nextGaussian());
        }
      }
      DenseMatrix up = w.copy().addInPlace(h, e);
      DenseMatrix down = w.copy().addInPlace(-h, e);
      double norm = (RowSparsityWeights.smoothedL21Norm(up, OrdinalConsensusSolver.EPSILON)
          - RowSparsityWeights.smoothedL21Norm(down, OrdinalConsensusSolver.EPSILON)) / (2 * h);
      double quadratic = (weightedSquares(up, halfP) - weightedSquares(down, halfP)) / (2 * h);
      // Measured: relative differences up to 1.5e-9.
      assertEquals(norm, quadratic, 1e-7 * Math.abs(norm), "direction " + trial);
    }
    for (double lambda : new double[] {1e-6, 0.5, 3}) {
      for (double loss : new double[] {0.05, 0.7, 2, 6}) {
        double r = OrdinalConsensusSolver.weight(loss, lambda);
        assertTrue(r > 1e-3 && r < 1, "r = " + r + " is not interior");
        double eps = 1e-7;
        double slope = (OrdinalConsensusSolver.sampleTerm(r + eps, loss, lambda)
            - OrdinalConsensusSolver.sampleTerm(r - eps, loss, lambda)) / (2 * eps);
        // Measured: |slope| up to 2.2e-9; a weight 1 % off would give at least 0.02 (the
        // second derivative is 1/r + 1/(a − r) ≥ 2).
        assertEquals(0, slope, 1e-6, "∂/∂r at loss " + loss + ", lambda " + lambda);
      }
    }
  }

  /** {@code Σ_j c_j ||w_j||²}. */
  private static double weightedSquares(DenseMatrix w, double[] c) {
    double[] squares = w.rowNormsSquared();
    double s = 0;
    for (int j = 0; j < c.length; j++) {
      s += c[j] * squares[j];
    }
    return s;
  }

  private static DenseMatrix toDense(double[][] a) {
    DenseMatrix out = new DenseMatrix(a.length, a[0].length);
    for (int i = 0; i < a.length; i++) {
      for (int j = 0; j < a[0].length; j++) {
        out.set(i, j, a[i][j]);
      }
    }
    return out;
  }

  /** The r-weighted means of the columns of x per label, as the c columns of a d × c array. */
  private static double[][] weightedMeans(double[][] x, int[] labels, double[] r, int c) {
    double[][] sums = new double[x.length][c];
    double[] total = new double[c];
    for (int i = 0; i < labels.length; i++) {
      total[labels[i]] += r[i];
      for (int j = 0; j < x.length; j++) {
        sums[j][labels[i]] += r[i] * x[j][i];
      }
    }
    for (double[] row : sums) {
      for (int k = 0; k < c; k++) {
        row[k] /= total[k];
      }
    }
    return sums;
  }

  /** The column of {@code centres} nearest to column i of y (ties: the lower index). */
  private static int nearest(double[][] y, int i, double[][] centres) {
    int best = 0;
    double bestDistance = Double.POSITIVE_INFINITY;
    for (int k = 0; k < centres[0].length; k++) {
      double distance = 0;
      for (int a = 0; a < y.length; a++) {
        distance += (y[a][i] - centres[a][k]) * (y[a][i] - centres[a][k]);
      }
      if (distance < bestDistance) {
        best = k;
        bestDistance = distance;
      }
    }
    return best;
  }

  private static double rowSquared(double[][] w, int row) {
    double s = 0;
    for (double v : w[row]) {
      s += v * v;
    }
    return s;
  }

  @Test
  void emptiedClusterIsReseededAtTheWorstFittedSample() {
    // Pass-2 sums of a 2-d projection with three clusters, the middle one of zero weight.
    OrdinalConsensusSolver.UStats s = new OrdinalConsensusSolver.UStats(2, 3);
    s.weightedSums.set(0, 0, 2.0);
    s.weightedSums.set(1, 0, 4.0);
    s.classWeights[0] = 2.0;
    s.weightedSums.set(0, 2, 3.0);
    s.classWeights[2] = 1.5;
    s.worst.offer(0.5, 1.0, 7, new double[] {9, 9}, 0);
    s.worst.offer(2.0, 4.0, 3, new double[] {5, 6}, 0);
    s.worst.offer(2.0, 4.0, 1, new double[] {-1, -2}, 0);
    DenseMatrix u = s.means();
    assertEquals(1, s.emptied());
    assertArrayEquals(new double[] {1, 2, -1, -2, 2, 0}, u.data(), 1e-15,
        "cluster 1 moves to sample 1 (largest r·ℓ, lower index on ties)");
  }

  @Test
  void fitSurvivesClustersThatEmpty() {
    // 40 samples at only three distinct points, five clusters: k-means++ must duplicate a
    // centre, so clusters empty and are re-seeded; half of the samples dropped per iteration.
    DenseMatrix x = new DenseMatrix(6, 40);
    for (int i = 0; i < 40; i++) {
      x.set(i % 3, i, 1.0);
      x.set(3 + i % 3, i, 0.5);
    }
    SelectionResult r = new OrdinalConsensusSolver(
        TestData.shared(OrdinalConsensusSolver.PARAMS, 5, 2, 10, 0, 1)
        .with(OrdinalConsensusSolver.ALPHA, 1.0).with(OrdinalConsensusSolver.BETA, 1e-3)
        .with(OrdinalConsensusSolver.PROJECTION_DIM, 2)
        .with(OrdinalConsensusSolver.KEEP_PROBABILITY, 0.5)
        .with(OrdinalConsensusSolver.LAMBDA0, 1e-6).with(OrdinalConsensusSolver.MU, 1.1)
        .with(OrdinalConsensusSolver.TRIPLET_WEIGHTING, Weighting.SCALED)
        .with(OrdinalConsensusSolver.SCATTER_CRITERION,
        OrdinalConsensusSolver.Criterion.WITHIN)).fit(split(x, 3));
    assertTrue(r.summary().get("reseededClusters") > 0, "no cluster was re-seeded");
    for (double v : r.scores()) {
      assertTrue(Double.isFinite(v), "score " + v);
    }
    for (double v : r.objectiveHistory()) {
      assertTrue(Double.isFinite(v), "objective " + v);
    }
  }

  /**
   * Issue #20 (b): raw pixel-like data with d > n (130 samples × 2400 grey levels in 6..255,
   * four planted clusters). Under the paper's within-cluster criterion the projection fits
   * every weighted sample exactly, z-dropped samples are left far off and underflow to r = 0,
   * and after about 20 iterations every weight has vanished. At the defaults every iteration
   * runs, the scores are finite and no kept sample loses its weight to underflow.
   */
  @Test
  void rawPixelDataWithMoreFeaturesThanSamplesRunsEveryIteration() {
    int d = 2400;
    int n = 130;
    SplittableRandom rnd = new SplittableRandom(5);
    DenseMatrix x = new DenseMatrix(d, n);
    for (int i = 0; i < n; i++) {
      int k = i % 4;
      for (int j = 0; j < d; j++) {
        double base = 60 + 40 * ((j / 600 == k) ? 2 : 0);
        x.set(j, i, Math.max(6, Math.min(255, Math.rint(base + 30 * rnd.nextGaussian()))));
      }
    }
    SelectionResult r = defaults(4, 3).fit(RowBlockMatrix.local(x));
    assertEquals(30, r.objectiveHistory().length);
    for (double v : r.scores()) {
      assertTrue(Double.isFinite(v), "score " + v);
    }
    assertTrue(r.summary().get("meanSampleWeight") > 0.5,
        "mean weight " + r.summary().get("meanSampleWeight"));
  }

  /** In the data's own unit (the paper's), residuals of 10⁶ underflow every weight. */
  @Test
  void failsClearlyWhenEveryWeightUnderflows() {
    DenseMatrix big = X.copy().scaleInPlace(1e3);
    OrdinalConsensusSolver rawUnit = new OrdinalConsensusSolver(
        TestData.shared(OrdinalConsensusSolver.PARAMS, 4, 5, 5, 0, 1)
            .with(OrdinalConsensusSolver.SCATTER_CRITERION, OrdinalConsensusSolver.Criterion.WITHIN)
            .with(OrdinalConsensusSolver.UNIT_SCALE, false)
            .with(CommonOptions.FEATURE_SCALING, FeatureScaling.NONE));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> rawUnit.fit(RowBlockMatrix.local(big)));
    assertTrue(e.getMessage().contains("scale the data"), e.getMessage());
  }

  /**
   * {@code unitScale} runs Eq. 7 on X / √u, u the mean squared deviation a random
   * d₂-dimensional projection keeps (d₂ = 4 times the mean feature variance): the fit on X
   * equals the raw-unit fit on X / √u, and the same data in another unit (× 1000) give the same
   * scores and objective.
   */
  @Test
  void unitScaleIsEquationSevenOnTheDataInTheirOwnUnit() {
    SelectionResult scaled = asGiven(4, 3).fit(RowBlockMatrix.local(X));
    double unit = scaled.summary().get("dataUnit");
    DenseMatrix centred = X.copy();
    double[] mean = new double[X.rows()];
    for (int i = 0; i < X.cols(); i++) {
      for (int j = 0; j < X.rows(); j++) {
        mean[j] += X.get(j, i) / X.cols();
      }
    }
    for (int i = 0; i < X.cols(); i++) {
      for (int j = 0; j < X.rows(); j++) {
        centred.set(j, i, X.get(j, i) - mean[j]);
      }
    }
    double variance = 0;
    for (int i = 0; i < X.cols(); i++) {
      for (int j = 0; j < X.rows(); j++) {
        variance += centred.get(j, i) * centred.get(j, i) / X.cols();
      }
    }
    double expectedUnit = 4 * variance / X.rows();
    assertEquals(expectedUnit, unit, 1e-9 * expectedUnit);

    SelectionResult raw = new OrdinalConsensusSolver(
        defaultOptions(4, 3).with(OrdinalConsensusSolver.UNIT_SCALE, false)
            .with(CommonOptions.FEATURE_SCALING, FeatureScaling.NONE))
        .fit(RowBlockMatrix.local(X.copy().scaleInPlace(1 / Math.sqrt(unit))));
    TestData.assertClose(raw.scores(), scaled.scores(), 1e-6, "scores");
    TestData.assertClose(raw.objectiveHistory(), scaled.objectiveHistory(), 1e-6, "objective");

    SelectionResult thousand = asGiven(4, 3)
        .fit(RowBlockMatrix.local(X.copy().scaleInPlace(1e3)));
    TestData.assertClose(scaled.scores(), thousand.scores(), 1e-6, "scores, data × 1000");
    TestData.assertClose(scaled.objectiveHistory(), thousand.objectiveHistory(), 1e-6,
        "objective, data × 1000");
  }

  /**
   * By range (the default) each feature's unit drops out: feature j rescaled by
   * 10^(j mod 7 − 3) gives the same scores and objective.
   */
  @Test
  void rangeUnitsMakeTheFitIndependentOfEachFeaturesUnit() {
    DenseMatrix rescaled = X.copy();
    for (int j = 0; j < X.rows(); j++) {
      for (int i = 0; i < X.cols(); i++) {
        rescaled.set(j, i, X.get(j, i) * Math.pow(10, j % 7 - 3));
      }
    }
    SelectionResult a = defaults(4, 3).fit(RowBlockMatrix.local(X));
    SelectionResult b = defaults(4, 3).fit(RowBlockMatrix.local(rescaled));
    TestData.assertClose(a.scores(), b.scores(), 1e-6, "scores, features rescaled");
    TestData.assertClose(a.objectiveHistory(), b.objectiveHistory(), 1e-6,
        "objective, features rescaled");
  }

  /**
   * Issue #20, many-noise: 8 planted features among d = 500 > n = 400 (c = 4). In the data's
   * raw unit (feature variance 10; {@code unitScale=false}) the fits found a mean .1625 of the
   * 8 over draws 1–10, none on 7 of them: the self-paced weights of all but a few samples
   * underflow to 0 and the projection fits those few (6–28 of 400 samples kept weight on 8
   * draws of the earlier, dependent planted samples). In the data's own unit with
   * {@code featureScaling=none}: mean .8625, per draw .625 to 1; by range (the default) 1 on
   * every draw. The bar leaves 8 of the 80 planted features as margin.
   * Native LAPACK only.
   */
  @Test
  void recoversPlantedFeaturesAmongMoreNoiseColumnsThanSamples() {
    TestData.assumeNativeLapack("ten ordinal consensus fits with d = 500 > n = 400");
    double[] recalls = new double[10];
    for (int seed = 1; seed <= recalls.length; seed++) {
      PlantedClusters planted = new PlantedClusters(500, 8, 4, 3.0, seed);
      SelectionResult r = defaults(4, seed).fit(RowBlockMatrix.local(planted.matrix(400)));
      recalls[seed - 1] = planted.recall(FeatureRanking.rank(r.scores(), r.largerIsBetter()));
    }
    TestData.assertMeanRecall(recalls, 0.9, "ordinal consensus, d > n");
  }

  /**
   * Issue #20: on raw-pixel faces with d > n (130 × 2,400, values 6..255) the fit stopped at
   * its defaults with "every sample weight r_i vanished". At the default between-scatter
   * criterion each sample's loss is measured against the mean, which no single sample fits
   * exactly, so the fit runs all 30 iterations with samples of positive weight left. (On raw
   * pixels the losses are in the thousands, so the weights are nearly all 0 or 1: at seed 1,
   * 85 of 130 samples end at 0, 32 of them dropped by z.)
   */
  @Test
  void rawPixelFacesWithMoreFeaturesThanSamplesRunToTheEnd() {
    for (long seed = 1; seed <= 3; seed++) {
      SelectionResult r = new OrdinalConsensusSolver(TestData.shared(
          OrdinalConsensusSolver.PARAMS, 10, 5, 30, 0, seed)).fit(
              TestData.blocks(UdfsSolverTest.rawPixels(seed), 2));
      assertEquals(30, r.iterations(), "seed " + seed);
      assertTrue(r.summary().get("meanSampleWeight") > 0, "seed " + seed + ": " + r.summary());
    }
  }

  /**
   * Fewer features than the default k = 5 (found by dev/unseen-data-sweep on iris, d = 4:
   * "numNeighbors must be at most d - 1 = 3, got 5"): each feature's N_i is all the other
   * features, and the fit runs at default params. Only that is asserted: on planted data with
   * 2 informative of 4 features and 3 clusters, recall over seeds 1-10 was 0 or 1 (mean .45,
   * chance .5), so ordinal consensus does not find them at this size (docs/methods/ordinal.md).
   */
  @Test
  void fewerFeaturesThanNeighboursUsesAllOtherFeatures() {
    for (long seed = 1; seed <= 10; seed++) {
      PlantedClusters planted = new PlantedClusters(4, 2, 3, 3.0, seed);
      SelectionResult r = new OrdinalConsensusSolver(
          TestData.shared(OrdinalConsensusSolver.PARAMS, 3, 5, 30, 1e-6, seed))
          .fit(RowBlockMatrix.local(planted.matrix(150)));
      assertEquals(3.0, r.summary().get("featureNeighbors"), "seed " + seed);
      assertTrue(Arrays.stream(r.scores()).allMatch(Double::isFinite), "seed " + seed);
    }
  }

  @Test
  void rejectsBadParameters() {
    MethodOptions c = TestData.shared(OrdinalConsensusSolver.PARAMS, 4, 5, 10, 1e-6, 1);
    expectMessage("-1.0", () -> c.with(OrdinalConsensusSolver.ALPHA, -1.0));
    expectMessage("NaN", () -> c.with(OrdinalConsensusSolver.BETA, Double.NaN));
    expectMessage("keepProbability", () -> c.with(OrdinalConsensusSolver.KEEP_PROBABILITY, 0.0));
    expectMessage("1.5", () -> c.with(OrdinalConsensusSolver.KEEP_PROBABILITY, 1.5));
    expectMessage("lambda0", () -> c.with(OrdinalConsensusSolver.LAMBDA0, -1.0));
    expectMessage("0.9", () -> c.with(OrdinalConsensusSolver.MU, 0.9));
    expectMessage("tripletWeighting", () -> c.with(OrdinalConsensusSolver.TRIPLET_WEIGHTING, null));
    OrdinalConsensusSolver tooWide = new OrdinalConsensusSolver(
        c.with(OrdinalConsensusSolver.PROJECTION_DIM, 41));
    expectMessage("41", () -> tooWide.fit(RowBlockMatrix.local(X)));
    OrdinalConsensusSolver oneDirection = new OrdinalConsensusSolver(
        c.with(OrdinalConsensusSolver.PROJECTION_DIM, 1));
    expectMessage("at least 2 features for its feature graph, got 1",
        () -> oneDirection.fit(RowBlockMatrix.local(new DenseMatrix(1, 6, new double[] {1, 2, 4, 8, 16, 32}))));
  }

  private static void expectMessage(String part, Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertTrue(e.getMessage().contains(part), "message '" + e.getMessage() + "' lacks " + part);
  }
}
