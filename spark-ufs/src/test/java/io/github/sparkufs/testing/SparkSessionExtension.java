package io.github.sparkufs.testing;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that gives test classes a local SparkSession ({@code local[2]}, no UI,
 * quiet logs) as a parameter of their methods or constructors. Starting a session costs about
 * five seconds, so one session serves every class of a test JVM; it is stopped when the JVM's
 * tests are done.
 */
public final class SparkSessionExtension implements BeforeAllCallback, ParameterResolver {

  private static final String KEY = "spark-ufs-session";

  @Override
  public void beforeAll(ExtensionContext context) {
    session(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == SparkSession.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return session(context);
  }

  private static SparkSession session(ExtensionContext context) {
    ExtensionContext.Store store = context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL);
    return store.getOrComputeIfAbsent(KEY, k -> new Session(), Session.class).spark;
  }

  /** The shared session, stopped when JUnit closes the root store. */
  private static final class Session implements ExtensionContext.Store.CloseableResource {
    final SparkSession spark = SparkSession.builder()
        .appName("spark-ufs tests")
        .master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.default.parallelism", "2")
        // As conf/spark-defaults.conf, which the CLI and spark-submit use: what goes through
        // Spark must survive Kryo (which cannot build records, for one).
        .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
        .getOrCreate();

    @Override
    public void close() {
      spark.stop();
    }
  }
}
