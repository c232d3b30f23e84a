package io.github.sparkufs.examples;

/**
 * The positional arguments of a timing main (not a CLI command), checked against its usage,
 * e.g. {@code "N [REPEATS]"}: the names in brackets may be left off, from the last one on.
 */
final class TimingArguments {

  private final String[] args;

  private TimingArguments(String[] args) {
    this.args = args;
  }

  /** The arguments, if their count fits the usage's names. */
  static TimingArguments of(String[] args, String usage) {
    String[] names = usage.split(" ");
    int required = 0;
    for (String name : names) {
      required += name.startsWith("[") ? 0 : 1;
    }
    if (args.length < required || args.length > names.length) {
      throw new IllegalArgumentException("arguments: " + usage + ", got " + args.length
          + " arguments");
    }
    return new TimingArguments(args);
  }

  /** Argument i. */
  String get(int i) {
    return args[i];
  }

  /** Argument i as an integer. */
  int integer(int i) {
    return Integer.parseInt(args[i]);
  }

  /** Argument i as an integer, or {@code fallback} when it was left off. */
  int integer(int i, int fallback) {
    return i < args.length ? integer(i) : fallback;
  }
}
