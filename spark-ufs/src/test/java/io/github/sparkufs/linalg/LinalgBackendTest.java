package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/**
 * The suite runs against the BLAS it was asked to: {@code mvn test -Pjava-blas} sets
 * {@code sparkufs.test.blas=java}, so a run meant for the pure-Java fallback cannot pass on
 * native OpenBLAS unnoticed (nor the reverse, where a run sets it to {@code native}).
 */
class LinalgBackendTest {

  @Test
  void runsOnTheRequestedBackend() {
    String requested = System.getProperty("sparkufs.test.blas", "");
    assumeTrue(!requested.isEmpty(), "no backend requested: whichever this machine has");
    assertEquals(requested, LinalgBackend.describe());
  }
}
