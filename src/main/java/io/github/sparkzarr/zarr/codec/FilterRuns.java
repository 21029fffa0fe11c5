package io.github.sparkzarr.zarr.codec;

import io.github.sparkzarr.zarr.dtype.DataType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A chain's filters (v2, or a v3 chain's {@code numcodecs.*} array codecs) decoded a run of
 * elements at a time ({@link RunDecoder}) after the compressor has decoded the chunk into a reused
 * buffer: each run goes through every filter while it is in the first-level cache, then to a
 * {@link BlockSink} or to its place in a reused buffer.
 * So a chunk's filtered values are never written out whole before they are summed, and nothing is
 * allocated per chunk. Why: an int32 chunk with a Delta filter used to be written three times (the
 * compressor's new array, the filter's new array, both zeroed first) before it was read once.
 */
public final class FilterRuns {
  /** Elements per run: 32 KiB of float64, so a run and its input stay in the caches. */
  static final int RUN = 4096;

  /**
   * One filter of a chain as it decodes a run at a time: a new decoder for each chunk, and the
   * bytes of each element it decodes into.
   */
  public record Stage(Supplier<RunDecoder> decoders, int decodedSize) {}

  /** The filters that change values, in decoding order (the last one first). */
  private final List<Stage> stages;
  /** Bytes per element before the first filter decodes (what the compressor gives). */
  private final int encodedSize;
  private final int decodedSize;
  private final int widest;
  private final DecodesInto compressor;

  private FilterRuns(List<Stage> stages, int encodedSize, DecodesInto compressor) {
    this.stages = List.copyOf(stages);
    this.encodedSize = encodedSize;
    this.decodedSize = stages.get(stages.size() - 1).decodedSize();
    this.compressor = compressor;
    int w = encodedSize;
    for (Stage s : stages) {
      w = Math.max(w, s.decodedSize());
    }
    this.widest = w;
  }

  /**
   * The runs of filters that keep the number of elements, in decoding order, after {@code
   * compressor} (null for none) gives elements of {@code encodedSize} bytes; null when there are
   * no stages.
   */
  public static FilterRuns of(List<Stage> stages, int encodedSize, DecodesInto compressor) {
    return stages.isEmpty() ? null : new FilterRuns(stages, encodedSize, compressor);
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
    List<Stage> stages = new ArrayList<>();
    for (int i = codec.filters().size() - 1; i >= 0; i--) {
      ArrayFilter f = codec.filters().get(i);
      DataType decoded = codec.stageType(i);
      if (f.decodesUnchanged(decoded)) {
        continue;
      }
      if (f.runDecoder(decoded) == null) {
        return null;
      }
      stages.add(new Stage(() -> f.runDecoder(decoded), decoded.size()));
    }
    DataType encoded = codec.stageType(codec.filters().size());
    if (encoded.isVariableLength()) {
      return null;
    }
    return of(stages, encoded.size(), (DecodesInto) codec.compressor());
  }

  /** The compressor's decoded bytes for {@code count} elements: the filters' input. */
  public long encodedBytes(int count) {
    return (long) count * encodedSize;
  }

  /** The compressor, or null. */
  public DecodesInto compressor() {
    return compressor;
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
    RunDecoder[] decoders = new RunDecoder[stages.size()];
    for (int i = 0; i < decoders.length; i++) {
      decoders[i] = stages.get(i).decoders().get();
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
