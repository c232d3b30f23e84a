package io.github.sparkufs.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkufs.testing.SparkSessionExtension;
import io.github.sparkufs.testing.TestData;
import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Sparse vectors are densified for the fit, and the fit says so once, with the size. */
@ExtendWith(SparkSessionExtension.class)
class SparseInputTest {

  @Test
  void densifyingSparseInputIsLoggedOnceWithItsSize(SparkSession spark) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      rows.add(RowFactory.create(i % 4 == 0 ? Vectors.dense(i, 1, 0, i % 3)
          : Vectors.sparse(4, new int[] {0, 3}, new double[] {i, i % 3})));
    }
    List<String> lines = new ArrayList<>();
    Logger logger = (Logger) LogManager.getLogger(VectorBlocks.class);
    AbstractAppender capture = new AbstractAppender("capture", null, null, true,
        Property.EMPTY_ARRAY) {
      @Override
      public void append(LogEvent event) {
        lines.add(event.getMessage().getFormattedMessage());
      }
    };
    capture.start();
    Level level = logger.getLevel();
    logger.addAppender(capture);
    logger.setLevel(Level.INFO);
    try {
      VectorBlocks.read(TestData.fromRows(spark, rows,
          new StructType().add("features", SQLDataTypes.VectorType()), 3), "features",
          VectorBlocks.Placement.AUTO, "test", false).blocks().release();
    } finally {
      logger.removeAppender(capture);
      logger.setLevel(level);
    }
    assertEquals(List.of("test: densifying 40 x 4 input (30 of the rows sparse): 0.0 MB"),
        lines);
  }
}
