package io.github.sparkufs.ml;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The spark-ufs version, from the {@code version.properties} the build writes. */
final class LibraryVersion {

  static final String VALUE = read();

  private LibraryVersion() {}

  private static String read() {
    try (InputStream in = LibraryVersion.class.getResourceAsStream(
        "/io/github/sparkufs/version.properties")) {
      if (in == null) {
        throw new IllegalStateException("io/github/sparkufs/version.properties is missing from "
            + "the spark-ufs jar");
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
