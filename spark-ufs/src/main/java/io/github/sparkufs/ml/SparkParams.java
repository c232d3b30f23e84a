package io.github.sparkufs.ml;

import io.github.sparkufs.solver.ParamSpec;
import java.io.Serializable;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import scala.Function1;

/** The Spark param of a {@link ParamSpec}: its name, its doc with the valid values, its check. */
final class SparkParams {

  private SparkParams() {}

  @SuppressWarnings("unchecked")
  static Param<Object> create(String uid, ParamSpec<?> spec) {
    String valid = spec.validValues().equals("any") ? "" : spec.validValues();
    String sep = valid.isEmpty() || spec.equation().isEmpty() ? "" : "; ";
    String note = valid + sep + spec.equation();
    String doc = spec.doc() + (note.isEmpty() ? "" : " (" + note + ")");
    Function1<Object, Object> isValid =
        (Function1<Object, Object> & Serializable) spec::isValidExternal;
    Class<?> type = spec.externalType();
    if (type == Double.class) {
      return new DoubleParam(uid, spec.name(), doc, isValid);
    } else if (type == Integer.class) {
      return new IntParam(uid, spec.name(), doc, isValid);
    } else if (type == Long.class) {
      return new LongParam(uid, spec.name(), doc, isValid);
    } else if (type == Boolean.class) {
      return new BooleanParam(uid, spec.name(), doc);
    }
    Function1<String, Object> isValidText =
        (Function1<String, Object> & Serializable) spec::isValidExternal;
    return (Param<Object>) (Param<?>) new Param<String>(uid, spec.name(), doc, isValidText);
  }
}
