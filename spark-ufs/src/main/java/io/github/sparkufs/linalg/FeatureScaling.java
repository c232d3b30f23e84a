package io.github.sparkufs.linalg;

/**
 * The unit a method measures each feature in before it starts (a step the papers do not have):
 * the factor that multiplies feature j after centring. A constant feature gets 0 in every case
 * but {@link #NONE}: it spans no direction and its score is not used.
 */
public enum FeatureScaling {
  /** The data as given. */
  NONE,
  /**
   * Each feature divided by its range, max − min: features on unrelated scales are put on one,
   * while features that already share a unit (the pixels of an image, whose ranges agree even
   * when their deviations differ twentyfold) keep their relative spread; a feature of heavy
   * tails is quietened by its extremes.
   */
  RANGE,
  /**
   * Each feature divided by its standard deviation: every feature gets unit variance, which
   * also lifts a nearly constant feature with a few large values (a rarely lit edge pixel) to
   * the spread of the busiest one.
   */
  STANDARD;

  /** The factor for each feature of data with these statistics; null for {@link #NONE}. */
  public double[] factors(ColumnStatistics stats) {
    return switch (this) {
      case NONE -> null;
      case RANGE -> stats.inverseRanges();
      case STANDARD -> stats.scales(true);
    };
  }
}
