package io.github.sparkzarr.spark.reliability;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * Captures every log4j event (messages and stack traces) while open, with the connector's own
 * loggers and Hadoop's at DEBUG so that even debug output is searched.
 */
final class LogCapture extends AbstractAppender implements AutoCloseable {
  private static final String[] VERBOSE = {"io.github.sparkzarr", "org.apache.hadoop"};
  private final StringBuffer text = new StringBuffer();
  private final LoggerContext context = (LoggerContext) LogManager.getContext(false);

  LogCapture() {
    super("secret-capture", null, null, true, Property.EMPTY_ARRAY);
    start();
    Configuration config = context.getConfiguration();
    config.getRootLogger().addAppender(this, Level.ALL, null);
    for (String name : VERBOSE) {
      LoggerConfig logger = new LoggerConfig(name, Level.DEBUG, true);
      config.addLogger(name, logger);
    }
    context.updateLoggers();
  }

  @Override
  public void append(LogEvent event) {
    text.append(event.getLoggerName()).append(' ').append(event.getMessage().getFormattedMessage())
        .append('\n');
    if (event.getThrown() != null) {
      text.append(Failures.fullText(event.getThrown()));
    }
  }

  String text() {
    return text.toString();
  }

  @Override
  public void close() {
    Configuration config = context.getConfiguration();
    config.getRootLogger().removeAppender(getName());
    for (String name : VERBOSE) {
      config.removeLogger(name);
    }
    context.updateLoggers();
    stop();
  }
}
