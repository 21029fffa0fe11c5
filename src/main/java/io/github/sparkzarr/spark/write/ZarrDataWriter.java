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
import java.util.HashSet;
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
 * One task: rows arrive sorted by chunk, so each chunk is assembled, encoded and staged as soon as
 * the next chunk starts; memory holds one chunk per value array.
 */
final class ZarrDataWriter implements DataWriter<InternalRow> {
  private final WriteLayout layout;
  private final Configuration conf;
  private final String attemptDir;
  private final int rank;
  private final int[] chunkShape;
  private final long[] maxPositions;
  private final Map<Integer, TreeMap<Long, Object>> coordinates = new HashMap<>();
  private final List<String> keys = new ArrayList<>();
  private final Set<List<Long>> done = new HashSet<>();
  private HadoopStore staging;
  private HadoopStore target;
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
  }

  @Override
  public void write(InternalRow row) throws IOException {
    long[] pos = positions(row);
    long[] chunk = new long[rank];
    int index = 0;
    for (int d = 0; d < rank; d++) {
      chunk[d] = pos[d] / chunkShape[d];
      index = index * chunkShape[d] + (int) (pos[d] - chunk[d] * chunkShape[d]);
      maxPositions[d] = Math.max(maxPositions[d], pos[d]);
    }
    if (current == null || !Arrays.equals(current.coords(), chunk)) {
      flush();
      if (!done.add(boxed(chunk))) {
        throw new IllegalStateException("rows of chunk " + Arrays.toString(chunk)
            + " arrived after the chunk was written: the input is not sorted by chunk");
      }
      current = new ChunkAssembler(chunk, chunkShape, layout.vars());
    }
    if (!current.claim(index)) {
      throw new IllegalArgumentException("duplicate position " + describe(pos)
          + ": two rows give a value for the same element of " + layout.location());
    }
    List<WriteLayout.Var> vars = layout.vars();
    for (int v = 0; v < vars.size(); v++) {
      WriteLayout.Var var = vars.get(v);
      Object value = row.isNullAt(var.ordinal()) ? null
          : var.type().plain(row.get(var.ordinal(), var.type().sparkType()));
      if (value == null && !var.type().isVariableLength() && var.array().metadata().fillValue().isNull()) {
        throw new IllegalArgumentException("column '" + var.column() + "' is null at " + describe(pos)
            + ", but its array has no fill value to store for a null (the default for "
            + var.type().sparkType().simpleString() + " columns); give option fill_value");
      }
      current.set(v, index, value);
    }
    recordCoordinates(row, pos);
  }

  private long[] positions(InternalRow row) {
    long[] pos = new long[rank];
    for (int d = 0; d < rank; d++) {
      WriteLayout.Dim dim = layout.dims().get(d);
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

  /** Encodes and stages the current chunk of every value array. */
  private void flush() throws IOException {
    if (current == null) {
      return;
    }
    for (int v = 0; v < layout.vars().size(); v++) {
      WriteLayout.Var var = layout.vars().get(v);
      ArrayMetadata md = var.array().metadata();
      String key = StoreKeys.join(var.path(), md.chunkKeyEncoding().key(current.coords()));
      ChunkData chunk = current.chunk(v, var.merge() ? existing(var, key) : Optional.empty());
      long start = System.nanoTime();
      byte[] encoded = md.codec().encode(chunk);
      encodeNanos += System.nanoTime() - start;
      staging().set(key, encoded);
      keys.add(key);
      chunksWritten++;
      bytesWritten += encoded.length;
    }
    current = null;
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
    flush();
  }

  @Override
  public ZarrCommitMessage commit() throws IOException {
    flush();
    return new ZarrCommitMessage(attemptDir, List.copyOf(keys), maxPositions.clone(), coordinates);
  }

  @Override
  public void abort() throws IOException {
    current = null;
    if (staging != null) {
      staging.fileSystem().delete(staging.root(), true);
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
