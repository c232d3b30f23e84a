package io.github.sparkufs.solver;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of a method's params, by their {@link ParamSpec}s: what a solver is constructed
 * from, so that every value is named where it is given, e.g.
 * {@code new NdfsSolver(MethodOptions.of(NdfsSolver.PARAMS).with(NUM_CLUSTERS, 4).with(ALPHA, 2.0))}.
 * Immutable; each value is checked against its declaration when given.
 */
public final class MethodOptions {

  private final List<ParamSpec<?>> declared;
  private final Map<ParamSpec<?>, Object> values;
  private final IterativeFit.Listener listener;

  private MethodOptions(List<ParamSpec<?>> declared, Map<ParamSpec<?>, Object> values,
      IterativeFit.Listener listener) {
    this.declared = declared;
    this.values = values;
    this.listener = listener;
  }

  /** The options of a method that declares {@code params}, each at its default. */
  public static MethodOptions of(List<ParamSpec<?>> params) {
    return new MethodOptions(List.copyOf(params), Map.of(), null);
  }

  /** The declared params. */
  public List<ParamSpec<?>> declared() {
    return declared;
  }

  /** These options with {@code param} set to {@code value} (checked). */
  public <T> MethodOptions with(ParamSpec<T> param, T value) {
    requireDeclared(param);
    Map<ParamSpec<?>, Object> copy = new HashMap<>(values);
    copy.put(param, param.check(value));
    return new MethodOptions(declared, copy, listener);
  }

  /** These options, with {@code listener} told of every iteration of an iterative method. */
  public MethodOptions withListener(IterativeFit.Listener listener) {
    return new MethodOptions(declared, values, listener);
  }

  /** Told of every iteration by {@link IterativeFit}; null for none. */
  public IterativeFit.Listener listener() {
    return listener;
  }

  /** The value of {@code param}: the one given, else its default. */
  public <T> T get(ParamSpec<T> param) {
    requireDeclared(param);
    Object value = values.getOrDefault(param, param.defaultValue());
    if (value == null) {
      throw new IllegalArgumentException(param.name() + " has no default and was not given");
    }
    return param.type().cast(value);
  }

  /** The params every method may share, read from these options. */
  public CommonOptions common() {
    return new CommonOptions(this);
  }

  private void requireDeclared(ParamSpec<?> param) {
    if (!declared.contains(param)) {
      throw new IllegalArgumentException("param " + param.name() + " is not one of this "
          + "method's: " + declared);
    }
  }
}
