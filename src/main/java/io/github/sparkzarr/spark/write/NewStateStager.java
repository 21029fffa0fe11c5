package io.github.sparkzarr.spark.write;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.metadata.V3Metadata;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds the target's state after a job in the staging directory, through a {@link StagedStore},
 * without touching the target: marks the old keys the write drops, writes the coordinate arrays'
 * chunks, the array and group metadata, and consolidated metadata computed over the new state.
 */
final class NewStateStager {
  private final WritePlan plan;
  private final WriteLayout layout;

  NewStateStager(WritePlan plan) {
    this.plan = plan;
    this.layout = plan.layout();
  }

  /**
   * Stages the state after the tasks that sent {@code messages}.
   *
   * @param old the keys below the group now
   */
  void stage(StagedStore next, List<ZarrCommitMessage> messages, Set<String> old) throws IOException {
    long[] lengths = lengths(messages);
    Map<Integer, TreeMap<Long, Object>> coordinates = coordinates(messages);
    forgetOld(next, old);
    Map<String, ArrayMetadata> coordinateArrays = writeCoordinates(next, coordinates, lengths);
    writeMetadata(next, lengths, coordinateArrays);
  }

  /**
   * Marks what the new state drops: everything an overwrite replaces (and the store's root
   * {@code .zmetadata}, which would describe it), and any consolidated document inside the
   * group, which would go stale.
   */
  private void forgetOld(StagedStore next, Set<String> old) throws IOException {
    boolean overwrite = plan.mode() != WriteMode.APPEND;
    for (String key : old) {
      if (overwrite || KeyKind.of(key) == KeyKind.CONSOLIDATED && !key.equals(V3Metadata.KEY)) {
        next.delete(key);
      }
    }
    if (overwrite) {
      next.delete(V2Metadata.CONSOLIDATED_KEY);
    }
  }

  /** Writes array metadata, the group's, and consolidated metadata of the new state. */
  private void writeMetadata(StagedStore next, long[] lengths, Map<String, ArrayMetadata> coordinateArrays)
      throws IOException {
    ArrayFormat format = plan.format();
    for (WriteLayout.Var v : layout.vars()) {
      format.writeArray(next, v.path(), v.array().metadata().withShape(lengths));
    }
    for (Map.Entry<String, ArrayMetadata> e : coordinateArrays.entrySet()) {
      format.writeArray(next, e.getKey(), e.getValue());
    }
    format.writeGroup(next, layout.groupPath(), plan.groupAttributes());
    format.consolidate(next);
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

  /** Writes each coordinate array's chunks (metadata comes later) and returns its metadata. */
  private Map<String, ArrayMetadata> writeCoordinates(StagedStore next,
      Map<Integer, TreeMap<Long, Object>> values, long[] lengths) throws IOException {
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
            dim.coordinateType().defaultFill(), plan.options().compressorConfig(), List.of(), List.of(dim.name()),
            attrs);
      }
      String path = StoreKeys.join(layout.groupPath(), dim.name());
      TreeMap<Long, Object> v = values.get(d);
      if (v != null && !v.isEmpty()) {
        ZarrArray array = new ZarrArray(next, path, md);
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
}
