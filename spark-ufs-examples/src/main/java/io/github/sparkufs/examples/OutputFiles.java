package io.github.sparkufs.examples;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Output that appears whole or not at all: a command writes into a temporary sibling of the
 * target, which is renamed into place only when the writing succeeded. A failed run leaves
 * the previous output as it was and no half-written one beside it.
 */
final class OutputFiles {

  /** Writes what {@code writer} puts at the path it is given, then moves it to {@code target}. */
  interface Writer {
    void write(Path path) throws IOException;
  }

  private OutputFiles() {}

  static void replace(Path target, Writer writer) throws IOException {
    Path absolute = target.toAbsolutePath();
    Files.createDirectories(absolute.getParent());
    Path tmp = Files.createTempDirectory(absolute.getParent(), "." + absolute.getFileName() + ".")
        .resolve(absolute.getFileName());
    try {
      writer.write(tmp);
      if (Files.isDirectory(absolute) && Files.isDirectory(tmp)) {
        delete(absolute);
      }
      Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      delete(tmp.getParent());
    }
  }

  private static void delete(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        Files.delete(dir);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
