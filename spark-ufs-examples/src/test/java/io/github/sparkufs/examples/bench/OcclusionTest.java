package io.github.sparkufs.examples.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.linalg.DenseMatrix;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OcclusionTest {

  private static DenseMatrix images(int d, int n) {
    SplittableRandom rnd = new SplittableRandom(3);
    DenseMatrix m = new DenseMatrix(d, n);
    for (int i = 0; i < m.data().length; i++) {
      m.data()[i] = 1 + rnd.nextDouble() * 200;
    }
    return m;
  }

  @Test
  void occludesTheGivenFractionWithOneSquareEach() {
    int w = 32;
    int h = 32;
    int size = 12;
    DenseMatrix x = images(w * h, 400);
    DenseMatrix before = x.copy();
    Occlusion.Result r = new Occlusion(w, h, size, 0.0).apply(x, 0.3, 42L);
    assertArrayEquals(before.data(), x.data(), "input modified");
    int[] hit = r.occluded();
    assertEquals(120, hit.length);
    assertEquals(120, Arrays.stream(hit).distinct().count());
    boolean[] isHit = new boolean[400];
    for (int i : hit) {
      isHit[i] = true;
    }
    DenseMatrix out = r.data();
    for (int i = 0; i < 400; i++) {
      int minR = h;
      int maxR = -1;
      int minS = w;
      int maxS = -1;
      int changed = 0;
      for (int s = 0; s < w; s++) {
        for (int row = 0; row < h; row++) {
          int f = s * h + row;
          if (out.get(f, i) != x.get(f, i)) {
            assertEquals(0.0, out.get(f, i));
            changed++;
            minR = Math.min(minR, row);
            maxR = Math.max(maxR, row);
            minS = Math.min(minS, s);
            maxS = Math.max(maxS, s);
          }
        }
      }
      if (isHit[i]) {
        assertEquals(size * size, changed, "image " + i);
        assertEquals(size - 1, maxR - minR);
        assertEquals(size - 1, maxS - minS);
      } else {
        assertEquals(0, changed, "image " + i + " was not chosen but changed");
      }
    }
  }

  @Test
  void deterministicPerSeedAndVariesAcrossSeeds() {
    DenseMatrix x = images(16 * 8, 50);
    Occlusion o = new Occlusion(16, 8, 5, -1.0);
    Occlusion.Result a = o.apply(x, 0.2, 7L);
    Occlusion.Result b = o.apply(x, 0.2, 7L);
    Occlusion.Result c = o.apply(x, 0.2, 8L);
    assertArrayEquals(a.occluded(), b.occluded());
    assertArrayEquals(a.data().data(), b.data().data());
    assertFalse(Arrays.equals(a.data().data(), c.data().data()));
    assertEquals(10, a.occluded().length);
  }

  @Test
  void blockPositionsCoverTheImage() {
    // Over many draws every corner position is reachable: the top-left and bottom-right pixels
    // both get occluded at some point.
    int w = 10;
    int h = 10;
    DenseMatrix x = images(w * h, 300);
    DenseMatrix out = new Occlusion(w, h, 3, 0.0).apply(x, 1.0, 1L).data();
    boolean topLeft = false;
    boolean bottomRight = false;
    for (int i = 0; i < 300; i++) {
      topLeft |= out.get(0, i) == 0.0;
      bottomRight |= out.get(w * h - 1, i) == 0.0;
    }
    assertTrue(topLeft && bottomRight);
  }

  @Test
  void rejectsBadArguments() {
    assertThrows(IllegalArgumentException.class, () -> new Occlusion(32, 32, 33, 0));
    assertThrows(IllegalArgumentException.class, () -> new Occlusion(0, 32, 4, 0));
    assertThrows(IllegalArgumentException.class, () -> new Occlusion(32, 32, 4, Double.NaN));
    Occlusion o = new Occlusion(4, 4, 2, 0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> o.apply(images(16, 5), 1.5, 1L));
    assertTrue(e.getMessage().contains("1.5"));
    assertThrows(IllegalArgumentException.class, () -> o.apply(images(15, 5), 0.5, 1L));
  }
}
