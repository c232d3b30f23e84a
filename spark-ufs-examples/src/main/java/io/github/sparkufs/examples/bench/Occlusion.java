package io.github.sparkufs.examples.bench;

import io.github.sparkufs.eval.PlantedClusters;
import io.github.sparkufs.linalg.DenseMatrix;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The malicious occlusion of the RSFS paper's §IV-D (Shi, Du and Shen, ICDM 2014): a given
 * fraction of the images, chosen at random, each get one square block at a random position
 * overwritten with a constant value. The paper uses ORL (32 × 32 images), ratios 0.2 and 0.3 and
 * 10 random draws, but states neither the block size nor what the block contains; this class
 * takes both as parameters, and {@link #DEFAULT_BLOCK_SIZE} (12 pixels, a 12 × 12 block covering
 * 14 % of a 32 × 32 image) with a black fill (0) is this project's choice.
 *
 * <p>An image is one sample, a column of the d × n data matrix with {@code d = width · height}
 * pixels. Pixel (r, s) of an image is feature {@code s · height + r} (column-major, the
 * MATLAB layout of the benchmark files); for a square block at a uniformly random position the
 * layout does not change which pixel sets can be occluded.
 *
 * <p>Deterministic for a seed: exactly {@code round(fraction · n)} distinct images are occluded.
 */
public final class Occlusion {

  /** Side of the occluding square, in pixels, when none is given. */
  public static final int DEFAULT_BLOCK_SIZE = 12;

  private final int width;
  private final int height;
  private final int blockSize;
  private final double fillValue;

  /**
   * @param width image width in pixels
   * @param height image height in pixels
   * @param blockSize side of the occluding square, 1..min(width, height)
   * @param fillValue the value written into the block
   */
  public Occlusion(int width, int height, int blockSize, double fillValue) {
    if (width < 1 || height < 1) {
      throw new IllegalArgumentException("image size must be positive, got " + width + " x "
          + height);
    }
    if (blockSize < 1 || blockSize > Math.min(width, height)) {
      throw new IllegalArgumentException("blockSize must be in [1, " + Math.min(width, height)
          + "], got " + blockSize);
    }
    if (!Double.isFinite(fillValue)) {
      throw new IllegalArgumentException("fillValue must be finite, got " + fillValue);
    }
    this.width = width;
    this.height = height;
    this.blockSize = blockSize;
    this.fillValue = fillValue;
  }

  /** The occluded data and which images were hit. */
  public static final class Result {
    private final DenseMatrix data;
    private final int[] occluded;

    Result(DenseMatrix data, int[] occluded) {
      this.data = data;
      this.occluded = occluded;
    }

    /** A copy of the input with the blocks written in (d × n). */
    public DenseMatrix data() {
      return data;
    }

    /** Indices of the occluded images, ascending. */
    public int[] occluded() {
      return occluded.clone();
    }
  }

  /**
   * Occludes {@code round(fraction · n)} images of {@code images} (d × n, one image per
   * column), chosen uniformly without replacement, each with one block at a uniformly random
   * position. The input is not modified.
   */
  public Result apply(DenseMatrix images, double fraction, long seed) {
    if (images.rows() != width * height) {
      throw new IllegalArgumentException("images have " + images.rows() + " pixels, expected "
          + width + " x " + height + " = " + (width * height));
    }
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException("fraction must be in [0, 1], got " + fraction);
    }
    int n = images.cols();
    int count = (int) Math.round(fraction * n);
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] order = PlantedClusters.choose(n, count, rnd);
    DenseMatrix out = images.copy();
    double[] v = out.data();
    int d = images.rows();
    for (int p = 0; p < count; p++) {
      int image = order[p];
      int top = rnd.nextInt(height - blockSize + 1);
      int left = rnd.nextInt(width - blockSize + 1);
      for (int s = left; s < left + blockSize; s++) {
        int base = image * d + s * height;
        Arrays.fill(v, base + top, base + top + blockSize, fillValue);
      }
    }
    int[] hit = Arrays.copyOf(order, count);
    Arrays.sort(hit);
    return new Result(out, hit);
  }
}
