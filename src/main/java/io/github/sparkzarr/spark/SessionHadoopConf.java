package io.github.sparkzarr.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * The active session's Hadoop configuration, as Spark's own {@code sessionState().newHadoopConf()}
 * builds it, through public API that Spark 3.5 and 4.x share (4.x moved sessionState to the
 * "classic" session class).
 */
public final class SessionHadoopConf {
  private SessionHadoopConf() {}

  public static Configuration create() {
    SparkSession session = SparkSession.active();
    Configuration conf = new Configuration(session.sparkContext().hadoopConfiguration());
    scala.jdk.javaapi.CollectionConverters.asJava(session.conf().getAll()).forEach((k, v) -> {
      if (v != null) {
        conf.set(k, v);
      }
    });
    return conf;
  }
}
