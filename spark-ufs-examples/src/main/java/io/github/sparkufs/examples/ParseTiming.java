package io.github.sparkufs.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Times {@link LabeledData.LibsvmLine#parse} on every line of a LIBSVM file, without Spark:
 * the lines are read into memory first (gzip allowed), then parsed {@code passes} times,
 * printing one CSV line per pass with its wall seconds and the CPU seconds of the parsing
 * thread. The first pass runs in a fresh JVM, as the command line's one pass over its input
 * does. Not a CLI command: run its main with the command line's JVM flags
 * ({@code target/launcher/jvm.options} and the C2 thresholds of {@code bin/spark-ufs}).
 * Arguments: FILE NUM_FEATURES [PASSES, default 2].
 */
final class ParseTiming {

  private ParseTiming() {}

  public static void main(String[] args) throws IOException {
    TimingArguments arguments = TimingArguments.of(args, "FILE NUM_FEATURES [PASSES]");
    Path file = Path.of(arguments.get(0));
    int numFeatures = arguments.integer(1);
    int passes = arguments.integer(2, 2);
    List<String> lines = lines(file);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    System.out.println("pass,rows,wall_seconds,cpu_seconds");
    for (int pass = 1; pass <= passes; pass++) {
      long wall = System.nanoTime();
      long cpu = threads.getCurrentThreadCpuTime();
      long rows = 0;
      for (int i = 0; i < lines.size(); i++) {
        rows += LabeledData.LibsvmLine.parse(lines.get(i), i + 1, numFeatures).scan.rows;
      }
      System.out.printf("%d,%d,%.3f,%.3f%n", pass, rows, (System.nanoTime() - wall) / 1e9,
          (threads.getCurrentThreadCpuTime() - cpu) / 1e9);
    }
  }

  private static List<String> lines(Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
        BufferedReader reader = new BufferedReader(
            new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lines.add(line);
      }
    }
    return lines;
  }
}
