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
    SparkConf conf = conf(master);
    if (isLocalMaster(conf.get("spark.master"))) {
      // A local run is one process on this machine: no web UI to start, and as many shuffle
      // partitions as cores (spark-defaults.conf may set either otherwise).
      conf.setIfMissing("spark.ui.enabled", "false");
      conf.setIfMissing("spark.sql.shuffle.partitions",
          String.valueOf(Runtime.getRuntime().availableProcessors()));
    }
    conf.setAppName(appName);
    return SparkSession.builder().config(conf).getOrCreate();
  }

  /**
   * Whether the session {@link #create} would start with this {@code --master} runs locally,
   * found without Spark: spark-submit's master (a system property), else the defaults', else
   * {@code master}.
   */
  static boolean isLocal(String master) {
    String defaultMaster = defaults().getProperty("spark.master");
    return isLocalMaster(System.getProperty("spark.master",
        defaultMaster == null ? master : defaultMaster.trim()));
  }

  private static boolean isLocalMaster(String master) {
    return master.startsWith("local");
  }

  /** spark-submit's conf, else spark-defaults.conf's with {@code master} unless it names one. */
  private static SparkConf conf(String master) {
    SparkConf conf = new SparkConf();
    Properties defaults = defaults();
    for (String key : defaults.stringPropertyNames()) {
      if (!conf.contains(key)) {
        conf.set(key, defaults.getProperty(key).trim());
      }
    }
    if (!conf.contains("spark.master")) {
      conf.setMaster(master);
    }
    return conf;
  }

  /** {@code $SPARK_CONF_DIR/spark-defaults.conf}; empty when there is none. */
  private static Properties defaults() {
    Properties defaults = new Properties();
    String confDir = System.getenv("SPARK_CONF_DIR");
    Path file = confDir == null ? null : Path.of(confDir, "spark-defaults.conf");
    if (file != null && Files.isRegularFile(file)) {
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        defaults.load(r);
      } catch (IOException e) {
        throw new UsageException("cannot read " + file + ": " + e.getMessage());
      }
    }
    return defaults;
  }
}
