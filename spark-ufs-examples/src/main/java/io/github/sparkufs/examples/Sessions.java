package io.github.sparkufs.examples;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * The CLI's SparkSession. Under spark-submit the master and conf come from spark-submit; when
 * run directly ({@code bin/spark-ufs}) the master is {@code --master} (default local[*]) and
 * {@code $SPARK_CONF_DIR/spark-defaults.conf} is read, as spark-submit would. A local master
 * starts lean: the web UI off and one shuffle partition per core, unless the conf sets them.
 */
final class Sessions {

  private Sessions() {}

  static SparkSession create(String appName, String master) {
    SparkConf conf = new SparkConf();
    String confDir = System.getenv("SPARK_CONF_DIR");
    if (confDir != null) {
      Path defaults = Path.of(confDir, "spark-defaults.conf");
      if (Files.isRegularFile(defaults)) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(defaults, StandardCharsets.UTF_8)) {
          p.load(r);
        } catch (IOException e) {
          throw new UsageException("cannot read " + defaults + ": " + e.getMessage());
        }
        for (String key : p.stringPropertyNames()) {
          if (!conf.contains(key)) {
            conf.set(key, p.getProperty(key).trim());
          }
        }
      }
    }
    if (!conf.contains("spark.master")) {
      conf.setMaster(master);
    }
    if (conf.get("spark.master").startsWith("local")) {
      // A local run is one process on this machine: no web UI to start, and as many shuffle
      // partitions as cores (spark-defaults.conf may set either otherwise).
      conf.setIfMissing("spark.ui.enabled", "false");
      conf.setIfMissing("spark.sql.shuffle.partitions",
          String.valueOf(Runtime.getRuntime().availableProcessors()));
    }
    conf.setAppName(appName);
    return SparkSession.builder().config(conf).getOrCreate();
  }
}
