package io.github.sparkzarr.spark.read;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * A table's Hadoop configuration, broadcast to the executors once rather than once per query:
 * serialising and broadcasting Spark's ~1600 Hadoop settings took 10–25 ms of every query's
 * planning on the driver, more than the rest of the connector's planning together. The
 * configuration is fixed when the table is opened and never changed afterwards. A table keeps its
 * broadcast; tables opened anew for each query (SQL on {@code zarr.`path`}, {@code
 * spark.read().load(...)} per query) share the broadcast of an equal configuration, found by its
 * settings (a few recent ones per SparkContext; a dropped broadcast is cleaned by Spark once
 * unreachable).
 */
public final class ConfBroadcast {
  private static final int RECENT = 4;
  private static final Map<SparkContext, Map<Map<String, String>, Broadcast<SerializableConfiguration>>> SHARED =
      new WeakHashMap<>();

  private final Configuration conf;
  private SparkContext context;
  private Broadcast<SerializableConfiguration> broadcast;

  public ConfBroadcast(Configuration conf) {
    this.conf = conf;
  }

  /** The broadcast in {@code sc}. */
  public synchronized Broadcast<SerializableConfiguration> get(SparkContext sc) {
    if (broadcast == null || context != sc) {
      broadcast = shared(conf, sc);
      context = sc;
    }
    return broadcast;
  }

  private static Broadcast<SerializableConfiguration> shared(Configuration conf, SparkContext sc) {
    Map<String, String> settings = new HashMap<>();
    for (Map.Entry<String, String> e : conf) {
      settings.put(e.getKey(), e.getValue());
    }
    synchronized (SHARED) {
      Map<Map<String, String>, Broadcast<SerializableConfiguration>> recent = SHARED.computeIfAbsent(sc,
          k -> new LinkedHashMap<>(8, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Map<String, String>, Broadcast<SerializableConfiguration>> e) {
              return size() > RECENT;
            }
          });
      return recent.computeIfAbsent(settings,
          k -> JavaSparkContext.fromSparkContext(sc).broadcast(new SerializableConfiguration(conf)));
    }
  }
}
