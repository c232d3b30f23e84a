package io.github.sparkufs.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResourceScopeTest {

  private final List<String> released = new ArrayList<>();

  private Releasable named(String name) {
    return () -> released.add(name);
  }

  @Test
  void closingReleasesLastKeptFirst() {
    try (ResourceScope scope = new ResourceScope()) {
      scope.keep(named("a"));
      scope.keep(named("b"));
    }
    assertEquals(List.of("b", "a"), released);
  }

  @Test
  void replaceReleasesThePreviousValueAtOnceAndKeepsTheNext() {
    try (ResourceScope scope = new ResourceScope()) {
      Releasable first = scope.keep(named("first"));
      Releasable next = named("next");
      assertSame(next, scope.replace(first, next));
      assertEquals(List.of("first"), released);
      assertEquals(1, scope.size());
    }
    assertEquals(List.of("first", "next"), released);
  }

  @Test
  void workThatThrowsStillReleasesEverything() {
    assertThrows(IllegalStateException.class, () -> {
      try (ResourceScope scope = new ResourceScope()) {
        scope.keep(named("a"));
        scope.keep(named("b"));
        throw new IllegalStateException("midway");
      }
    });
    assertEquals(List.of("b", "a"), released);
  }

  @Test
  void aFailedReleaseDoesNotStopTheOthers() {
    ResourceScope scope = new ResourceScope();
    scope.keep(named("a"));
    scope.keep(() -> {
      throw new IllegalStateException("first failure");
    });
    scope.keep(() -> {
      throw new IllegalArgumentException("second failure");
    });
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, scope::close);
    assertEquals("first failure", e.getSuppressed()[0].getMessage());
    assertEquals(List.of("a"), released);
    assertEquals(0, scope.size());
  }
}
