package io.github.sparkzarr.spark.write;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * One chunk of every value array, filled element by element from rows. Elements no row gave keep
 * the fill value, or the old element when an existing chunk is merged.
 */
final class ChunkAssembler {
  private final long[] coords;
  private final List<WriteLayout.Var> vars;
  private final ChunkData[] chunks;
  private final ByteBuffer[] views;
  private final BitSet written = new BitSet();

  ChunkAssembler(long[] coords, int[] chunkShape, List<WriteLayout.Var> vars) {
    this.coords = coords;
    this.vars = vars;
    this.chunks = new ChunkData[vars.size()];
    this.views = new ByteBuffer[vars.size()];
    for (int v = 0; v < chunks.length; v++) {
      ArrayMetadata md = vars.get(v).array().metadata();
      chunks[v] = new ZarrArray(null, vars.get(v).path(), md).fillChunk(chunkShape);
      if (!chunks[v].holdsObjects()) {
        views[v] = ByteBuffer.wrap(chunks[v].bytes()).order(ByteOrder.LITTLE_ENDIAN);
      }
    }
  }

  long[] coords() {
    return coords;
  }

  /** Marks element {@code index} written; false if a row already wrote it. */
  boolean claim(int index) {
    if (written.get(index)) {
      return false;
    }
    written.set(index);
    return true;
  }

  /** Sets element {@code index} of variable {@code v}; null keeps the fill value. */
  void set(int v, int index, Object value) {
    if (value == null) {
      return;
    }
    if (views[v] == null) {
      chunks[v].objects()[index] = value;
    } else {
      vars.get(v).type().put(views[v], index, value);
    }
  }

  /** The assembled chunk of variable {@code v}, with unwritten elements taken from {@code old}. */
  ChunkData chunk(int v, Optional<ChunkData> old) {
    ChunkData out = chunks[v];
    if (old.isPresent()) {
      int n = out.elementCount();
      if (out.holdsObjects()) {
        Object[] from = old.get().objects();
        Object[] to = out.objects();
        for (int i = written.nextClearBit(0); i < n; i = written.nextClearBit(i + 1)) {
          to[i] = from[i];
        }
      } else {
        int size = out.type().size();
        byte[] from = old.get().bytes();
        byte[] to = out.bytes();
        for (int i = written.nextClearBit(0); i < n; i = written.nextClearBit(i + 1)) {
          System.arraycopy(from, i * size, to, i * size, size);
        }
      }
    }
    return out;
  }
}
