package io.github.sparkzarr.zarr.codec.v3;

import io.github.sparkzarr.zarr.codec.CodecException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * A shard's index: for each inner chunk (C order) its offset and length in the shard, or
 * "missing" (both 2^64-1). Parsing checks every entry lies inside the shard's data and that no
 * two entries overlap, so a corrupt index cannot make us read elsewhere.
 */
final class ShardIndex {
  static final long MISSING = -1L;
  private final long[] offsets;
  private final long[] lengths;

  private ShardIndex(long[] offsets, long[] lengths) {
    this.offsets = offsets;
    this.lengths = lengths;
  }

  /** An index with every inner chunk missing. */
  static ShardIndex empty(int count) {
    long[] o = new long[count];
    long[] n = new long[count];
    Arrays.fill(o, MISSING);
    Arrays.fill(n, MISSING);
    return new ShardIndex(o, n);
  }

  boolean isMissing(int chunk) {
    return offsets[chunk] == MISSING && lengths[chunk] == MISSING;
  }

  long offset(int chunk) {
    return offsets[chunk];
  }

  int length(int chunk) {
    return (int) lengths[chunk];
  }

  void set(int chunk, long offset, long length) {
    offsets[chunk] = offset;
    lengths[chunk] = length;
  }

  int count() {
    return offsets.length;
  }

  /** Little-endian uint64 pairs, as the "bytes" codec sees the index array. */
  byte[] toLittleEndian() {
    ByteBuffer b = ByteBuffer.allocate(offsets.length * 16).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < offsets.length; i++) {
      b.putLong(offsets[i]).putLong(lengths[i]);
    }
    return b.array();
  }

  /**
   * Reads a decoded index (little-endian uint64 pairs) and checks it against the shard's data,
   * which lies in {@code [dataStart, dataEnd)}.
   */
  static ShardIndex parse(byte[] le, int count, long dataStart, long dataEnd) throws CodecException {
    if (le.length != count * 16L) {
      throw new CodecException("sharding_indexed: the shard index decodes to " + le.length
          + " bytes, expected " + count * 16L);
    }
    ByteBuffer b = ByteBuffer.wrap(le).order(ByteOrder.LITTLE_ENDIAN);
    long[] o = new long[count];
    long[] n = new long[count];
    for (int i = 0; i < count; i++) {
      o[i] = b.getLong();
      n[i] = b.getLong();
    }
    ShardIndex index = new ShardIndex(o, n);
    index.check(dataStart, dataEnd);
    return index;
  }

  private void check(long dataStart, long dataEnd) throws CodecException {
    for (int i = 0; i < offsets.length; i++) {
      if (isMissing(i)) {
        continue;
      }
      long o = offsets[i];
      long n = lengths[i];
      if (o < dataStart || n < 0 || n > Integer.MAX_VALUE - 16 || o > dataEnd - n) {
        throw new CodecException("sharding_indexed: the index entry of inner chunk " + i
            + " (offset " + Long.toUnsignedString(o) + ", length " + Long.toUnsignedString(n)
            + ") points outside the shard's data [" + dataStart + ", " + dataEnd + ")");
      }
    }
    int[] present = IntStream.range(0, offsets.length).filter(i -> !isMissing(i)).boxed()
        .sorted(Comparator.comparingLong(i -> offsets[i])).mapToInt(Integer::intValue).toArray();
    for (int k = 1; k < present.length; k++) {
      int prev = present[k - 1];
      int cur = present[k];
      if (offsets[prev] + lengths[prev] > offsets[cur]) {
        throw new CodecException("sharding_indexed: the index entries of inner chunks " + prev
            + " and " + cur + " overlap");
      }
    }
  }
}
