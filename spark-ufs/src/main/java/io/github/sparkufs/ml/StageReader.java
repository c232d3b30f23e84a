package io.github.sparkufs.ml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.util.Iterator;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.ReadWriteUtils;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads a stage saved as Spark saves params-only stages ({@code DefaultParamsWriter}), but
 * checks first that the path holds a saved stage of the expected class, failing with the path
 * and both class names, and skips (with a warning) saved params the class no longer declares.
 *
 * @param <T> the stage class; it has a constructor taking the uid
 */
final class StageReader<T extends Params> extends MLReader<T> {

  static final ObjectMapper JSON = new ObjectMapper();
  private static final Logger LOG = LoggerFactory.getLogger(StageReader.class);

  private final Class<T> stageClass;

  StageReader(Class<T> stageClass) {
    this.stageClass = stageClass;
  }

  @Override
  public T load(String path) {
    JsonNode metadata = metadata(path, stageClass, sparkSession());
    T stage;
    try {
      stage = stageClass.getConstructor(String.class).newInstance(metadata.get("uid").asText());
    } catch (NoSuchMethodException | InstantiationException | IllegalAccessException
        | InvocationTargetException e) {
      throw new IllegalStateException(stageClass.getName() + " has no public constructor "
          + "taking a uid", e);
    }
    setParams(stage, metadata);
    return stage;
  }

  /**
   * The params metadata saved at {@code path}, after checking that it exists and was saved
   * by {@code stageClass}.
   */
  static JsonNode metadata(String path, Class<?> stageClass, SparkSession spark) {
    Path metadataPath = new Path(path, "metadata");
    try {
      if (!fileSystem(metadataPath, spark).exists(metadataPath)) {
        throw new IllegalArgumentException("Cannot load a " + stageClass.getName() + " from "
            + path + ": there is no saved stage there (" + metadataPath + " does not exist)");
      }
      JsonNode metadata = JSON.readTree(
          DefaultParamsReader.loadMetadata(path, spark, "").metadataJson());
      String found = metadata.path("class").asText();
      if (!found.equals(stageClass.getName())) {
        throw new IllegalArgumentException("Cannot load a " + stageClass.getName() + " from "
            + path + ": it holds a saved " + found + "; load it with "
            + found.substring(found.lastIndexOf('.') + 1) + ".load");
      }
      return metadata;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the saved stage at " + path, e);
    }
  }

  /**
   * Sets on {@code stage} the saved param values ({@code paramMap}) and defaults
   * ({@code defaultParamMap}) of the params it declares; a saved param it does not declare
   * (one a later version removed) is skipped with a warning.
   */
  static void setParams(Params stage, JsonNode metadata) {
    for (String section : new String[] {"paramMap", "defaultParamMap"}) {
      Iterator<Map.Entry<String, JsonNode>> saved = metadata.path(section).fields();
      while (saved.hasNext()) {
        Map.Entry<String, JsonNode> entry = saved.next();
        if (!stage.hasParam(entry.getKey())) {
          LOG.warn("{} {}: skipping saved param {} = {}, which this version does not have",
              stage.getClass().getSimpleName(), stage.uid(), entry.getKey(), entry.getValue());
          continue;
        }
        Param<Object> param = stage.getParam(entry.getKey());
        Object value = param.jsonDecode(entry.getValue().toString());
        if (section.equals("paramMap")) {
          stage.set(param, value);
        } else {
          stage.setDefault(param, value);
        }
      }
    }
  }

  /**
   * The file system of {@code path}: the driver's local one while Spark saves or loads to a
   * local path ({@code MLWriter.saveToLocal}, as Spark Connect does), else the one the Hadoop
   * configuration gives the path.
   */
  static FileSystem fileSystem(Path path, SparkSession spark) throws IOException {
    if ((Boolean) ReadWriteUtils.localSavingModeState().get()) {
      return FileSystem.getLocal(spark.sparkContext().hadoopConfiguration());
    }
    return path.getFileSystem(spark.sparkContext().hadoopConfiguration());
  }
}
