package io.github.sparkzarr.spark.options;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.Json;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The options of one write, parsed and validated in one place: unknown options and bad values are
 * errors that say what is valid. Catalog table properties use the same names.
 */
public final class ZarrWriteOptions implements Serializable {
  public static final String PATH = "path";
  public static final String DIMENSIONS = "dimensions";
  public static final String CHUNKS = "chunks";
  public static final String SHAPE = "shape";
  public static final String ZARR_FORMAT = "zarr_format";
  public static final String COMPRESSOR = "compressor";
  public static final String COMPRESSION_LEVEL = "compression_level";
  public static final String FILL_VALUE = "fill_value";
  public static final String ATTRIBUTES = "attributes";
  public static final String SHARDS = "shards";
  public static final String APPEND_DIM = "append_dim";
  public static final String TARGET_CHUNK_BYTES = "target_chunk_bytes";
  public static final String SHUFFLE = "shuffle";
  public static final String FILTERS = "filters";

  public static final List<String> KNOWN = List.of(PATH, DIMENSIONS, CHUNKS, SHAPE, ZARR_FORMAT,
      COMPRESSOR, COMPRESSION_LEVEL, FILL_VALUE, ATTRIBUTES, SHARDS, APPEND_DIM, TARGET_CHUNK_BYTES, SHUFFLE,
      FILTERS);
  /** numcodecs filters a write may apply to floating-point variables (object codecs excluded). */
  public static final List<String> FILTER_IDS =
      List.of("bitround", "quantize", "delta", "fixedscaleoffset", "astype");
  /** Compressors by name; "none" stores chunks uncompressed. */
  public static final List<String> COMPRESSORS =
      List.of("zstd", "blosc", "gzip", "zlib", "lz4", "bz2", "lzma", "none");
  /** The default chunk size aimed at when {@code chunks} is not given (within 1-16 MiB). */
  public static final long DEFAULT_TARGET_CHUNK_BYTES = 4L << 20;
  /** Zarr formats Spark writes, the default first (v3, as zarr-python 3 writes by default). */
  public static final List<Integer> WRITABLE_FORMATS = List.of(3, 2);

  private final String path;
  private final List<String> dimensions;
  private final int[] chunks;
  private final int[] shards;
  private final long[] shape;
  private final int zarrFormat;
  private final boolean zarrFormatGiven;
  private final String compressorConfig;
  /** The {@value #FILTERS} option as a JSON list, or null. */
  private final String filters;
  private final String fillValue;
  private final String attributes;
  private final String appendDim;
  private final long targetChunkBytes;
  private final Shuffle shuffle;
  private final Map<String, String> hadoopSettings;

  /** Option {@value #SHUFFLE}: whether Spark repartitions rows by chunk before the write. */
  public enum Shuffle {
    /** Only when the rows may not come chunk by chunk (see WritePlanner). */
    AUTO,
    /** Always ("true"). */
    ALWAYS,
    /** Never ("false"): chunks split across tasks are merged by the job commit. */
    NEVER;

    static Shuffle parse(String value) {
      String v = value == null ? "auto" : value.trim().toLowerCase(Locale.ROOT);
      return switch (v) {
        case "auto" -> AUTO;
        case "true" -> ALWAYS;
        case "false" -> NEVER;
        default -> throw new IllegalArgumentException("option '" + SHUFFLE + "' must be auto, true or "
            + "false, got '" + value + "'");
      };
    }
  }

  private ZarrWriteOptions(String path, List<String> dimensions, int[] chunks, int[] shards, long[] shape,
      int zarrFormat, boolean zarrFormatGiven, String compressorConfig, String filters, String fillValue,
      String attributes, String appendDim, long targetChunkBytes, Shuffle shuffle, Map<String, String> hadoopSettings) {
    this.path = path;
    this.dimensions = dimensions;
    this.chunks = chunks;
    this.shards = shards;
    this.shape = shape;
    this.zarrFormat = zarrFormat;
    this.zarrFormatGiven = zarrFormatGiven;
    this.compressorConfig = compressorConfig;
    this.filters = filters;
    this.fillValue = fillValue;
    this.attributes = attributes;
    this.appendDim = appendDim;
    this.targetChunkBytes = targetChunkBytes;
    this.shuffle = shuffle;
    this.hadoopSettings = hadoopSettings;
  }

  /** Parses case-insensitive write options (or table properties). */
  public static ZarrWriteOptions parse(Map<String, String> options) {
    OptionSplit split = OptionSplit.of(options, KNOWN, "write option");
    Map<String, String> known = split.known();
    Map<String, String> hadoop = split.hadoop();
    List<String> dims = names(DIMENSIONS, known.get(DIMENSIONS));
    int[] chunks = known.containsKey(CHUNKS) ? ints(CHUNKS, known.get(CHUNKS)) : null;
    long[] shape = known.containsKey(SHAPE) ? longs(SHAPE, known.get(SHAPE), true) : null;
    int format = format(known.get(ZARR_FORMAT));
    int[] shards = known.containsKey(SHARDS) ? ints(SHARDS, known.get(SHARDS)) : null;
    if (shards != null && format != 3) {
      throw new IllegalArgumentException("option '" + SHARDS + "' needs zarr_format 3 (sharding is a "
          + "Zarr v3 codec)");
    }
    if (dims != null) {
      checkRank(CHUNKS, chunks == null ? null : chunks.length, dims);
      checkRank(SHAPE, shape == null ? null : shape.length, dims);
      checkRank(SHARDS, shards == null ? null : shards.length, dims);
    }
    String appendDim = known.get(APPEND_DIM) == null ? null : known.get(APPEND_DIM).trim();
    if (appendDim != null && dims != null && !dims.contains(appendDim)) {
      throw new IllegalArgumentException("option 'append_dim' = '" + appendDim
          + "' is not one of the dimensions " + dims);
    }
    String compressor = compressor(known.getOrDefault(COMPRESSOR, "zstd"), known.get(COMPRESSION_LEVEL));
    String fill = known.get(FILL_VALUE);
    if (fill != null) {
      fill = parseJson(FILL_VALUE, fill.trim().equalsIgnoreCase("nan") ? "\"NaN\"" : fill).toString();
    }
    String attrs = known.get(ATTRIBUTES);
    if (attrs != null && !(parseJson(ATTRIBUTES, attrs) instanceof ObjectNode)) {
      throw new IllegalArgumentException("option 'attributes' must be a JSON object, got " + attrs);
    }
    long target = known.containsKey(TARGET_CHUNK_BYTES)
        ? longs(TARGET_CHUNK_BYTES, known.get(TARGET_CHUNK_BYTES), false)[0] : DEFAULT_TARGET_CHUNK_BYTES;
    String filters = known.get(FILTERS) == null ? null : filters(known.get(FILTERS));
    return new ZarrWriteOptions(known.get(PATH), dims, chunks, shards, shape, format, known.containsKey(ZARR_FORMAT), compressor,
        filters, fill, attrs, appendDim, target, Shuffle.parse(known.get(SHUFFLE)), Collections.unmodifiableMap(hadoop));
  }

  /** 'chunks' and 'shape' give one length per dimension (checked again once dimensions are known). */
  public static void checkRank(String option, Integer length, List<String> dims) {
    if (length != null && length != dims.size()) {
      throw new IllegalArgumentException("option '" + option + "' has " + length
          + " lengths but there are " + dims.size() + " dimensions " + dims);
    }
  }

  private static List<String> names(String option, String value) {
    if (value == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (String s : value.split(",")) {
      String t = s.trim();
      if (t.isEmpty() || out.contains(t)) {
        throw new IllegalArgumentException("option '" + option + "' must list distinct names "
            + "separated by commas, e.g. \"time,lat,lon\"; got '" + value + "'");
      }
      out.add(t);
    }
    return List.copyOf(out);
  }

  private static int[] ints(String option, String value) {
    long[] l = longs(option, value, false);
    int[] out = new int[l.length];
    for (int i = 0; i < l.length; i++) {
      if (l[i] > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("option '" + option + "' has a length too large: " + value);
      }
      out[i] = (int) l[i];
    }
    return out;
  }

  private static long[] longs(String option, String value, boolean zeroAllowed) {
    String[] parts = value.split(",");
    long[] out = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        out[i] = Long.parseLong(parts[i].trim());
      } catch (NumberFormatException e) {
        out[i] = -1;
      }
      if (out[i] < (zeroAllowed ? 0 : 1)) {
        throw new IllegalArgumentException("option '" + option + "' must be a comma-separated list of "
            + (zeroAllowed ? "non-negative" : "positive") + " integers, got '" + value + "'");
      }
    }
    return out;
  }

  private static int format(String value) {
    String v = value == null ? String.valueOf(WRITABLE_FORMATS.get(0)) : value.trim();
    if (!v.equals("2") && !v.equals("3")) {
      throw new IllegalArgumentException("option 'zarr_format' must be 2 or 3, got '" + value + "'");
    }
    int f = Integer.parseInt(v);
    if (!WRITABLE_FORMATS.contains(f)) {
      throw new IllegalArgumentException("option 'zarr_format' = " + f + ": this build writes Zarr "
          + "format " + WRITABLE_FORMATS + " only");
    }
    return f;
  }

  /** The numcodecs configuration of the compressor, validated against the registry. */
  private static String compressor(String value, String level) {
    String v = value.trim();
    ObjectNode config;
    if (v.startsWith("{")) {
      if (!(parseJson(COMPRESSOR, v) instanceof ObjectNode o)) {
        throw new IllegalArgumentException("option 'compressor' must be a name or a JSON object");
      }
      config = o;
    } else {
      config = defaultConfig(v.toLowerCase(Locale.ROOT));
    }
    if (level != null) {
      if (config == null || config.path("id").asText().equals("lz4")) {
        throw new IllegalArgumentException("option 'compression_level' does not apply to compressor '" + v + "'");
      }
      int l;
      try {
        l = Integer.parseInt(level.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("option 'compression_level' must be an integer, got '" + level + "'");
      }
      String field = switch (config.path("id").asText()) {
        case "blosc" -> "clevel";
        case "lzma" -> "preset";
        default -> "level";
      };
      config.put(field, l);
    }
    if (config == null) {
      return null;
    }
    try {
      CodecRegistry.fromConfig(config);
    } catch (CodecException | IllegalArgumentException e) {
      throw new IllegalArgumentException("option 'compressor': " + e.getMessage(), e);
    }
    return config.toString();
  }

  /**
   * The {@value #FILTERS} option: a JSON list of numcodecs filter configurations, each checked
   * as it will be built for a float64 array (a missing "dtype" is the array's); a float32 array
   * may still refuse one (bitround keeping more bits than it has), naming the column.
   */
  private static String filters(String value) {
    if (!(parseJson(FILTERS, value) instanceof ArrayNode list)) {
      throw new IllegalArgumentException("option 'filters' must be a JSON list of numcodecs filters, "
          + "such as [{\"id\": \"bitround\", \"keepbits\": 10}], got " + value);
    }
    DataType float64 = DataType.numeric(DataType.Kind.FLOAT, 8, java.nio.ByteOrder.LITTLE_ENDIAN);
    for (JsonNode f : list) {
      String id = f.path("id").asText();
      if (!f.isObject() || !FILTER_IDS.contains(id)) {
        throw new IllegalArgumentException("option 'filters': each filter must be a JSON object whose \"id\" is one of "
            + FILTER_IDS + ", got " + f);
      }
      try {
        ((io.github.sparkzarr.zarr.codec.ArrayFilter) CodecRegistry.fromConfig(withDtype((ObjectNode) f, float64)))
            .encodedType(float64);
      } catch (CodecException e) {
        throw new IllegalArgumentException("option 'filters': " + e.getMessage(), e);
      }
    }
    return list.toString();
  }

  /**
   * {@code filter} with its dtype fields set to {@code type} where it has none, as zarr-python 3
   * completes the filters it is given.
   */
  private static ObjectNode withDtype(ObjectNode filter, DataType type) {
    ObjectNode f = filter.deepCopy();
    String text = NumpyDtype.toText(type);
    String field = switch (f.path("id").asText()) {
      case "astype" -> "decode_dtype";
      case "quantize", "delta", "fixedscaleoffset" -> "dtype";
      default -> null;
    };
    if (field != null && (f.path(field).isMissingNode() || f.path(field).isNull())) {
      f.put(field, text);
    }
    return f;
  }

  private static ObjectNode defaultConfig(String name) {
    ObjectNode c = Json.object();
    // numcodecs' own defaults, so the metadata matches what zarr-python would write.
    switch (name) {
      case "none" -> {
        return null;
      }
      case "zstd", "gzip", "zlib", "bz2" -> c.put("id", name).put("level", 1);
      case "blosc" -> c.put("id", "blosc").put("cname", "lz4").put("clevel", 5).put("shuffle", 1).put("blocksize", 0);
      case "lz4" -> c.put("id", "lz4").put("acceleration", 1);
      case "lzma" -> {
        c.put("id", "lzma").put("format", 1).put("check", -1);
        c.putNull("preset");
        c.putNull("filters");
      }
      default -> throw new IllegalArgumentException("option 'compressor' must be one of "
          + String.join(", ", COMPRESSORS) + " or a numcodecs JSON configuration, got '" + name + "'");
    }
    return c;
  }

  private static JsonNode parseJson(String option, String text) {
    try {
      return Json.parse(text.getBytes(StandardCharsets.UTF_8), "option", option);
    } catch (ZarrException e) {
      throw new IllegalArgumentException("option '" + option + "' is not valid JSON: " + text);
    }
  }

  /** The path given as an option, or null (catalog writes name the target otherwise). */
  public String path() {
    return path;
  }

  public Shuffle shuffle() {
    return shuffle;
  }

  /** The dimension names in order, or null to take them from the existing target. */
  public List<String> dimensions() {
    return dimensions;
  }

  /** Chunk lengths per dimension, or null for the default size. */
  public int[] chunks() {
    return chunks == null ? null : chunks.clone();
  }

  /** Fixed array shape, or null for "largest position + 1". */
  public long[] shape() {
    return shape == null ? null : shape.clone();
  }

  /** The shard shape (v3 sharding; then {@link #chunks} is the chunk shape inside a shard), or null. */
  public int[] shards() {
    return shards == null ? null : shards.clone();
  }

  /** True if the write named its format; otherwise writes into existing arrays keep theirs. */
  public boolean zarrFormatGiven() {
    return zarrFormatGiven;
  }

  public int zarrFormat() {
    return zarrFormat;
  }

  /** The compressor's numcodecs configuration, or null for none. */
  public ObjectNode compressorConfig() {
    return compressorConfig == null ? null : (ObjectNode) reparse(compressorConfig);
  }

  /**
   * The numcodecs filters of a new array of {@code type}: those of option {@value #FILTERS}
   * (with their dtype completed) for floating-point variables, none for other types.
   */
  public List<ObjectNode> filters(DataType type) {
    if (filters == null || type.kind() != DataType.Kind.FLOAT) {
      return List.of();
    }
    List<ObjectNode> out = new ArrayList<>();
    reparse(filters).forEach(f -> out.add(withDtype((ObjectNode) f, type.littleEndian())));
    return out;
  }

  /** The fill value of every value array as JSON, or null for the per-type default. */
  public JsonNode fillValue() {
    return fillValue == null ? null : reparse(fillValue);
  }

  /** The group attributes, or null. */
  public ObjectNode attributes() {
    return attributes == null ? null : (ObjectNode) reparse(attributes);
  }

  public String appendDim() {
    return appendDim;
  }

  public long targetChunkBytes() {
    return targetChunkBytes;
  }

  public Map<String, String> hadoopSettings() {
    return hadoopSettings;
  }

  private static JsonNode reparse(String text) {
    return parseJson("", text);
  }

  @Override
  public String toString() {
    Map<String, String> shown = new LinkedHashMap<>();
    shown.put(PATH, path);
    if (dimensions != null) {
      shown.put(DIMENSIONS, String.join(",", dimensions));
    }
    shown.put(ZARR_FORMAT, String.valueOf(zarrFormat));
    shown.put(COMPRESSOR, String.valueOf(compressorConfig));
    if (filters != null) {
      shown.put(FILTERS, filters);
    }
    hadoopSettings.forEach((k, v) -> shown.put(k, ZarrReadOptions.isSecret(k) ? "*********(redacted)" : v));
    return "ZarrWriteOptions" + shown;
  }
}
