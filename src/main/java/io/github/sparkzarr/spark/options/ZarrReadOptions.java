package io.github.sparkzarr.spark.options;

import io.github.sparkzarr.zarr.ZarrFormat;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.Serializable;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The options of one read, parsed and validated in one place. Unknown options and bad values are
 * errors that list what is valid; secrets never appear in {@link #toString()} or messages.
 */
public final class ZarrReadOptions implements Serializable {
  public static final String PATH = "path";
  public static final String PATHS = "paths";
  public static final String ARRAY = "array";
  public static final String VARIABLES = "variables";
  public static final String DECODE_CF = "decodeCF";
  public static final String MAX_PARTITION_BYTES = "maxPartitionBytes";
  public static final String ZARR_FORMAT = "zarr_format";
  public static final String PUSH_DOWN_AGGREGATE = "pushDownAggregate";
  public static final String PUSH_DOWN_VALUE_FILTERS = "pushDownValueFilters";
  public static final String DRIVER_AGGREGATE_MAX_BYTES = "driverAggregateMaxBytes";
  /** Decoded bytes up to which a complete aggregate is answered on the driver, by default. */
  public static final long DEFAULT_DRIVER_AGGREGATE_MAX_BYTES = 128L << 20;

  private static final List<String> KNOWN =
      List.of(PATH, PATHS, ARRAY, VARIABLES, DECODE_CF, MAX_PARTITION_BYTES, ZARR_FORMAT,
          PUSH_DOWN_AGGREGATE, PUSH_DOWN_VALUE_FILTERS, DRIVER_AGGREGATE_MAX_BYTES);
  /**
   * Whether {@code name} (any case) is an option of the table read, as opposed to where it is
   * ({@code path}, {@code paths}): every known option but those.
   */
  public static boolean isTableOption(String name) {
    return !name.equalsIgnoreCase(PATH) && !name.equalsIgnoreCase(PATHS)
        && KNOWN.stream().anyMatch(k -> k.equalsIgnoreCase(name));
  }

  /** Keys whose values are never printed. */
  private static final Pattern SECRET =
      Pattern.compile("(?i).*(secret|password|passwd|token|credential|key|signature|sas).*");

  private final String path;
  private final String array;
  private final List<String> variables;
  private final boolean decodeCF;
  private final Long maxPartitionBytes;
  private final ZarrFormat zarrFormat;
  private final boolean pushDownAggregate;
  private final boolean pushDownValueFilters;
  private final long driverAggregateMaxBytes;
  private final Map<String, String> hadoopSettings;

  private ZarrReadOptions(String path, String array, List<String> variables, boolean decodeCF,
      Long maxPartitionBytes, ZarrFormat zarrFormat, boolean pushDownAggregate,
      boolean pushDownValueFilters, long driverAggregateMaxBytes, Map<String, String> hadoopSettings) {
    this.path = path;
    this.array = array;
    this.variables = variables;
    this.decodeCF = decodeCF;
    this.maxPartitionBytes = maxPartitionBytes;
    this.zarrFormat = zarrFormat;
    this.pushDownAggregate = pushDownAggregate;
    this.pushDownValueFilters = pushDownValueFilters;
    this.driverAggregateMaxBytes = driverAggregateMaxBytes;
    this.hadoopSettings = hadoopSettings;
  }

  /** Parses case-insensitive options as Spark hands them to a data source. */
  public static ZarrReadOptions parse(Map<String, String> options) {
    OptionSplit split = OptionSplit.of(options, KNOWN, "option");
    Map<String, String> known = split.known();
    Map<String, String> hadoop = split.hadoop();
    String path = known.get(PATH);
    String paths = known.get(PATHS);
    if (paths != null) {
      List<String> list = parsePaths(paths);
      if (path != null) {
        list.add(0, path);
      }
      if (list.size() != 1) {
        throw new IllegalArgumentException(
            "zarr reads one store at a time; got " + list.size() + " paths");
      }
      path = list.get(0);
    }
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("zarr needs a path: spark.read.format(\"zarr\").load(path)");
    }
    rejectUserInfo(path);
    String array = blankToNull(known.get(ARRAY));
    List<String> variables = parseVariables(known.get(VARIABLES));
    if (array != null && variables != null) {
      throw new IllegalArgumentException("options 'array' and 'variables' cannot be used together: "
          + "'array' reads one array, 'variables' chooses the data variables of a dataset view");
    }
    return new ZarrReadOptions(path, array, variables,
        parseBoolean(DECODE_CF, known.getOrDefault(DECODE_CF, "true")),
        known.containsKey(MAX_PARTITION_BYTES)
            ? parseBytes(MAX_PARTITION_BYTES, known.get(MAX_PARTITION_BYTES), 1) : null,
        known.containsKey(ZARR_FORMAT) ? parseFormat(known.get(ZARR_FORMAT)) : null,
        parseBoolean(PUSH_DOWN_AGGREGATE, known.getOrDefault(PUSH_DOWN_AGGREGATE, "true")),
        parseBoolean(PUSH_DOWN_VALUE_FILTERS, known.getOrDefault(PUSH_DOWN_VALUE_FILTERS, "true")),
        known.containsKey(DRIVER_AGGREGATE_MAX_BYTES)
            ? parseBytes(DRIVER_AGGREGATE_MAX_BYTES, known.get(DRIVER_AGGREGATE_MAX_BYTES), 0)
            : DEFAULT_DRIVER_AGGREGATE_MAX_BYTES,
        Collections.unmodifiableMap(hadoop));
  }

  /**
   * A path such as s3a://KEY:SECRET@bucket/x would carry its secret into plans, logs and errors
   * (Hadoop's own messages print the URI), so it is refused, shown without the user info.
   */
  private static void rejectUserInfo(String path) {
    URI uri;
    try {
      uri = new Path(path).toUri();
    } catch (IllegalArgumentException e) {
      return; // not a URI at all: Hadoop reports it later, and it holds no user info to hide
    }
    HadoopStore.rejectUserInfo(uri);
  }

  private static List<String> parsePaths(String json) {
    String t = json.trim();
    if (!t.startsWith("[")) {
      return new ArrayList<>(List.of(t));
    }
    try {
      String[] arr = new com.fasterxml.jackson.databind.ObjectMapper().readValue(t, String[].class);
      return new ArrayList<>(Arrays.asList(arr));
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("option 'paths' must be a JSON array of strings");
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  private static List<String> parseVariables(String s) {
    if (s == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (String v : s.split(",")) {
      if (!v.isBlank()) {
        out.add(v.trim());
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(
          "option 'variables' must list data variables separated by commas, e.g. \"t2m,precip\"");
    }
    return List.copyOf(out);
  }

  private static boolean parseBoolean(String name, String v) {
    switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new IllegalArgumentException(
            "option '" + name + "' must be true or false, got '" + v + "'");
    }
  }

  /** A size such as 64m; at least {@code min} (1: positive, 0: not negative). */
  private static long parseBytes(String name, String v, long min) {
    long bytes;
    try {
      bytes = org.apache.spark.network.util.JavaUtils.byteStringAsBytes(v.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("option '" + name
          + "' must be a size such as 134217728, 64m or 1g, got '" + v + "'");
    }
    if (bytes < min) {
      throw new IllegalArgumentException(
          "option '" + name + "' must be " + (min > 0 ? "positive" : "0 or more") + ", got '" + v + "'");
    }
    return bytes;
  }

  private static ZarrFormat parseFormat(String v) {
    try {
      return ZarrFormat.parse(v);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("option '" + ZARR_FORMAT + "': " + e.getMessage());
    }
  }


  public String path() {
    return path;
  }

  /** The format to read, or null to detect it per node. */
  public ZarrFormat zarrFormat() {
    return zarrFormat;
  }

  /** The array to read as one table, relative to the store, or null. */
  public String array() {
    return array;
  }

  /** The data variables of a dataset view, or null for all that fit. */
  public List<String> variables() {
    return variables;
  }

  public boolean decodeCF() {
    return decodeCF;
  }

  /** Whether COUNT/SUM/MIN/MAX (and AVG) may be computed partially in the scan. */
  public boolean pushDownAggregate() {
    return pushDownAggregate;
  }

  /**
   * Whether filters on variables' values (comparisons with literals, IS NULL, AND/OR/NOT of them)
   * are evaluated in the scan, so that Spark can push aggregates and LIMIT past them.
   */
  public boolean pushDownValueFilters() {
    return pushDownValueFilters;
  }

  /**
   * Decoded bytes up to which an aggregate the scan computes completely is computed on the
   * driver while Spark plans the query, so that it runs no job (0: never).
   */
  public long driverAggregateMaxBytes() {
    return driverAggregateMaxBytes;
  }

  /** The target partition size, or null to use spark.sql.files.maxPartitionBytes. */
  public Long maxPartitionBytes() {
    return maxPartitionBytes;
  }

  /** The Hadoop settings of this read, applied over the session's Hadoop configuration. */
  public void applyTo(Configuration conf) {
    hadoopSettings.forEach(conf::set);
  }

  /** The Hadoop settings of this read (fs.* and spark.hadoop.* options, prefix removed). */
  public Map<String, String> hadoopSettings() {
    return hadoopSettings;
  }

  /** True for option names whose values must never be shown. */
  public static boolean isSecret(String key) {
    return SECRET.matcher(key).matches();
  }

  @Override
  public String toString() {
    Map<String, String> shown = new LinkedHashMap<>();
    shown.put(PATH, path);
    if (array != null) {
      shown.put(ARRAY, array);
    }
    if (variables != null) {
      shown.put(VARIABLES, String.join(",", variables));
    }
    shown.put(DECODE_CF, Boolean.toString(decodeCF));
    if (maxPartitionBytes != null) {
      shown.put(MAX_PARTITION_BYTES, maxPartitionBytes.toString());
    }
    if (driverAggregateMaxBytes != DEFAULT_DRIVER_AGGREGATE_MAX_BYTES) {
      shown.put(DRIVER_AGGREGATE_MAX_BYTES, Long.toString(driverAggregateMaxBytes));
    }
    if (zarrFormat != null) {
      shown.put(ZARR_FORMAT, zarrFormat.toString());
    }
    hadoopSettings.forEach((k, v) -> shown.put(k, isSecret(k) ? "*********(redacted)" : v));
    return "ZarrReadOptions" + shown;
  }
}
