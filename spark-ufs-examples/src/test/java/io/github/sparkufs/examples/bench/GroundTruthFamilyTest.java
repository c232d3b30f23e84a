package io.github.sparkufs.examples.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.linalg.DenseMatrix;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class GroundTruthFamilyTest {

  /**
   * The planted features are the ones that carry the clusters: each has a larger share of its
   * variance between the clusters than any other feature (the known answer is the right one).
   */
  @ParameterizedTest
  @EnumSource(GroundTruthFamily.class)
  void informativeFeaturesAreExactlyTheOnesThatSeparateTheClusters(GroundTruthFamily family) {
    for (long seed = 1; seed <= 3; seed++) {
      GroundTruthFamily.Draw draw = family.draw(seed);
      DenseMatrix x = draw.x();
      assertEquals(family.numFeatures(), x.rows());
      assertEquals(family.rows(), x.cols());
      int[] informative = draw.informative();
      assertEquals(GroundTruthFamily.INFORMATIVE, Arrays.stream(informative).distinct().count());
      double weakestInformative = Double.POSITIVE_INFINITY;
      double strongestNoise = 0;
      for (int f = 0; f < x.rows(); f++) {
        double share = betweenShare(x, f, draw.labels(), family.clusters());
        if (Arrays.binarySearch(informative, f) >= 0) {
          weakestInformative = Math.min(weakestInformative, share);
        } else {
          strongestNoise = Math.max(strongestNoise, share);
        }
      }
      // A pure-noise feature's share is Beta((c − 1)/2, (n − c)/2)-distributed: the largest of
      // 992 on 150 samples exceeds 0.19 with probability 1e-3 (median 0.11); of ≤ 492 on 400
      // samples, 0.071.
      double noiseBound = family == GroundTruthFamily.FEW_SAMPLES ? 0.2 : 0.1;
      assertTrue(weakestInformative > 0.5 && strongestNoise < noiseBound, family + " seed " + seed
          + ": between-cluster share " + weakestInformative + " vs noise " + strongestNoise);
      assertEquals(1.0, draw.recall(informative));
    }
  }

  @ParameterizedTest
  @EnumSource(GroundTruthFamily.class)
  void sameSeedSameDrawOtherSeedOtherDraw(GroundTruthFamily family) {
    assertArrayEquals(family.draw(4).x().data(), family.draw(4).x().data());
    assertFalse(Arrays.equals(family.draw(4).x().data(), family.draw(5).x().data()));
  }

  @Test
  void shapesOfTheHardCases() {
    int[] sizes = new int[4];
    for (int label : GroundTruthFamily.UNEQUAL_SIZES.draw(1).labels()) {
      sizes[label]++;
    }
    assertArrayEquals(new int[] {220, 100, 60, 20}, sizes);

    DenseMatrix z = GroundTruthFamily.ZSCORED_REDUNDANT.draw(1).x();
    for (int f = 0; f < z.rows(); f++) {
      assertEquals(0.0, moment(z, f, 1), 1e-12);
      assertEquals(1.0, moment(z, f, 2), 1e-12);
    }

    GroundTruthFamily.Draw small = GroundTruthFamily.SMALL_SCALE_SIGNAL.draw(1);
    for (int f = 0; f < small.x().rows(); f++) {
      double std = Math.sqrt(moment(small.x(), f, 2));
      boolean informative = Arrays.binarySearch(small.informative(), f) >= 0;
      assertTrue(informative ? std < 0.25 : std > 0.8, "feature " + f + ": std " + std);
    }

    // Student-t noise with 3 degrees of freedom: kurtosis far above the Gaussian's 3.
    GroundTruthFamily.Draw heavy = GroundTruthFamily.HEAVY_TAILED_NOISE.draw(1);
    double kurtosis = 0;
    int noise = 0;
    for (int f = 0; f < heavy.x().rows(); f++) {
      if (Arrays.binarySearch(heavy.informative(), f) < 0) {
        kurtosis += moment(heavy.x(), f, 4) / Math.pow(moment(heavy.x(), f, 2), 2);
        noise++;
      }
    }
    assertTrue(kurtosis / noise > 6, "mean kurtosis of the noise features " + kurtosis / noise);

    // Correlated noise: each noise feature shares 0.8 of its variance with the others of its
    // factor, so its strongest correlation with another noise feature is near ±0.8.
    GroundTruthFamily.Draw factored = GroundTruthFamily.CORRELATED_NOISE.draw(1);
    DenseMatrix fx = factored.x();
    for (int f = 0; f < fx.rows(); f++) {
      if (Arrays.binarySearch(factored.informative(), f) < 0) {
        double strongest = 0;
        for (int g = 0; g < fx.rows(); g++) {
          if (g != f && Arrays.binarySearch(factored.informative(), g) < 0) {
            strongest = Math.max(strongest, Math.abs(correlation(fx, f, g)));
          }
        }
        assertTrue(strongest > 0.7, "noise feature " + f + ": strongest |r| " + strongest);
      }
    }
  }

  /** Pearson correlation of features f and g. */
  private static double correlation(DenseMatrix x, int f, int g) {
    double mf = moment(x, f, 1);
    double mg = moment(x, g, 1);
    double cov = 0;
    for (int i = 0; i < x.cols(); i++) {
      cov += (x.get(f, i) - mf) * (x.get(g, i) - mg);
    }
    return cov / x.cols() / Math.sqrt(moment(x, f, 2) * moment(x, g, 2));
  }

  /** The share of feature f's variance that lies between the clusters' means. */
  private static double betweenShare(DenseMatrix x, int f, int[] labels, int clusters) {
    double[] sum = new double[clusters];
    int[] count = new int[clusters];
    double mean = moment(x, f, 1);
    for (int i = 0; i < x.cols(); i++) {
      sum[labels[i]] += x.get(f, i);
      count[labels[i]]++;
    }
    double between = 0;
    for (int c = 0; c < clusters; c++) {
      double d = sum[c] / count[c] - mean;
      between += count[c] * d * d;
    }
    return between / x.cols() / moment(x, f, 2);
  }

  /** The mean (p = 1) or the p-th central moment of feature f. */
  private static double moment(DenseMatrix x, int f, int p) {
    double mean = 0;
    for (int i = 0; i < x.cols(); i++) {
      mean += x.get(f, i);
    }
    mean /= x.cols();
    if (p == 1) {
      return mean;
    }
    double m = 0;
    for (int i = 0; i < x.cols(); i++) {
      m += Math.pow(x.get(f, i) - mean, p);
    }
    return m / x.cols();
  }
}
