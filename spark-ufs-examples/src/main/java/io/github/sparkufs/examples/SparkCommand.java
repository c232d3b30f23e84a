package io.github.sparkufs.examples;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command of the tool: it runs in a Spark session ({@code --master}) and prints to the command
 * line's output. Success is status 0; failures are thrown and {@link SparkUfsCli} maps them to a
 * status.
 */
abstract class SparkCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  SharedOptions.Help help;

  @Mixin
  SharedOptions.Master master;

  /** Runs the command, printing to {@code out}. */
  abstract void run(PrintWriter out) throws Exception;

  @Override
  public final Integer call() throws Exception {
    run(spec.commandLine().getOut());
    return 0;
  }

  /** A session named {@code spark-ufs <command> <detail>}. */
  SparkSession session(String detail) {
    return master.session(spec.qualifiedName() + (detail.isEmpty() ? "" : " " + detail));
  }
}
