package io.github.sparkufs.ml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.ml.util.DefaultParamsWriter;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.ml.util.ReadWriteUtils;
import org.apache.spark.sql.Row;
import org.json4s.JInt;
import org.json4s.JObject;
import org.json4s.JValue;
import scala.Option;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scala.math.BigInt;

/**
 * Saves and loads {@link UnsupervisedSelectorModel}s. Format version 1:
 * <ul>
 *   <li>{@code path/metadata}: Spark's params metadata (class, uid, Spark version, params)
 *       with {@code "formatVersion": 1}, written on the driver in the layout of Spark's text
 *       source, which Spark's {@code DefaultParamsReader} reads;
 *   <li>{@code path/data/model.json}: {@code method}, {@code largerIsBetter}, {@code scores}
 *       and {@code summary} ({@link SelectorSummary}'s fields by name, the params as
 *       JSON values, {@code featureNames} only when the input column had names, so that a
 *       model saved without them loads with none), written and read on
 *       the driver through the path's Hadoop file system, so that saving needs no Spark job
 *       and works on a driver-local path as Spark Connect uses.
 * </ul>
 * A directory without a format version is format 0 (spark-ufs 0.1.0): the same metadata and
 * one Parquet row under {@code path/data} (method, scores, largerIsBetter, objectiveHistory and
 * a summary map); it loads without a {@link SelectorSummary}. A format newer than this
 * version's is refused, naming it. Non-finite scores are written as the strings "NaN",
 * "Infinity" and "-Infinity".
 */
final class SelectorModelPersistence {

  /** The format this version writes; it reads every format up to this one. */
  static final int FORMAT_VERSION = 1;
  private static final String DATA_FILE = "data/model.json";
  private static final String METADATA = "metadata";
  /** The metadata's file and the marker of a finished write, as Spark's text source names them. */
  private static final String METADATA_PART = "part-00000";
  private static final String SUCCESS_MARKER = "_SUCCESS";

  private SelectorModelPersistence() {}

  static final class Writer extends MLWriter {
    private final UnsupervisedSelectorModel model;

    Writer(UnsupervisedSelectorModel model) {
      this.model = model;
    }

    @Override
    public void saveImpl(String path) {
      saveMetadata(path);
      Path file = new Path(path, DATA_FILE);
      try (OutputStream out = StageReader.fileSystem(file, sparkSession()).create(file)) {
        ObjectNode data = StageReader.JSON.createObjectNode()
            .put("method", model.method())
            .put("largerIsBetter", model.isLargerBetter());
        doubles(data.putArray("scores"), model.scores());
        if (model.hasSummary()) {
          summary(data.putObject("summary"), model.summary());
        }
        StageReader.JSON.writerWithDefaultPrettyPrinter().writeValue(out, data);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write " + file, e);
      }
    }

    /**
     * Spark's params metadata, as {@code DefaultParamsWriter.saveMetadata} writes it but without
     * its Spark job: one line of JSON in {@code path/metadata/part-00000} and a
     * {@code _SUCCESS} marker, the directory Spark's text source writes and
     * {@code DefaultParamsReader.loadMetadata} reads; a driver-local save is left to Spark,
     * which writes the file {@code path/metadata} then.
     */
    private void saveMetadata(String path) {
      Path metadata = new Path(path, METADATA);
      String json = DefaultParamsWriter.getMetadataToSave(model, sparkSession(),
          Option.apply(formatVersion()), Option.empty());
      if ((Boolean) ReadWriteUtils.localSavingModeState().get()) {
        ReadWriteUtils.saveText(metadata.toString(), json, sparkSession());
        return;
      }
      try {
        FileSystem fs = StageReader.fileSystem(metadata, sparkSession());
        try (OutputStream out = fs.create(new Path(metadata, METADATA_PART), false)) {
          out.write((json + "\n").getBytes(StandardCharsets.UTF_8));
        }
        fs.create(new Path(metadata, SUCCESS_MARKER), false).close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write " + metadata, e);
      }
    }

    private static JObject formatVersion() {
      Tuple2<String, JValue> field = new Tuple2<>("formatVersion", new JInt(BigInt.apply(
          FORMAT_VERSION)));
      return new JObject(CollectionConverters.asScala(List.of(field)).toList());
    }

    private static void summary(ObjectNode out, SelectorSummary s) throws IOException {
      out.put("method", s.method())
          .put("numRows", s.numRows())
          .put("numFeatures", s.numFeatures())
          .put("seed", s.seed())
          .put("libraryVersion", s.libraryVersion())
          .put("sparkVersion", s.sparkVersion())
          .put("fitSeconds", s.fitSeconds())
          .put("iterations", s.iterations())
          .put("converged", s.converged());
      ObjectNode params = out.putObject("params");
      for (Map.Entry<String, String> param : s.params().entrySet()) {
        params.set(param.getKey(), StageReader.JSON.readTree(param.getValue()));
      }
      doubles(out.putArray("objectiveHistory"), s.objectiveHistory());
      ArrayNode constant = out.putArray("constantFeatures");
      for (int j : s.constantFeatures()) {
        constant.add(j);
      }
      s.diagnostics().forEach(out.putObject("diagnostics")::put);
      if (!s.featureNames().isEmpty()) {
        s.featureNames().forEach(out.putArray("featureNames")::add);
      }
    }

    private static void doubles(ArrayNode out, double[] values) {
      for (double v : values) {
        out.add(v);
      }
    }
  }

  static final class Reader extends MLReader<UnsupervisedSelectorModel> {
    @Override
    public UnsupervisedSelectorModel load(String path) {
      JsonNode metadata = StageReader.metadata(path, UnsupervisedSelectorModel.class,
          sparkSession());
      int format = metadata.path("formatVersion").asInt(0);
      if (format > FORMAT_VERSION) {
        throw new IllegalArgumentException("Cannot load the " + UnsupervisedSelectorModel.class
            .getName() + " at " + path + ": it was saved in format version " + format + ", and "
            + "spark-ufs " + LibraryVersion.VALUE + " reads format versions 0 to "
            + FORMAT_VERSION + "; load it with a later spark-ufs");
      }
      String uid = metadata.get("uid").asText();
      UnsupervisedSelectorModel model = format == 0 ? loadFormat0(uid, path) : load(uid, path);
      StageReader.setParams(model, metadata);
      return model;
    }

    private UnsupervisedSelectorModel load(String uid, String path) {
      Path file = new Path(path, DATA_FILE);
      JsonNode data;
      try (InputStream in = StageReader.fileSystem(file, sparkSession()).open(file)) {
        data = StageReader.JSON.readTree(in);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + file, e);
      }
      JsonNode s = data.path("summary");
      SelectorSummary summary = s.isMissingNode() ? null : new SelectorSummary(
          s.get("method").asText(), s.get("numRows").asLong(), s.get("numFeatures").asInt(),
          s.get("seed").asLong(), map(s.get("params"), JsonNode::toString),
          s.get("libraryVersion").asText(), s.get("sparkVersion").asText(),
          s.get("fitSeconds").asDouble(), s.get("iterations").asInt(),
          s.get("converged").asBoolean(), doubles(s.get("objectiveHistory")),
          ints(s.get("constantFeatures")),
          map(s.get("diagnostics"), JsonNode::asDouble), strings(s.path("featureNames")));
      return new UnsupervisedSelectorModel(uid, data.get("method").asText(),
          doubles(data.get("scores")), data.get("largerIsBetter").asBoolean(), summary);
    }

    /** Format 0: one Parquet row; its summary map and objective history are not carried. */
    private UnsupervisedSelectorModel loadFormat0(String uid, String path) {
      Row row = sparkSession().read().parquet(path + "/data").first();
      List<Double> scores = row.getList(row.fieldIndex("scores"));
      return new UnsupervisedSelectorModel(uid, row.getString(row.fieldIndex("method")),
          scores.stream().mapToDouble(Double::doubleValue).toArray(),
          row.getBoolean(row.fieldIndex("largerIsBetter")), null);
    }

    private static double[] doubles(JsonNode array) {
      double[] out = new double[array.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = array.get(i).asDouble();
      }
      return out;
    }

    private static int[] ints(JsonNode array) {
      int[] out = new int[array.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = array.get(i).asInt();
      }
      return out;
    }

    /** The strings of an array; none for a missing node (a model saved without names). */
    private static List<String> strings(JsonNode array) {
      List<String> out = new ArrayList<>(array.size());
      array.forEach(node -> out.add(node.asText()));
      return out;
    }

    private static <V> Map<String, V> map(JsonNode object, Function<JsonNode, V> value) {
      Map<String, V> out = new LinkedHashMap<>();
      Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        out.put(field.getKey(), value.apply(field.getValue()));
      }
      return out;
    }
  }
}
