package io.github.sparkufs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputFilesTest {

  @Test
  void aFailedWriteLeavesThePreviousOutputAndNothingElse(@TempDir Path dir) throws IOException {
    Path report = dir.resolve("report");
    OutputFiles.replace(report, d -> {
      Files.createDirectories(d);
      Files.writeString(d.resolve("index.html"), "first");
    });
    IOException failure = assertThrows(IOException.class, () -> OutputFiles.replace(report, d -> {
      Files.createDirectories(d);
      Files.writeString(d.resolve("index.html"), "half");
      throw new IOException("disk full");
    }));
    assertEquals("disk full", failure.getMessage());
    assertEquals("first", Files.readString(report.resolve("index.html")));
    assertEquals(List.of("report"), names(dir));
  }

  @Test
  void aSuccessfulWriteReplacesTheWholeOutput(@TempDir Path dir) throws IOException {
    Path report = dir.resolve("report");
    OutputFiles.replace(report, d -> {
      Files.createDirectories(d);
      Files.writeString(d.resolve("old.png"), "old");
    });
    OutputFiles.replace(report, d -> {
      Files.createDirectories(d);
      Files.writeString(d.resolve("index.html"), "second");
    });
    assertEquals(List.of("index.html"), names(report));
    Path json = dir.resolve("bench.json");
    OutputFiles.replace(json, f -> Files.writeString(f, "{}"));
    assertEquals("{}", Files.readString(json));
    assertEquals(List.of("bench.json", "report"), names(dir));
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
