package io.github.sparkzarr.spark.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.spark.options.ZarrWriteOptions;
import io.github.sparkzarr.spark.schema.ArraySpec;
import io.github.sparkzarr.spark.schema.DatasetView;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Decides, on the driver, how an input schema becomes arrays: which columns are dimensions
 * (positions, and coordinate values), which are value arrays, the chunk grid, and what an existing
 * target contributes (dimensions, chunks, lengths, arrays to merge into).
 *
 * <p>Positions of a dimension come from an integral column named like the dimension, or, when
 * that column holds coordinate values (a dataset read with coordinates), from the column
 * {@code <dim>_index} (the hidden position column of reads).
 */
public final class WritePlanner {
  /** Field metadata the read path sets: marks dimension columns, carries array attributes. */
  public static final String DIMENSION_METADATA = DatasetView.DIMENSION_METADATA;
  public static final String ATTRIBUTES_METADATA = DatasetView.ATTRIBUTES_METADATA;
  /** Coordinate arrays up to this length are one chunk (as xarray writes index coordinates). */
  static final int MAX_COORDINATE_CHUNK = 1 << 20;
  /**
   * In the name of every staging directory: {@code .<name>.spark-zarr-staging-<queryId>}, a hidden
   * sibling of the group written, never inside it.
   */
  static final String STAGING_MARKER = ".spark-zarr-staging-";

  private WritePlanner() {}

  public static WritePlan plan(ZarrTarget target, StructType schema, Map<String, String> writeOptions,
      WriteMode mode, String queryId) {
    Map<String, String> merged = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    merged.putAll(target.defaults());
    merged.putAll(writeOptions);
    ZarrWriteOptions opts = ZarrWriteOptions.parse(merged);
    Configuration conf = target.hadoopConf();
    opts.hadoopSettings().forEach(conf::set);
    try {
      return new WritePlanner.Run(target, schema, opts, mode, queryId, conf).plan();
    } catch (IOException e) {
      throw new IllegalStateException("cannot plan the write to " + target.location() + ": "
          + e.getMessage(), e);
    }
  }

  /** One planning run; fields hold what the steps share. */
  private static final class Run {
    private final ZarrTarget target;
    private final StructType schema;
    private final ZarrWriteOptions opts;
    private final WriteMode mode;
    private final String queryId;
    private final HadoopStore store;
    private ArrayFormat format;
    private final Map<String, ZarrArray> existing = new LinkedHashMap<>();
    private ObjectNode existingGroupAttributes = Json.object();

    Run(ZarrTarget target, StructType schema, ZarrWriteOptions opts, WriteMode mode, String queryId,
        Configuration conf) throws IOException {
      this.target = target;
      this.schema = schema;
      this.opts = opts;
      this.mode = mode;
      this.queryId = queryId;
      this.store = new HadoopStore(target.storeUri(), conf);
      this.format = ArrayFormat.of(opts.zarrFormat());
    }

    WritePlan plan() throws IOException {
      readExisting();
      keepExistingFormat();
      List<String> dims = dimensions();
      int rank = dims.size();
      ZarrWriteOptions.checkRank(ZarrWriteOptions.CHUNKS, opts.chunks() == null ? null : opts.chunks().length, dims);
      ZarrWriteOptions.checkRank(ZarrWriteOptions.SHAPE, opts.shape() == null ? null : opts.shape().length, dims);
      long[] base = new long[rank];
      for (ZarrArray a : mode == WriteMode.APPEND ? existing.values() : List.<ZarrArray>of()) {
        List<String> dn = a.metadata().dimensionNames();
        for (int k = 0; dn != null && k < dn.size(); k++) {
          int d = dims.indexOf(dn.get(k));
          if (d >= 0) {
            base[d] = Math.max(base[d], a.metadata().shape()[k]);
          }
        }
      }
      boolean[] used = new boolean[schema.size()];
      List<int[]> columns = new ArrayList<>();
      for (String dim : dims) {
        columns.add(dimensionColumns(dim, used));
      }
      List<Integer> valueColumns = new ArrayList<>();
      for (int i = 0; i < used.length; i++) {
        if (!used[i]) {
          valueColumns.add(i);
        }
      }
      if (valueColumns.isEmpty()) {
        throw new IllegalArgumentException("nothing to write to " + target.location() + ": every column "
            + "is a dimension " + dims + "; value columns become arrays");
      }
      long[] limits = opts.shape() == null ? null : opts.shape();
      long[] readChunks = readChunks(columns);
      int[] chunks = chunks(dims, valueColumns, limits, base, readChunks);
      if (opts.shards() != null) {
        // Tasks write whole shards: the shard grid is the array's chunk grid.
        ZarrWriteOptions.checkRank(ZarrWriteOptions.SHARDS, opts.shards().length, dims);
        format = ArrayFormat.of(opts.zarrFormat(), chunks);
        chunks = opts.shards();
      }
      String appendDim = opts.appendDim();
      if (appendDim != null && mode != WriteMode.APPEND) {
        throw new IllegalArgumentException("option 'append_dim' needs mode append (or INSERT INTO)");
      }
      if (appendDim != null && !dims.contains(appendDim)) {
        throw new IllegalArgumentException("option 'append_dim' = '" + appendDim
            + "' is not one of the dimensions " + dims);
      }
      List<WriteLayout.Dim> layoutDims = new ArrayList<>();
      Map<Integer, ArrayMetadata> oldCoords = new HashMap<>();
      Map<Integer, ObjectNode> coordAttrs = new HashMap<>();
      for (int d = 0; d < rank; d++) {
        int[] c = columns.get(d);
        StructField pos = schema.fields()[c[0]];
        long offset = dims.get(d).equals(appendDim) ? base[d] : 0;
        ElementType coordType = c[1] < 0 ? null : ElementType.of(schema.fields()[c[1]].name(),
            schema.fields()[c[1]].dataType());
        layoutDims.add(new WriteLayout.Dim(dims.get(d), pos.name(), c[0], pos.dataType(), chunks[d],
            offset, limits == null ? -1 : limits[d], c[1], coordType));
        if (c[1] >= 0) {
          ZarrArray old = existing.remove(dims.get(d));
          if (old != null && mode == WriteMode.APPEND) {
            oldCoords.put(d, old.metadata());
          }
          coordAttrs.put(d, attributes(schema.fields()[c[1]]));
        }
      }
      List<WriteLayout.Var> vars = new ArrayList<>();
      for (int i : valueColumns) {
        vars.add(variable(schema.fields()[i], i, dims, chunks, limits, base));
      }
      ObjectNode groupAttrs = existingGroupAttributes.deepCopy();
      if (opts.attributes() != null) {
        groupAttrs.setAll(opts.attributes());
      }
      WriteLayout layout = new WriteLayout(target.location(), target.storeUri(), target.groupPath(),
          stagingUri(), layoutDims, vars, grouping(layoutDims, readChunks));
      return new WritePlan(layout, mode, format, opts, mode == WriteMode.APPEND ? base : new long[rank],
          oldCoords, coordAttrs, groupAttrs);
    }

    private void readExisting() throws IOException {
      ZarrHierarchy h = ZarrHierarchy.open(store);
      String group = target.groupPath();
      Optional<ZarrHierarchy.NodeType> node = h.nodeType(group);
      if (node.isEmpty()) {
        return;
      }
      if (mode == WriteMode.CREATE) {
        throw new IllegalStateException(target.location() + " already exists");
      }
      if (node.get() == ZarrHierarchy.NodeType.ARRAY) {
        if (mode == WriteMode.OVERWRITE) {
          return;
        }
        throw new IllegalArgumentException(target.location() + " is an array; appends write to a "
            + "group (a dataset), so overwrite it or write to another path");
      }
      if (mode == WriteMode.APPEND) {
        existingGroupAttributes = h.openGroup(group).attributes().deepCopy();
      }
      // An overwrite reads the old arrays only for defaults (dimensions, chunks), never merges.
      for (String child : h.children(group)) {
        if (h.nodeType(child).orElse(null) == ZarrHierarchy.NodeType.ARRAY) {
          existing.put(child.substring(child.lastIndexOf('/') + 1), h.openArray(child));
        }
      }
    }

    /** Option 'dimensions', else those of the existing arrays, else the read's dimension columns. */
    private List<String> dimensions() {
      if (opts.dimensions() != null) {
        return opts.dimensions();
      }
      List<String> best = null;
      for (Map.Entry<String, ZarrArray> e : existing.entrySet()) {
        List<String> dn = e.getValue().metadata().dimensionNames();
        boolean coordinate = dn != null && dn.size() == 1 && dn.get(0).equals(e.getKey());
        if (dn != null && !dn.contains(null) && !coordinate && (best == null || dn.size() > best.size())) {
          best = dn;
        }
      }
      if (best != null) {
        return best;
      }
      List<String> marked = new ArrayList<>();
      for (StructField f : schema.fields()) {
        if (f.metadata().contains(DIMENSION_METADATA)) {
          marked.add(f.name());
        }
      }
      if (!marked.isEmpty()) {
        return marked;
      }
      throw new IllegalArgumentException("option 'dimensions' is needed to write " + target.location()
          + ": name the columns holding positions, in array order, e.g. .option(\"dimensions\", "
          + "\"time,lat,lon\"); columns: " + Arrays.toString(schema.fieldNames()));
    }

    /** {position ordinal, coordinate ordinal or -1} of one dimension; marks them used. */
    private int[] dimensionColumns(String dim, boolean[] used) {
      int index = find(dim + "_index");
      int column = find(dim);
      int position;
      int coordinate = -1;
      if (index >= 0) {
        position = index;
        coordinate = column;
      } else if (column >= 0 && ZarrChunkFunction.integral(schema.fields()[column].dataType())) {
        position = column;
      } else if (column >= 0) {
        throw new IllegalArgumentException("dimension '" + dim + "': column '" + dim + "' holds "
            + schema.fields()[column].dataType().simpleString() + " coordinate values, so the positions "
            + "must come from an integral column '" + dim + "_index' (reads provide it as a hidden "
            + "column: df.select(\"*\", \"" + dim + "_index\"))");
      } else {
        throw new IllegalArgumentException("no column for dimension '" + dim + "' (nor '" + dim
            + "_index'); columns: " + Arrays.toString(schema.fieldNames()));
      }
      if (!ZarrChunkFunction.integral(schema.fields()[position].dataType())) {
        throw new IllegalArgumentException("position column '" + schema.fields()[position].name()
            + "' must be integral, got " + schema.fields()[position].dataType().simpleString());
      }
      used[position] = true;
      if (coordinate >= 0) {
        used[coordinate] = true;
      }
      return new int[] {position, coordinate};
    }

    private int find(String name) {
      String[] names = schema.fieldNames();
      for (int i = 0; i < names.length; i++) {
        if (names[i].equals(name)) {
          return i;
        }
      }
      for (int i = 0; i < names.length; i++) {
        if (names[i].equalsIgnoreCase(name)) {
          return i;
        }
      }
      return -1;
    }

    /** Appends and overwrites of existing arrays keep their format unless the write names one. */
    private void keepExistingFormat() {
      if (existing.isEmpty()) {
        return;
      }
      int old = existing.values().iterator().next().metadata().zarrFormat();
      if (!opts.zarrFormatGiven() && (old == 2 || old == 3)) {
        format = ArrayFormat.of(old);
      } else if (mode == WriteMode.APPEND && old != format.version()) {
        throw new IllegalArgumentException(target.location() + " holds Zarr format " + old
            + " arrays; this write asks for zarr_format " + format.version() + ", so it cannot append");
      }
    }

    /**
     * The chunk length a Zarr read gave each dimension (field metadata of its column), or null
     * unless every dimension has one.
     */
    private long[] readChunks(List<int[]> columns) {
      long[] out = new long[columns.size()];
      for (int d = 0; d < out.length; d++) {
        int[] c = columns.get(d);
        StructField f = schema.fields()[c[1] >= 0 ? c[1] : c[0]];
        if (!f.metadata().contains(DatasetView.READ_CHUNK_METADATA)) {
          return null;
        }
        out[d] = f.metadata().getLong(DatasetView.READ_CHUNK_METADATA);
      }
      return out;
    }

    /**
     * Whether Spark must shuffle rows by chunk. With shuffle=auto it need not when the rows come
     * from a Zarr read whose chunks the write's chunks tile (every write chunk inside one read
     * chunk, the append offset a multiple of the chunk): a read task holds whole read chunks.
     */
    private WriteLayout.RowGrouping grouping(List<WriteLayout.Dim> dims, long[] readChunks) {
      switch (opts.shuffle()) {
        case ALWAYS:
          return WriteLayout.RowGrouping.SHUFFLED;
        case NEVER:
          return WriteLayout.RowGrouping.AS_GIVEN;
        default:
          if (readChunks == null) {
            return WriteLayout.RowGrouping.SHUFFLED;
          }
          for (int d = 0; d < dims.size(); d++) {
            WriteLayout.Dim dim = dims.get(d);
            if (readChunks[d] % dim.chunk() != 0 || dim.offset() % dim.chunk() != 0) {
              return WriteLayout.RowGrouping.SHUFFLED;
            }
          }
          return WriteLayout.RowGrouping.READ_CHUNKS;
      }
    }

    private int[] chunks(List<String> dims, List<Integer> valueColumns, long[] limits, long[] base,
        long[] readChunks) {
      if (opts.chunks() != null) {
        return opts.chunks();
      }
      for (ZarrArray a : existing.values()) {
        if (dims.equals(a.metadata().dimensionNames())) {
          return a.metadata().chunkShape();
        }
      }
      if (readChunks != null && opts.shards() == null) {
        // As xarray keeps a variable's chunks from the store it came from.
        return Arrays.stream(readChunks).mapToInt(Math::toIntExact).toArray();
      }
      int widest = 1;
      for (int i : valueColumns) {
        StructField f = schema.fields()[i];
        ElementType t = ElementType.of(f.name(), f.dataType());
        widest = Math.max(widest, t.isVariableLength() ? DefaultChunks.VARIABLE_LENGTH_BYTES : t.zarrType().size());
      }
      long[] known = limits;
      if (known == null && Arrays.stream(base).allMatch(b -> b > 0)) {
        known = base;
      }
      return DefaultChunks.of(dims.size(), widest, opts.targetChunkBytes(), known);
    }

    private WriteLayout.Var variable(StructField f, int ordinal, List<String> dims, int[] chunks,
        long[] limits, long[] base) {
      ElementType type = ElementType.of(f.name(), f.dataType());
      String path = StoreKeys.join(target.groupPath(), f.name());
      ZarrArray old = mode == WriteMode.APPEND ? existing.get(f.name()) : null;
      ArrayMetadata md;
      if (old != null) {
        md = old.metadata();
        if (!dims.equals(md.dimensionNames()) || !Arrays.equals(md.chunkShape(), chunks)) {
          throw new IllegalArgumentException("array '" + f.name() + "' of " + target.location()
              + " has dimensions " + md.dimensionNames() + " and chunks " + Arrays.toString(md.chunkShape())
              + "; this write has " + dims + " and " + Arrays.toString(chunks)
              + ", so it cannot write into it (overwrite it, or write with the same dimensions and chunks)");
        }
        if (!md.dataType().littleEndian().equals(type.zarrType())) {
          throw new IllegalArgumentException("array '" + f.name() + "' of " + target.location()
              + " holds " + md.dataType() + ", but column '" + f.name() + "' is "
              + f.dataType().simpleString() + " (" + type.zarrType() + "); cast the column");
        }
      } else {
        JsonNode fill = opts.fillValue() != null ? opts.fillValue() : type.defaultFill();
        long[] shape = limits != null ? limits : base.clone();
        try {
          md = format.newArray(shape, chunks, type.zarrType(), fill, opts.compressorConfig(),
              opts.filters(type.zarrType()), dims, attributes(f));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("column '" + f.name() + "': " + e.getMessage(), e);
        }
      }
      return new WriteLayout.Var(f.name(), ordinal, type, path, new ArraySpec(new ZarrArray(store, path, md)),
          old != null);
    }

    private String stagingUri() {
      Path dir = target.groupPath().isEmpty() ? store.root() : new Path(store.root(), target.groupPath());
      String name = STAGING_MARKER + queryId;
      return dir.getParent() == null ? new Path(dir, name).toString()
          : new Path(dir.getParent(), "." + dir.getName() + name).toString();
    }
  }

  /** The attributes a read attached to a column, without the ones that only describe dimensions. */
  static ObjectNode attributes(StructField f) {
    if (!f.metadata().contains(ATTRIBUTES_METADATA)) {
      return Json.object();
    }
    try {
      ObjectNode attrs = Json.parseObject(f.metadata().getString(ATTRIBUTES_METADATA)
          .getBytes(StandardCharsets.UTF_8), "column", f.name());
      attrs.remove(V2Metadata.DIMENSIONS_ATTR);
      return attrs;
    } catch (ZarrException e) {
      throw new IllegalArgumentException("column '" + f.name() + "' has bad " + ATTRIBUTES_METADATA
          + " metadata: " + e.getMessage(), e);
    }
  }
}
