package io.github.sparkzarr.spark.write;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The job commit, on the driver, in an order that never shows half an array:
 *
 * <ol>
 *   <li>create/overwrite: delete the old metadata (consolidated first), then the old chunks — from
 *       here until step 4 readers find nothing, never old metadata over new chunks;
 *   <li>move the staged chunks of the winning task attempts into place (renames);
 *   <li>write coordinate arrays' chunks;
 *   <li>write array metadata, the group's, and consolidated metadata last.
 * </ol>
 *
 * Appends keep the old metadata until step 4, so readers see the old shape; chunks the append
 * rewrites (merged with their old elements) change one by one as they are renamed.
 */
final class JobCommitter {
  private final WritePlan plan;
  private final WriteLayout layout;
  private final HadoopStore store;
  private final FileSystem fs;
  private final Path staging;
  private boolean targetTouched;

  JobCommitter(WritePlan plan, Configuration conf) throws IOException {
    this.plan = plan;
    this.layout = plan.layout();
    this.store = new HadoopStore(layout.storeUri(), conf);
    this.fs = store.fileSystem();
    this.staging = new Path(layout.stagingUri());
  }

  void commit(List<ZarrCommitMessage> messages) throws IOException {
    Map<String, String> owner = new HashMap<>();
    for (ZarrCommitMessage m : messages) {
      for (String key : m.keys()) {
        String other = owner.put(key, m.attemptDir());
        if (other != null) {
          throw new IllegalStateException("chunk " + key + " was written by two tasks (" + other
              + " and " + m.attemptDir() + "); the input was not clustered by chunk");
        }
      }
    }
    long[] lengths = lengths(messages);
    Map<Integer, TreeMap<Long, Object>> coordinates = coordinates(messages);
    targetTouched = true;
    if (plan.mode() != WriteMode.APPEND) {
      clearTarget();
    }
    for (ZarrCommitMessage m : messages) {
      for (String key : m.keys()) {
        publish(new Path(new Path(staging, m.attemptDir()), key), key);
      }
    }
    Map<String, ArrayMetadata> coordinateArrays = writeCoordinates(coordinates, lengths);
    ArrayFormat format = plan.format();
    for (WriteLayout.Var v : layout.vars()) {
      ArrayMetadata md = v.array().metadata();
      format.writeArray(store, v.path(), md.withShape(lengths));
    }
    for (Map.Entry<String, ArrayMetadata> e : coordinateArrays.entrySet()) {
      format.writeArray(store, e.getKey(), e.getValue());
    }
    format.writeGroup(store, layout.groupPath(), plan.groupAttributes());
    format.consolidate(store);
    deleteStaging();
  }

  /** Each dimension's final length: the shape option, else the old length or the largest position + 1. */
  private long[] lengths(List<ZarrCommitMessage> messages) {
    int rank = layout.dims().size();
    long[] out = new long[rank];
    for (int d = 0; d < rank; d++) {
      WriteLayout.Dim dim = layout.dims().get(d);
      if (dim.limit() >= 0) {
        out[d] = dim.limit();
        continue;
      }
      long len = plan.baseLengths()[d];
      for (ZarrCommitMessage m : messages) {
        len = Math.max(len, m.maxPositions()[d] + 1);
      }
      out[d] = len;
    }
    return out;
  }

  private Map<Integer, TreeMap<Long, Object>> coordinates(List<ZarrCommitMessage> messages) {
    Map<Integer, TreeMap<Long, Object>> out = new HashMap<>();
    for (ZarrCommitMessage m : messages) {
      for (Map.Entry<Integer, TreeMap<Long, Object>> e : m.coordinates().entrySet()) {
        TreeMap<Long, Object> all = out.computeIfAbsent(e.getKey(), k -> new TreeMap<>());
        for (Map.Entry<Long, Object> p : e.getValue().entrySet()) {
          if (!all.containsKey(p.getKey())) {
            all.put(p.getKey(), p.getValue());
          } else if (!Objects.deepEquals(all.get(p.getKey()), p.getValue())) {
            WriteLayout.Dim dim = layout.dims().get(e.getKey());
            throw new IllegalArgumentException("dimension '" + dim.name() + "' has two coordinate "
                + "values at position " + (p.getKey() - dim.offset()) + ": " + all.get(p.getKey())
                + " and " + p.getValue());
          }
        }
      }
    }
    return out;
  }

  /** Removes the old metadata first, so no reader pairs it with new chunks, then everything else. */
  private void clearTarget() throws IOException {
    String dir = StoreKeys.dir(layout.groupPath());
    store.delete(V2Metadata.CONSOLIDATED_KEY);
    List<String> keys = store.list(dir);
    for (String key : keys) {
      if (key.endsWith(V2Metadata.CONSOLIDATED_KEY)) {
        store.delete(key);
      }
    }
    for (String key : keys) {
      if (plan.format().isMetadataKey(key)) {
        store.delete(key);
      }
    }
    store.deletePrefix(dir);
  }

  private void publish(Path from, String key) throws IOException {
    Path to = new Path(store.root(), key);
    fs.mkdirs(to.getParent());
    if (fs.exists(to)) {
      fs.delete(to, false);
    }
    if (!fs.rename(from, to)) {
      throw new IOException("cannot move staged chunk " + key + " into " + layout.location());
    }
  }

  /** Writes each coordinate array's chunks (metadata comes later) and returns its metadata. */
  private Map<String, ArrayMetadata> writeCoordinates(Map<Integer, TreeMap<Long, Object>> values,
      long[] lengths) throws IOException {
    Map<String, ArrayMetadata> out = new TreeMap<>();
    for (int d = 0; d < layout.dims().size(); d++) {
      WriteLayout.Dim dim = layout.dims().get(d);
      if (!dim.hasCoordinates()) {
        continue;
      }
      long len = lengths[d];
      ArrayMetadata old = plan.existingCoordinates().get(d);
      ArrayMetadata md;
      if (old != null) {
        md = old.withShape(new long[] {len});
      } else {
        ObjectNode attrs = plan.coordinateAttributes().get(d);
        int chunk = (int) Math.max(1, Math.min(len, WritePlanner.MAX_COORDINATE_CHUNK));
        md = plan.format().newArray(new long[] {len}, new int[] {chunk}, dim.coordinateType().zarrType(),
            dim.coordinateType().defaultFill(), plan.options().compressorConfig(), List.of(dim.name()), attrs);
      }
      String path = StoreKeys.join(layout.groupPath(), dim.name());
      TreeMap<Long, Object> v = values.get(d);
      if (v != null && !v.isEmpty()) {
        ZarrArray array = new ZarrArray(store, path, md);
        long first = v.firstKey();
        int n = Math.toIntExact(v.lastKey() - first + 1);
        ChunkData region = array.fillChunk(new int[] {n});
        ByteBuffer buf = region.holdsObjects() ? null
            : ByteBuffer.wrap(region.bytes()).order(ByteOrder.LITTLE_ENDIAN);
        for (Map.Entry<Long, Object> e : v.entrySet()) {
          int i = (int) (e.getKey() - first);
          if (e.getValue() == null) {
            continue;
          }
          if (buf == null) {
            region.objects()[i] = e.getValue();
          } else {
            dim.coordinateType().put(buf, i, e.getValue());
          }
        }
        array.write(new long[] {first}, region);
      }
      out.put(path, md);
    }
    return out;
  }

  /** After a failed job: removes the staging directory, and what a failed publish left. */
  void abort() throws IOException {
    deleteStaging();
    if (targetTouched && plan.mode() != WriteMode.APPEND) {
      // The old metadata is gone already: remove the partial new content so nothing is left.
      store.deletePrefix(StoreKeys.dir(layout.groupPath()));
      if (layout.groupPath().isEmpty() && fs.exists(store.root())
          && fs.listStatus(store.root()).length == 0) {
        fs.delete(store.root(), false);
      }
    }
  }

  private void deleteStaging() throws IOException {
    fs.delete(staging, true);
  }
}
