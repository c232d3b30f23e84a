package io.github.sparkufs.solver;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The one declaration of a method param: its name, value type, default, valid values, meaning
 * and the paper equation it belongs to. A solver declares its params as constants and lists
 * them in its {@code PARAMS}; it reads their values from a {@link MethodOptions}. The Spark
 * params with their getters and setters, the CLI's {@code --param} parsing and the tables of
 * {@code docs/params.md} are all derived from these declarations.
 *
 * <p>A value has an external form, the one Spark params, the CLI and saved models hold: the
 * value itself, except that an enum value is its lower-case name.
 *
 * @param <T> Integer, Long, Double, Boolean, String (one of {@link #choices()}) or an enum
 */
public final class ParamSpec<T> implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String name;
  private final Class<T> type;
  private final T defaultValue;
  private final Range range;
  private final List<String> choices;
  private final String equation;
  private final String doc;

  private ParamSpec(String name, Class<T> type, T defaultValue, Range range,
      List<String> choices, String equation, String doc) {
    this.name = name;
    this.type = type;
    this.defaultValue = defaultValue;
    this.range = range;
    this.choices = choices;
    this.equation = equation;
    this.doc = doc;
    if (defaultValue != null) {
      check(defaultValue);
    }
  }

  /**
   * A real-valued param.
   *
   * @param defaultValue the default, or null for none (the user must set it)
   * @param equation the paper equation the param appears in, e.g. "Eq. 10", or "" for none
   */
  public static ParamSpec<Double> real(String name, Double defaultValue, Range range,
      String equation, String doc) {
    return new ParamSpec<>(name, Double.class, defaultValue, range, List.of(), equation, doc);
  }

  /** An int-valued param; see {@link #real}. */
  public static ParamSpec<Integer> integer(String name, Integer defaultValue, Range range,
      String equation, String doc) {
    return new ParamSpec<>(name, Integer.class, defaultValue, range, List.of(), equation, doc);
  }

  /** A long-valued param without bounds (a seed); see {@link #real}. */
  public static ParamSpec<Long> longValue(String name, Long defaultValue, String equation,
      String doc) {
    return new ParamSpec<>(name, Long.class, defaultValue, null, List.of(), equation, doc);
  }

  /** A true/false param; see {@link #real}. */
  public static ParamSpec<Boolean> flag(String name, boolean defaultValue, String equation,
      String doc) {
    return new ParamSpec<>(name, Boolean.class, defaultValue, null, List.of(), equation, doc);
  }

  /** A param that takes one of {@code choices}; see {@link #real}. */
  public static ParamSpec<String> choice(String name, String defaultValue, List<String> choices,
      String equation, String doc) {
    return new ParamSpec<>(name, String.class, defaultValue, null, List.copyOf(choices),
        equation, doc);
  }

  /** A param that takes a constant of {@code E}, externally its lower-case name; see {@link #real}. */
  public static <E extends Enum<E>> ParamSpec<E> choice(String name, E defaultValue,
      String equation, String doc) {
    @SuppressWarnings("unchecked")
    Class<E> type = (Class<E>) defaultValue.getDeclaringClass();
    List<String> names = Arrays.stream(type.getEnumConstants())
        .map(e -> e.name().toLowerCase(Locale.ROOT)).toList();
    return new ParamSpec<>(name, type, defaultValue, null, names, equation, doc);
  }

  public String name() {
    return name;
  }

  /** The value type (Integer, Long, Double, Boolean, String or an enum). */
  public Class<T> type() {
    return type;
  }

  /** The type of the external form: the value type, or String for an enum. */
  public Class<?> externalType() {
    return type.isEnum() ? String.class : type;
  }

  /** The default, or null when the param has none and must be set. */
  public T defaultValue() {
    return defaultValue;
  }

  /** The valid values of a numeric param; null for the others. */
  public Range range() {
    return range;
  }

  /** The valid external values of a choice param; empty for the others. */
  public List<String> choices() {
    return choices;
  }

  /** The paper equation the param belongs to (e.g. "Eq. 10"), or "" for none. */
  public String equation() {
    return equation;
  }

  /** What the param means. */
  public String doc() {
    return doc;
  }

  /** The valid values in words: a range, "one of a, b", "true or false" or "any". */
  public String validValues() {
    if (range != null) {
      return range.toString();
    }
    if (!choices.isEmpty()) {
      return "one of " + String.join(", ", choices);
    }
    return type == Boolean.class ? "true or false" : "any";
  }

  /** Whether {@code value} (in external form) is a valid value of this param. */
  public boolean isValidExternal(Object value) {
    if (value == null || !externalType().isInstance(value)) {
      return false;
    }
    if (range != null) {
      return range.contains(((Number) value).doubleValue());
    }
    return choices.isEmpty() || choices.contains(value);
  }

  /** {@code value}, checked; throws naming the param and the value when it is not valid. */
  public T check(T value) {
    if (value == null || !isValidExternal(toExternal(value))) {
      throw new IllegalArgumentException(name + " must be " + validValues() + ", got " + value);
    }
    return value;
  }

  /** The external form of {@code value}. */
  public Object toExternal(T value) {
    return value instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT) : value;
  }

  /** The value of an external form, checked. */
  public T fromExternal(Object external) {
    if (!isValidExternal(external)) {
      throw new IllegalArgumentException(name + " must be " + validValues() + ", got "
          + external);
    }
    if (type.isEnum()) {
      return type.getEnumConstants()[choices.indexOf(external)];
    }
    return type.cast(external);
  }

  /** The external form written as {@code text}, e.g. on a command line; checked. */
  public Object parseExternal(String text) {
    Object value = text;
    try {
      if (type == Integer.class) {
        value = Integer.parseInt(text);
      } else if (type == Long.class) {
        value = Long.parseLong(text);
      } else if (type == Double.class) {
        value = Double.parseDouble(text);
      } else if (type == Boolean.class && (text.equals("true") || text.equals("false"))) {
        value = Boolean.parseBoolean(text);
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " takes " + (type == Double.class ? "a number"
          : "a whole number") + ", got '" + text + "'");
    }
    fromExternal(value);
    return value;
  }

  @Override
  public String toString() {
    return name;
  }
}
