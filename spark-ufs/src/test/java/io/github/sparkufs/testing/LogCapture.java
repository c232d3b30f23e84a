package io.github.sparkufs.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/** The lines a class logs while an action runs. */
public final class LogCapture {

  private LogCapture() {}

  /** The messages {@code source}'s logger writes at INFO or above while {@code action} runs. */
  public static List<String> infoLines(Class<?> source, Supplier<?> action) {
    List<String> lines = new ArrayList<>();
    Logger logger = (Logger) LogManager.getLogger(source);
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
      action.get();
    } finally {
      logger.removeAppender(capture);
      logger.setLevel(level);
    }
    return lines;
  }
}
