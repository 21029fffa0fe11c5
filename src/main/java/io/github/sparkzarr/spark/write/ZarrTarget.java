package io.github.sparkzarr.spark.write;

import java.io.Serializable;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Where a write goes: a group inside a store, and the defaults its table carries (catalog table
 * properties, or none for a path).
 *
 * @param location the target, safe to print
 * @param storeUri the store root (may hold credentials; never printed)
 * @param groupPath the group inside the store ("" for the root)
 * @param hadoopSettings Hadoop settings from catalog or read options
 * @param defaults write options the table supplies, overridden by the write's own
 */
public record ZarrTarget(String location, String storeUri, String groupPath,
    Map<String, String> hadoopSettings, Map<String, String> defaults) implements Serializable {

  /** The session's Hadoop configuration with this target's settings. */
  public Configuration hadoopConf() {
    Configuration conf = io.github.sparkzarr.spark.SessionHadoopConf.create();
    hadoopSettings.forEach(conf::set);
    return conf;
  }

  public ZarrTarget withDefaults(Map<String, String> newDefaults) {
    return new ZarrTarget(location, storeUri, groupPath, hadoopSettings, Map.copyOf(newDefaults));
  }
}
