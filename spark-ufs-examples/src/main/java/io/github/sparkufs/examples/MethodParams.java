package io.github.sparkufs.examples;

import io.github.sparkufs.ml.UnsupervisedSelector;
import io.github.sparkufs.solver.ParamSpec;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.Param;

/** Sets a selector's params from {@code --param key=value} text, by each param's type. */
final class MethodParams {

  private MethodParams() {}

  static void apply(UnsupervisedSelector<?> selector, Map<String, String> params) {
    params.forEach((key, text) -> apply(selector, key, text));
  }

  /**
   * The params of a command that fits several methods: {@code key} applies to every method,
   * {@code method.key} only to that method (e.g. {@code rsfs.gamma=0.5}).
   */
  static void applyScoped(UnsupervisedSelector<?> selector, String method,
      Map<String, String> params) {
    params.forEach((key, text) -> {
      int dot = key.indexOf('.');
      if (dot < 0) {
        apply(selector, key, text);
      } else if (key.substring(0, dot).equals(method)) {
        apply(selector, key.substring(dot + 1), text);
      }
    });
  }

  /**
   * Sets one param from its text: a param the method declares is parsed and checked by its
   * declaration ({@link ParamSpec#parseExternal}); the column and selection params by type.
   */
  static void apply(UnsupervisedSelector<?> selector, String key, String text) {
    if (!selector.hasParam(key)) {
      throw new UsageException("unknown parameter '" + key + "' for method "
          + selector.methodName() + "; known: " + Arrays.stream(selector.params())
              .map(Param::name).sorted().collect(Collectors.joining(", ")));
    }
    Param<Object> param = selector.getParam(key);
    Optional<ParamSpec<?>> spec = selector.declaredParams().stream()
        .filter(p -> p.name().equals(key)).findFirst();
    try {
      Object value = spec.isPresent() ? spec.get().parseExternal(text)
          : param instanceof DoubleParam ? (Object) Double.parseDouble(text) : text;
      selector.set(param, value);
    } catch (IllegalArgumentException e) {
      throw new UsageException("parameter " + key + " of " + selector.methodName() + ": "
          + e.getMessage());
    }
  }
}
