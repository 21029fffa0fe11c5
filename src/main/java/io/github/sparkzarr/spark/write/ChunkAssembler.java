package io.github.sparkzarr.spark.write;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import java.nio.ByteBuffer;
import org.apache.spark.sql.catalyst.InternalRow;
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
  private final long[] origin;
  private final int[] shape;
  private final List<WriteLayout.Var> vars;
  private final ChunkData[] chunks;
  private final ByteBuffer[] views;
  private final BitSet written;
  private final int expected;
  private int claimed;

  /**
   * An empty chunk.
   *
   * @param expected how many elements make it complete: those inside the array, or all of the
   *     chunk when the array's extent is not known yet
   */
  ChunkAssembler(long[] coords, int[] chunkShape, int expected, List<WriteLayout.Var> vars) {
    this(coords, expected, vars, fillChunks(chunkShape, vars),
        new BitSet(Math.toIntExact(io.github.sparkzarr.zarr.chunk.ChunkData.count(chunkShape))));
  }

  /** A chunk resumed from what was staged of it: its elements so far and which rows wrote them. */
  ChunkAssembler(long[] coords, int expected, List<WriteLayout.Var> vars, ChunkData[] chunks,
      BitSet written) {
    this.coords = coords;
    this.shape = chunks[0].shape();
    this.origin = new long[coords.length];
    for (int d = 0; d < coords.length; d++) {
      origin[d] = coords[d] * shape[d];
    }
    this.vars = vars;
    this.chunks = chunks;
    this.expected = expected;
    this.written = written;
    this.claimed = written.cardinality();
    this.views = new ByteBuffer[vars.size()];
    for (int v = 0; v < chunks.length; v++) {
      if (!chunks[v].holdsObjects()) {
        views[v] = ByteBuffer.wrap(chunks[v].bytes()).order(ByteOrder.LITTLE_ENDIAN);
      }
    }
  }

  private static ChunkData[] fillChunks(int[] chunkShape, List<WriteLayout.Var> vars) {
    ChunkData[] out = new ChunkData[vars.size()];
    for (int v = 0; v < out.length; v++) {
      ArrayMetadata md = vars.get(v).array().metadata();
      out[v] = new ZarrArray(null, vars.get(v).path(), md).fillChunk(chunkShape);
    }
    return out;
  }

  long[] coords() {
    return coords;
  }

  /**
   * The C-order index within this chunk of the element at {@code positions}, or -1 when it lies
   * in another chunk: rows mostly come chunk by chunk, and this needs no division.
   */
  int indexOf(long[] positions) {
    int index = 0;
    for (int d = 0; d < shape.length; d++) {
      long offset = positions[d] - origin[d];
      if (offset < 0 || offset >= shape[d]) {
        return -1;
      }
      index = index * shape[d] + (int) offset;
    }
    return index;
  }

  /** Marks element {@code index} written; false if a row already wrote it. */
  boolean claim(int index) {
    if (written.get(index)) {
      return false;
    }
    written.set(index);
    claimed++;
    return true;
  }

  /** Whether every element the chunk expects has been written. */
  boolean isComplete() {
    return claimed >= expected;
  }

  /** Which elements rows wrote. */
  BitSet written() {
    return written;
  }

  /** About what the chunk holds in memory (objects counted at a rough 32 bytes each). */
  long bytes() {
    long total = expected / 8;
    for (ChunkData c : chunks) {
      total += c.holdsObjects() ? 32L * c.elementCount() : c.bytes().length;
    }
    return total;
  }

  /** Sets element {@code index} of variable-length variable {@code v} (a String or byte[]). */
  void set(int v, int index, Object value) {
    chunks[v].objects()[index] = value;
  }

  /** Sets element {@code index} of fixed-size variable {@code v} from a non-null column of {@code row}. */
  void copy(int v, int index, InternalRow row, int ordinal) {
    vars.get(v).type().copy(row, ordinal, views[v], index);
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
