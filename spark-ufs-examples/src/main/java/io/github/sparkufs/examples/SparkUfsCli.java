package io.github.sparkufs.examples;

import io.github.sparkufs.ml.Selectors;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * The spark-ufs command-line tool: {@code demo}, {@code select}, {@code bench},
 * {@code occlusion}, {@code scale}, {@code knn} and {@code recall}, each with its own
 * {@code --help}. Mistakes in the command line or the input are reported in one line on stderr
 * with exit status 2; other failures in one line with status 1. {@code generate-completion}
 * prints a bash/zsh completion script ({@code source <(bin/spark-ufs generate-completion)}).
 */
@Command(name = "spark-ufs",
    header = "Unsupervised feature selection on Spark: run a method, benchmark it, measure"
        + " how it scales.",
    subcommands = {DemoCommand.class, SelectCommand.class, BenchCommand.class,
        OcclusionCommand.class, ScaleCommand.class, KnnCommand.class, RecallCommand.class,
        StabilityCommand.class, CompareCommand.class,
        HelpCommand.class, AutoComplete.GenerateCompletion.class})
public final class SparkUfsCli implements Callable<Integer> {

  /** A command line that uses the tool wrongly. */
  static final int USAGE_ERROR = CommandLine.ExitCode.USAGE;

  /** Any other failure. */
  static final int FAILURE = CommandLine.ExitCode.SOFTWARE;

  /**
   * What to do when a disk filled up: Spark writes the blocks it spills and its shuffle files to
   * its local directories, and a fit's checkpoint to the checkpoint directory (a 10⁷ × 100 fit
   * needs tens of GB there).
   */
  private static final String DISK_FULL_ADVICE = " (Spark writes the blocks it spills and its"
      + " shuffle files to its local directories, spark.local.dir or SPARK_LOCAL_DIRS, /tmp by"
      + " default, and checkpoints to spark.checkpoint.dir: free space there or point them at a"
      + " larger disk, e.g. SPARK_LOCAL_DIRS=/data/spark-tmp, or turn the checkpoint off with"
      + " --param checkpointInterval=-1)";

  @Spec
  CommandSpec spec;

  @Mixin
  SharedOptions.Help help;

  private SparkUfsCli() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs a command; returns the exit status once everything the command printed has reached
   * {@code out} and {@code err} (auto-flush covers println and printf, not print).
   */
  static int run(String[] args, PrintStream out, PrintStream err) {
    return run(commandLine(), args, out, err);
  }

  /**
   * Runs {@code cli}'s command as {@link #run(String[], PrintStream, PrintStream)} does. The
   * driver running out of heap in its own thread (an eigensolver's n-row blocks, say) throws an
   * Error past picocli's exception handler, which sees only exceptions (a task's comes wrapped
   * in one, {@link #failure}): it gets the same one-line report.
   */
  static int run(CommandLine cli, String[] args, PrintStream out, PrintStream err) {
    PrintWriter outWriter = new PrintWriter(out, true);
    PrintWriter errWriter = new PrintWriter(err, true);
    try {
      return cli.setOut(outWriter).setErr(errWriter).execute(args);
    } catch (OutOfMemoryError e) {
      errWriter.println(report(e));
      return FAILURE;
    } finally {
      outWriter.flush();
      errWriter.flush();
    }
  }

  /** The tool's commands, with its one-line error reports. */
  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new SparkUfsCli());
    cli.getCommandSpec().usageMessage().footer("", "Methods: "
        + String.join(", ", Selectors.names()) + ". 'spark-ufs COMMAND --help' shows a"
        + " command's options.");
    return cli.setSeparator(" ")
        .setParameterExceptionHandler((e, args) -> usageError(e))
        .setExecutionExceptionHandler(SparkUfsCli::failure);
  }

  /** No command: the usage, on stderr. */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return USAGE_ERROR;
  }

  private static int usageError(ParameterException e) {
    CommandLine command = e.getCommandLine();
    String message = e.getMessage();
    if (e instanceof UnmatchedArgumentException unmatched && !command.getSubcommands().isEmpty()
        && !unmatched.getUnmatched().get(0).startsWith("-")) {
      message = "unknown command '" + unmatched.getUnmatched().get(0) + "'; try "
          + command.getSubcommands().values().stream()
              .filter(c -> !c.getCommandSpec().usageMessage().hidden())
              .map(CommandLine::getCommandName).distinct().collect(Collectors.joining(", "));
    }
    command.getErr().println("spark-ufs: " + message + " (see '"
        + command.getCommandSpec().qualifiedName() + " --help')");
    return USAGE_ERROR;
  }

  static int failure(Exception e, CommandLine command, ParseResult parsed) {
    if (e instanceof UsageException || e instanceof IllegalArgumentException) {
      command.getErr().println("spark-ufs: " + e.getMessage());
      return USAGE_ERROR;
    }
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    command.getErr().println(report(root));
    return FAILURE;
  }

  /**
   * The one line that reports a failure's root cause, with advice for a heap too small or a
   * disk full.
   */
  private static String report(Throwable root) {
    String advice = "";
    if (root instanceof OutOfMemoryError) {
      advice = outOfMemoryAdvice();
    } else if (root instanceof IOException && root.getMessage() != null
        && root.getMessage().contains("No space left on device")) {
      advice = DISK_FULL_ADVICE;
    }
    return "spark-ufs: " + root.getClass().getSimpleName() + ": " + root.getMessage() + advice;
  }

  /**
   * What to do when the JVM ran out of heap: in local mode the executors' tasks and the blocks
   * Spark keeps in memory share the driver's heap, and each task holds one whole block of rows.
   */
  private static String outOfMemoryAdvice() {
    return String.format(Locale.ROOT, " (the JVM's heap is %d MB: raise it with"
        + " SPARK_UFS_DRIVER_MEMORY, e.g. SPARK_UFS_DRIVER_MEMORY=16g, or spark-submit's"
        + " --driver-memory; or split the rows into more partitions, so that each block a task"
        + " holds is smaller)", Runtime.getRuntime().maxMemory() / (1024 * 1024));
  }
}
