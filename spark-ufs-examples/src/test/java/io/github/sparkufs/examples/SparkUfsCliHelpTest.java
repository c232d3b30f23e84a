package io.github.sparkufs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every command's {@code --help} lists exactly the options the command accepts (its picocli
 * {@link CommandSpec}), each once, in the order of their names.
 */
class SparkUfsCliHelpTest {

  /** An option row of the help: {@code "  -h, --help ..."} or {@code "      --data FILE ..."}. */
  private static final Pattern OPTION_ROW =
      Pattern.compile("^(?: {2}(-\\w), | {6})(--[\\w-]+)\\s");

  /** No command: the usage on stderr and status 2; asked for, on stdout and status 0. */
  @Test
  void theUsageIsAnErrorOnlyWhenNoCommandIsGiven() {
    SparkUfsCliTest.Run none = new SparkUfsCliTest.Run();
    assertEquals(2, none.status);
    assertTrue(none.err.contains("Usage: spark-ufs [-h] [COMMAND]"), none.err);
    assertEquals("", none.out);
    for (String[] args : new String[][] {{"--help"}, {"help"}, {"help", "bench"}}) {
      SparkUfsCliTest.Run help = new SparkUfsCliTest.Run(args);
      assertEquals(0, help.status, help.err);
      assertTrue(help.out.contains("Usage: spark-ufs "), help.out);
      assertEquals("", help.err);
    }
  }

  static Stream<String> commands() {
    return SparkUfsCli.commandLine().getSubcommands().keySet().stream();
  }

  @ParameterizedTest
  @MethodSource("commands")
  void helpListsExactlyTheAcceptedOptions(String command) {
    CommandSpec spec = SparkUfsCli.commandLine().getSubcommands().get(command).getCommandSpec();
    List<String> accepted = spec.options().stream().map(OptionSpec::names).flatMap(Arrays::stream)
        .sorted().toList();

    SparkUfsCliTest.Run help = new SparkUfsCliTest.Run(command, "--help");
    assertEquals(0, help.status, help.err);
    List<String> rows = new ArrayList<>();
    List<String> listed = new ArrayList<>();
    for (String line : help.out.lines().toList()) {
      Matcher row = OPTION_ROW.matcher(line);
      if (row.find()) {
        rows.add(row.group(2));
        if (row.group(1) != null) {
          listed.add(row.group(1));
        }
        listed.add(row.group(2));
      }
    }
    assertFalse(rows.isEmpty(), command + " --help lists no option:\n" + help.out);
    assertEquals(accepted, listed.stream().sorted().toList(), command + " --help:\n" + help.out);
    assertEquals(rows.stream().sorted(Comparator.comparing(n -> n.replace("-", ""))).toList(),
        rows, command + " --help lists its options out of order");
  }
}
