package io.github.sparkzarr.spark;

import io.github.sparkzarr.spark.options.ZarrReadOptions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.connector.catalog.Identifier;

/**
 * Identifiers for {@code spark.read/write.format("zarr")} paths routed through the catalog. The
 * options that shape the table (array, variables, decodeCF, how it is scanned, Hadoop settings) must reach
 * {@code loadTable}, but an identifier is printed in plans, so it carries only a digest of them;
 * the options stay in this driver-side registry. Write options are not part of the identity.
 */
final class PathIdentifiers {
  /** First namespace level of a path identifier from the DataFrame API. */
  static final String MARKER = "__zarr_path__";
  private static final Map<String, Map<String, String>> REGISTRY = new ConcurrentHashMap<>();

  /**
   * The identifier a DataFrame read on this thread is about to load. Spark asks a
   * {@code SupportsCatalogOptions} source for a time-travel version only when reading, right
   * before {@code loadTable}; writes never ask. So a missing path can be an error for reads and a
   * new table for writes (DataFrameWriter.save calls plain {@code loadTable} for append/overwrite).
   */
  private static final ThreadLocal<Identifier> READING = new ThreadLocal<>();

  private PathIdentifiers() {}

  static void markRead(Identifier ident) {
    READING.set(ident);
  }

  /** Whether {@code ident} is being loaded by a read (the mark is consumed). */
  static boolean takeReadMark(Identifier ident) {
    boolean read = ident.equals(READING.get());
    READING.remove();
    return read;
  }

  static Identifier of(Map<String, String> options) {
    String path = null;
    Map<String, String> table = new TreeMap<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      String k = e.getKey().toLowerCase(Locale.ROOT);
      if (k.equals(ZarrReadOptions.PATH)) {
        path = e.getValue();
      } else if (k.startsWith("fs.") || k.startsWith("spark.hadoop.")
          || ZarrReadOptions.isTableOption(k)) {
        table.put(e.getKey(), e.getValue());
      }
    }
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("zarr needs a path: .load(path) or .save(path)");
    }
    String id = digest(table);
    REGISTRY.put(id, Map.copyOf(table));
    return Identifier.of(new String[] {MARKER, id}, path);
  }

  static boolean isPath(Identifier ident) {
    return ident.namespace().length == 2 && ident.namespace()[0].equals(MARKER);
  }

  /** The table options of a path identifier made by {@link #of}. */
  static Map<String, String> options(Identifier ident) {
    Map<String, String> o = REGISTRY.get(ident.namespace()[1]);
    if (o == null) {
      throw new IllegalStateException("unknown zarr path identifier " + ident);
    }
    return o;
  }

  private static String digest(Map<String, String> options) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256")
          .digest(options.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
