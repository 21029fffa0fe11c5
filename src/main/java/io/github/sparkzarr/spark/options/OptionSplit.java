package io.github.sparkzarr.spark.options;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Splits the options Spark hands a read or write into the connector's own (case-insensitive,
 * checked against the known names) and Hadoop settings ({@code fs.*}, and {@code spark.hadoop.*}
 * with the prefix removed). An unknown name is an error that lists the valid ones.
 */
record OptionSplit(Map<String, String> known, Map<String, String> hadoop) {

  /** @param what "option" or "write option", for the message */
  static OptionSplit of(Map<String, String> options, List<String> knownNames, String what) {
    Map<String, String> known = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    Map<String, String> hadoop = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      String key = e.getKey();
      String lower = key.toLowerCase(Locale.ROOT);
      if (lower.startsWith("fs.")) {
        hadoop.put(key, e.getValue());
      } else if (lower.startsWith("spark.hadoop.")) {
        hadoop.put(key.substring("spark.hadoop.".length()), e.getValue());
      } else if (knownNames.stream().anyMatch(k -> k.equalsIgnoreCase(key))) {
        known.put(key, e.getValue());
      } else {
        throw new IllegalArgumentException("Unknown zarr " + what + " '" + key + "'. Valid options: "
            + String.join(", ", knownNames) + ", and Hadoop settings fs.* and spark.hadoop.*.");
      }
    }
    return new OptionSplit(known, Collections.unmodifiableMap(hadoop));
  }
}
