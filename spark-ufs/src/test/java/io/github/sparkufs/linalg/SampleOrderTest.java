package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkufs.testing.TestData;
import org.junit.jupiter.api.Test;

class SampleOrderTest {

  /** Sample {@code (step · p + 3) mod n} at position p: a permutation when gcd(step, n) = 1. */
  private static SampleOrder affine(int n, int step) {
    int[] sampleAt = new int[n];
    for (int p = 0; p < n; p++) {
      sampleAt[p] = (step * p + 3) % n;
    }
    return SampleOrder.of(sampleAt);
  }

  @Test
  void theProductInTheOrderIsTheProductReordered() {
    int n = 60;
    SampleOrder order = affine(n, 7);
    SparseRowMatrix a = SparseRowMatrix.fromDense(SparseRowMatrixTest.sparseRandom(n, n, 0.1, 2));
    DenseMatrix v = TestData.uniform(3, n, 3);
    DenseMatrix inOrder = order.permute(a).multiply(order.toOrder(v));
    assertArrayEquals(order.toOrder(a.multiply(v)).data(), inOrder.data(), 1e-15);
    assertArrayEquals(a.multiply(v).data(), order.fromOrder(inOrder).data(), 1e-15);
    assertEquals(a.numEntries(), order.permute(a).numEntries());
  }

  @Test
  void fromOrderUndoesToOrder() {
    int n = 25;
    SampleOrder order = affine(n, 11);
    DenseMatrix v = TestData.uniform(4, n, 5);
    assertArrayEquals(v.data(), order.fromOrder(order.toOrder(v)).data(), 0);
    double[] values = TestData.uniform(1, n, 6).data();
    double[] ordered = order.toOrder(new DenseMatrix(1, n, values.clone())).data();
    assertArrayEquals(values, order.fromOrder(ordered), 0);
  }

  @Test
  void rejectsWhatIsNotAPermutation() {
    IllegalArgumentException repeated =
        assertThrows(IllegalArgumentException.class, () -> SampleOrder.of(new int[] {0, 2, 2}));
    assertTrue(repeated.getMessage().contains("sample 2 at position 2"), repeated.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SampleOrder.of(new int[] {0, 3, 1}));
    SampleOrder order = SampleOrder.of(new int[] {1, 0});
    assertThrows(IllegalArgumentException.class, () -> order.toOrder(new DenseMatrix(2, 3)));
    assertThrows(IllegalArgumentException.class,
        () -> order.permute(SparseRowMatrix.fromDense(new DenseMatrix(3, 3))));
  }
}
