package io.github.sparkufs.solver;

import io.github.sparkufs.linalg.ColumnStatistics;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Orders features by score: best first, ties broken by the lower index, NaN scores last. A
 * constant feature carries no structure whatever score a method gives it (a zero-variance
 * column is a null direction of every method's scatter, so an objective under a norm
 * constraint on the weights can even prefer it): {@link #withoutConstantFeatures} leaves it
 * unscored, so that it ranks after every feature with a score.
 */
public final class FeatureRanking {

  private FeatureRanking() {}

  /**
   * The scores with those of the constant features replaced by NaN; a non-finite score of any
   * other feature is an arithmetic failure of {@code method}, never a ranking, and fails here.
   */
  public static double[] withoutConstantFeatures(String method, double[] scores,
      ColumnStatistics stats) {
    double[] out = scores.clone();
    for (int j = 0; j < out.length; j++) {
      if (stats.isConstant(j)) {
        out[j] = Double.NaN;
      } else if (!Double.isFinite(out[j])) {
        throw new IllegalArgumentException(method + " scored feature " + j + " " + out[j]
            + ": its arithmetic overflowed or lost all precision on these data; rescale the "
            + "features (e.g. with StandardScaler) or check the method's params");
      }
    }
    return out;
  }

  /** Feature indices, best first. */
  public static int[] rank(double[] scores, boolean largerIsBetter) {
    Integer[] order = new Integer[scores.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Comparator<Integer> byScore = (a, b) -> {
      double sa = scores[a];
      double sb = scores[b];
      boolean na = Double.isNaN(sa);
      boolean nb = Double.isNaN(sb);
      if (na || nb) {
        return na == nb ? 0 : (na ? 1 : -1);
      }
      return largerIsBetter ? Double.compare(sb, sa) : Double.compare(sa, sb);
    };
    Arrays.sort(order, byScore.thenComparingInt(i -> i));
    return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
  }

  /** The best {@code m} feature indices, ascending (the order a sliced vector keeps). */
  public static int[] top(double[] scores, boolean largerIsBetter, int m) {
    int[] r = rank(scores, largerIsBetter);
    int[] top = Arrays.copyOf(r, Math.min(m, r.length));
    Arrays.sort(top);
    return top;
  }
}
