package io.github.sparkzarr.spark.write;

import io.github.sparkzarr.spark.read.metrics.MetricValue;
import io.github.sparkzarr.spark.write.metrics.BytesWrittenMetric;
import io.github.sparkzarr.spark.write.metrics.ChunksWrittenMetric;
import io.github.sparkzarr.spark.write.metrics.EncodeTimeMetric;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.write.DataWriter;

/**
 * One task: rows arrive clustered by chunk (every row of a chunk comes to this task) in any order,
 * or, when the write asked for no shuffle, as they come (chunks left partial are merged at the
 * commit, {@link PartialChunks}).
 * Chunks are assembled in memory and encoded and staged as soon as they are complete; rows that
 * arrive chunk by chunk (as from a Zarr read, or sorted input) keep about one chunk open. When
 * open chunks outgrow the buffer, the least recently used are staged as they are and resumed from
 * staging if more of their rows come: memory stays bounded whatever the order, with no sort.
 */
final class ZarrDataWriter implements DataWriter<InternalRow> {
  static final String BUFFER_BYTES = "fs.zarr.write.buffer.bytes";
  /** Partial chunks a task may leave, with shuffle=auto, before the input counts as regrouped. */
  static final int MAX_PARTIAL_CHUNKS = 64;
  private final WriteLayout layout;
  private final Configuration conf;
  private final String attemptDir;
  private final int rank;
  private final int[] chunkShape;
  private final long[] maxPositions;
  private final Map<Integer, TreeMap<Long, Object>> coordinates = new HashMap<>();
  private final Set<String> keys = new LinkedHashSet<>();
  /** Chunks being assembled, least recently used first. */
  private final LinkedHashMap<List<Long>, ChunkAssembler> open = new LinkedHashMap<>(16, 0.75f, true);
  /** Chunks staged before they were complete, with the elements written so far. */
  private final Map<List<Long>, BitSet> spilled = new HashMap<>();
  /** Chunks staged complete: any further row for one repeats a position. */
  private final Set<List<Long>> completed = new HashSet<>();
  /** Chunks staged incomplete at the end, with the elements written (rows not shuffled by chunk). */
  private final Map<List<Long>, BitSet> partial = new LinkedHashMap<>();
  private final long bufferBytes;
  private long openBytes;
  private final long[] chunkOfRow;
  private final long[] rowPositions;
  private final WriteLayout.Dim[] dims;
  private HadoopStore staging;
  private HadoopStore target;
  /** The chunk of the previous row: rows usually come chunk by chunk, so no lookup is needed. */
  private ChunkAssembler current;
  private long chunksWritten;
  private long bytesWritten;
  private long encodeNanos;

  ZarrDataWriter(WriteLayout layout, Configuration conf, String attemptDir) {
    this.layout = layout;
    this.conf = conf;
    this.attemptDir = attemptDir;
    this.rank = layout.dims().size();
    this.chunkShape = layout.chunks();
    this.maxPositions = new long[rank];
    Arrays.fill(maxPositions, -1);
    this.chunkOfRow = new long[rank];
    this.rowPositions = new long[rank];
    this.dims = layout.dims().toArray(new WriteLayout.Dim[0]);
    long configured = conf.getLong(BUFFER_BYTES, -1);
    this.bufferBytes = configured > 0 ? configured : bufferBytes(layout);
  }

  /**
   * An eighth of the heap (shared by the tasks of an executor), but always room for two chunks;
   * the Hadoop setting (or write option) {@value #BUFFER_BYTES} sets it.
   */
  private static long bufferBytes(WriteLayout layout) {
    long chunkBytes = 0;
    int elements = Arrays.stream(layout.chunks()).reduce(1, Math::multiplyExact);
    for (WriteLayout.Var v : layout.vars()) {
      chunkBytes += (long) elements * Math.max(8, v.array().metadata().dataType().size());
    }
    return Math.max(2 * chunkBytes, Runtime.getRuntime().maxMemory() / 8);
  }

  @Override
  public void write(InternalRow row) throws IOException {
    long[] pos = positions(row);
    int index = current == null ? -1 : current.indexOf(pos);
    if (index < 0) {
      for (int d = 0; d < rank; d++) {
        chunkOfRow[d] = pos[d] / chunkShape[d];
      }
      if (completed.contains(boxed(chunkOfRow))) {
        throw duplicate(pos);
      }
      current = assembler(chunkOfRow.clone());
      index = current.indexOf(pos);
    }
    if (!current.claim(index)) {
      throw duplicate(pos);
    }
    List<WriteLayout.Var> vars = layout.vars();
    for (int v = 0; v < vars.size(); v++) {
      WriteLayout.Var var = vars.get(v);
      if (row.isNullAt(var.ordinal())) {
        if (!var.type().isVariableLength() && var.array().metadata().fillValue().isNull()) {
          throw new IllegalArgumentException("column '" + var.column() + "' is null at " + describe(pos)
              + ", but its array has no fill value to store for a null (the default for "
              + var.type().sparkType().simpleString() + " columns); give option fill_value");
        }
      } else if (var.type().isVariableLength()) {
        current.set(v, index, var.type().plain(row.get(var.ordinal(), var.type().sparkType())));
      } else {
        current.copy(v, index, row, var.ordinal());
      }
    }
    recordCoordinates(row, pos);
    if (current.isComplete()) {
      close(current);
      flush(current);
      completed.add(boxed(current.coords()));
      current = null;
    }
  }

  private IllegalArgumentException duplicate(long[] pos) {
    return new IllegalArgumentException("duplicate position " + describe(pos)
        + ": two rows give a value for the same element of " + layout.location());
  }

  /** The open chunk at {@code coords}: already open, resumed from staging, or new. */
  private ChunkAssembler assembler(long[] coords) throws IOException {
    List<Long> key = boxed(coords);
    ChunkAssembler a = open.get(key);
    if (a != null) {
      return a;
    }
    BitSet before = spilled.remove(key);
    a = before == null ? new ChunkAssembler(coords, chunkShape, expected(coords), layout.vars())
        : resume(coords, before);
    open.put(key, a);
    openBytes += a.bytes();
    spillBeyondBuffer(a);
    return a;
  }

  /** Elements that complete the chunk: those inside the array, or all when its extent is open. */
  private int expected(long[] coords) {
    int n = 1;
    for (int d = 0; d < rank; d++) {
      long limit = layout.dims().get(d).limit();
      long start = coords[d] * chunkShape[d];
      n *= limit < 0 ? chunkShape[d] : (int) Math.max(0, Math.min(chunkShape[d], limit - start));
    }
    return n;
  }

  /** Stages the least recently used open chunks (never {@code keep}) until the buffer has room. */
  private void spillBeyondBuffer(ChunkAssembler keep) throws IOException {
    Iterator<Map.Entry<List<Long>, ChunkAssembler>> it = open.entrySet().iterator();
    while (openBytes > bufferBytes && it.hasNext()) {
      Map.Entry<List<Long>, ChunkAssembler> e = it.next();
      if (e.getValue() == keep) {
        continue;
      }
      it.remove();
      openBytes -= e.getValue().bytes();
      flush(e.getValue());
      spilled.put(e.getKey(), e.getValue().written());
    }
  }

  /** A spilled chunk, decoded back from staging with the record of which elements it has. */
  private ChunkAssembler resume(long[] coords, BitSet written) throws IOException {
    List<WriteLayout.Var> vars = layout.vars();
    ChunkData[] chunks = new ChunkData[vars.size()];
    for (int v = 0; v < chunks.length; v++) {
      WriteLayout.Var var = vars.get(v);
      String key = chunkKey(var, coords);
      byte[] stored = staging().get(key).orElseThrow(() -> new IOException(
          "the staged part of chunk " + key + " of " + layout.location() + " is gone"));
      chunks[v] = new ZarrArray(staging(), var.path(), var.array().metadata()).decodeChunk(key, stored);
    }
    return new ChunkAssembler(coords, expected(coords), vars, chunks, written);
  }

  private void close(ChunkAssembler a) {
    open.remove(boxed(a.coords()));
    openBytes -= a.bytes();
  }

  private static String chunkKey(WriteLayout.Var var, long[] coords) {
    return StoreKeys.join(var.path(), var.array().metadata().chunkKeyEncoding().key(coords));
  }

  /** The row's position along each dimension (offsets applied), in a buffer reused for every row. */
  private long[] positions(InternalRow row) {
    long[] pos = rowPositions;
    for (int d = 0; d < rank; d++) {
      WriteLayout.Dim dim = dims[d];
      if (row.isNullAt(dim.positionOrdinal())) {
        throw new IllegalArgumentException("position column '" + dim.positionColumn()
            + "' is null; every row needs a position along each dimension");
      }
      long p = ZarrChunkFunction.longAt(row, dim.positionOrdinal(), dim.positionType()) + dim.offset();
      if (p < 0 || (dim.limit() >= 0 && p >= dim.limit())) {
        pos[d] = p;
        throw new IllegalArgumentException("position " + (p - dim.offset()) + " in column '"
            + dim.positionColumn() + "' is outside the array: dimension '" + dim.name()
            + "' has positions 0 to " + (dim.limit() >= 0 ? (dim.limit() - dim.offset() - 1) + " (option shape)" : "any")
            + " in " + layout.location());
      }
      pos[d] = p;
      if (p > maxPositions[d]) {
        maxPositions[d] = p;
      }
    }
    return pos;
  }

  private void recordCoordinates(InternalRow row, long[] pos) {
    for (int d = 0; d < rank; d++) {
      WriteLayout.Dim dim = layout.dims().get(d);
      if (!dim.hasCoordinates()) {
        continue;
      }
      Object value = row.isNullAt(dim.coordinateOrdinal()) ? null
          : dim.coordinateType().plain(row.get(dim.coordinateOrdinal(), dim.coordinateType().sparkType()));
      TreeMap<Long, Object> seen = coordinates.computeIfAbsent(d, k -> new TreeMap<>());
      if (!seen.containsKey(pos[d])) {
        seen.put(pos[d], value);
      } else if (!Objects.deepEquals(seen.get(pos[d]), value)) {
        throw new IllegalArgumentException("dimension '" + dim.name() + "' has two coordinate values at "
            + "position " + (pos[d] - dim.offset()) + ": " + seen.get(pos[d]) + " and " + value);
      }
    }
  }

  private String describe(long[] pos) {
    StringBuilder b = new StringBuilder("(");
    for (int d = 0; d < rank; d++) {
      WriteLayout.Dim dim = layout.dims().get(d);
      b.append(d == 0 ? "" : ", ").append(dim.positionColumn()).append('=').append(pos[d] - dim.offset());
    }
    return b.append(')').toString();
  }

  private static List<Long> boxed(long[] coords) {
    List<Long> out = new ArrayList<>(coords.length);
    for (long c : coords) {
      out.add(c);
    }
    return out;
  }

  /** Encodes and stages chunk {@code a} of every value array. */
  private void flush(ChunkAssembler a) throws IOException {
    for (int v = 0; v < layout.vars().size(); v++) {
      WriteLayout.Var var = layout.vars().get(v);
      ArrayMetadata md = var.array().metadata();
      String key = chunkKey(var, a.coords());
      ChunkData chunk = a.chunk(v, var.merge() ? existing(var, key) : Optional.empty());
      long start = System.nanoTime();
      byte[] encoded = md.codec().encode(chunk);
      encodeNanos += System.nanoTime() - start;
      staging().set(key, encoded);
      keys.add(key);
      chunksWritten++;
      bytesWritten += encoded.length;
    }
  }

  /**
   * Stages every chunk still open: complete or not, what the task's rows gave is all there is.
   * Unless Spark shuffled rows by chunk, other tasks may hold the rest of an incomplete one: it is
   * remembered as partial, and so are chunks spilled and never resumed.
   */
  private void flushOpen() throws IOException {
    for (ChunkAssembler a : List.copyOf(open.values())) {
      close(a);
      flush(a);
      if (!a.isComplete()) {
        spilled.put(boxed(a.coords()), a.written());
      }
    }
    current = null;
    if (!layout.grouping().shuffled()) {
      partial.putAll(spilled);
      spilled.clear();
      checkReadChunksKept();
    }
  }

  /**
   * With shuffle=auto the write skipped the shuffle because its rows come from a Zarr read whose
   * chunks it tiles, so a task should complete nearly every chunk it touches. Many partial chunks
   * mean the rows were regrouped since the read: merging them at the commit would cost far more
   * than the shuffle, so the task fails and says what to do.
   */
  private void checkReadChunksKept() {
    if (layout.grouping() == WriteLayout.RowGrouping.READ_CHUNKS
        && partial.size() > MAX_PARTIAL_CHUNKS && partial.size() > completed.size()) {
      throw new IllegalStateException("the rows written to " + layout.location() + " do not come chunk "
          + "by chunk as the Zarr read that produced them gave them (repartitioned, joined or sorted "
          + "since?): this task left " + partial.size() + " chunks partial and completed "
          + completed.size() + ". Write with option shuffle=true (Spark groups the rows by chunk), or "
          + "shuffle=false to merge the partial chunks at the commit anyway");
    }
  }

  /** Stages the mask of each partial chunk beside the attempt's directory; their keys. */
  private List<String> stagePartialMasks() throws IOException {
    List<String> out = new ArrayList<>();
    if (partial.isEmpty()) {
      return out;
    }
    HadoopStore masks = PartialChunks.masks(layout.stagingUri(), attemptDir, conf);
    for (Map.Entry<List<Long>, BitSet> e : partial.entrySet()) {
      long[] coords = e.getKey().stream().mapToLong(Long::longValue).toArray();
      byte[] bits = e.getValue().toByteArray();
      for (WriteLayout.Var var : layout.vars()) {
        String key = chunkKey(var, coords);
        masks.set(key, bits);
        out.add(key);
      }
    }
    return out;
  }

  private Optional<ChunkData> existing(WriteLayout.Var var, String key) throws IOException {
    if (target == null) {
      target = new HadoopStore(layout.storeUri(), conf);
    }
    Optional<byte[]> stored = target.get(key);
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new ZarrArray(target, var.path(), var.array().metadata()).decodeChunk(key, stored.get()));
  }

  /**
   * This attempt's own directory below the staging directory, a hidden sibling of the target: a
   * retried or speculative attempt never writes where another attempt or a reader looks, and a
   * zombie attempt still running after the job commit can only recreate that hidden directory.
   */
  private HadoopStore staging() throws IOException {
    if (staging == null) {
      staging = new HadoopStore(new Path(layout.stagingUri(), attemptDir), conf);
    }
    return staging;
  }

  /**
   * Spark 4 hands a task its rows here (it overrides DataWriter.writeAll; Spark 3.5 has no such
   * method and calls write per row): flushing the last chunk now lets the metrics count it.
   */
  public void writeAll(java.util.Iterator<InternalRow> rows) throws IOException {
    while (rows.hasNext()) {
      write(rows.next());
    }
    flushOpen();
  }

  @Override
  public ZarrCommitMessage commit() throws IOException {
    flushOpen();
    return new ZarrCommitMessage(attemptDir, List.copyOf(keys), stagePartialMasks(), maxPositions.clone(),
        coordinates);
  }

  @Override
  public void abort() throws IOException {
    current = null;
    open.clear();
    if (staging != null) {
      staging.fileSystem().delete(staging.root(), true);
      staging.fileSystem().delete(new Path(layout.stagingUri(), attemptDir + PartialChunks.MASKS_SUFFIX), true);
    }
  }

  @Override
  public void close() {}

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return new CustomTaskMetric[] {
        new MetricValue(ChunksWrittenMetric.NAME, chunksWritten),
        new MetricValue(BytesWrittenMetric.NAME, bytesWritten),
        new MetricValue(EncodeTimeMetric.NAME, encodeNanos / 1_000_000)};
  }
}
