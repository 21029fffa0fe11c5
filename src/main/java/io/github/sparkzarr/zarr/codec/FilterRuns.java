package io.github.sparkzarr.zarr.codec;

import io.github.sparkzarr.zarr.dtype.DataType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A v2 chain's filters decoded a run of elements at a time ({@link RunDecoder}) after the
 * compressor has decoded the chunk into a reused buffer: each run goes through every filter while
 * it is in the first-level cache, then to a {@link BlockSink} or to its place in a reused buffer.
 * So a chunk's filtered values are never written out whole before they are summed, and nothing is
 * allocated per chunk. Why: an int32 chunk with a Delta filter used to be written three times (the
 * compressor's new array, the filter's new array, both zeroed first) before it was read once.
 */
public final class FilterRuns {
  /** Elements per run: 32 KiB of float64, so a run and its input stay in the caches. */
  static final int RUN = 4096;

  private final V2ChunkCodec codec;
  /** The filters that change values, in decoding order (the last one first). */
  private final List<ArrayFilter> filters;
  /** The type each of {@link #filters} decodes into. */
  private final List<DataType> decodedTypes;
  /** Bytes per element before the first filter decodes (what the compressor gives). */
  private final int encodedSize;
  private final int decodedSize;
  private final int widest;

  private FilterRuns(V2ChunkCodec codec, List<ArrayFilter> filters, List<DataType> decodedTypes,
      int encodedSize) {
    this.codec = codec;
    this.filters = filters;
    this.decodedTypes = decodedTypes;
    this.encodedSize = encodedSize;
    this.decodedSize = codec.storageType().size();
    int w = encodedSize;
    for (DataType t : decodedTypes) {
      w = Math.max(w, t.size());
    }
    this.widest = w;
  }

  /**
   * The runs of {@code codec}'s filters, or null when some filter that changes values decodes its
   * types only whole, or the chain does not suit: elements of variable length, records, a
   * big-endian dtype, order "F", a compressor that cannot decode into a buffer.
   */
  public static FilterRuns of(V2ChunkCodec codec) {
    DataType type = codec.storageType();
    if (type.isVariableLength() || type.kind() == DataType.Kind.STRUCT || type.needsSwap()
        || codec.fortranOrder() || codec.filters().isEmpty()
        || codec.compressor() != null && !(codec.compressor() instanceof DecodesInto)) {
      return null;
    }
    List<ArrayFilter> filters = new ArrayList<>();
    List<DataType> decodedTypes = new ArrayList<>();
    for (int i = codec.filters().size() - 1; i >= 0; i--) {
      ArrayFilter f = codec.filters().get(i);
      DataType decoded = codec.stageType(i);
      if (f.decodesUnchanged(decoded)) {
        continue;
      }
      if (f.runDecoder(decoded) == null) {
        return null;
      }
      filters.add(f);
      decodedTypes.add(decoded);
    }
    DataType encoded = codec.stageType(codec.filters().size());
    if (filters.isEmpty() || encoded.isVariableLength()) {
      return null;
    }
    return new FilterRuns(codec, filters, decodedTypes, encoded.size());
  }

  /** The compressor's decoded bytes for {@code count} elements: the filters' input. */
  public long encodedBytes(int count) {
    return (long) count * encodedSize;
  }

  /** The compressor, or null. */
  public DecodesInto compressor() {
    return (DecodesInto) codec.compressor();
  }

  /**
   * Hands the decoded bytes of {@code count} elements, whose filter input is {@code in[0, ...)},
   * to {@code sink} a run at a time, in order.
   */
  public void decode(byte[] in, int count, DecodeBuffers buffers, BlockSink sink) throws IOException {
    decode(in, count, buffers, sink, null);
  }

  /**
   * Decodes {@code count} elements whose filter input is {@code in[0, ...)} into scratch buffer 5
   * of {@code buffers}, and returns it.
   */
  public byte[] decodeWhole(byte[] in, int count, DecodeBuffers buffers) throws IOException {
    byte[] out = buffers.get(5, Math.toIntExact((long) count * decodedSize));
    decode(in, count, buffers, null, out);
    return out;
  }

  /** Runs into {@code sink}, or into {@code whole} at their places when it is not null. */
  private void decode(byte[] in, int count, DecodeBuffers buffers, BlockSink sink, byte[] whole)
      throws IOException {
    RunDecoder[] decoders = new RunDecoder[filters.size()];
    for (int i = 0; i < decoders.length; i++) {
      decoders[i] = filters.get(i).runDecoder(decodedTypes.get(i));
    }
    byte[][] scratch = {buffers.get(6, RUN * widest), buffers.get(7, RUN * widest)};
    int last = decoders.length - 1;
    for (int first = 0; first < count; first += RUN) {
      int n = Math.min(RUN, count - first);
      byte[] src = in;
      int srcOffset = first * encodedSize;
      for (int i = 0; i <= last; i++) {
        boolean toWhole = i == last && whole != null;
        byte[] dst = toWhole ? whole : scratch[i & 1];
        int dstOffset = toWhole ? first * decodedSize : 0;
        decoders[i].decode(src, srcOffset, dst, dstOffset, n);
        src = dst;
        srcOffset = dstOffset;
      }
      if (sink != null) {
        sink.block(src, 0, first * decodedSize, n * decodedSize);
      }
    }
  }
}
