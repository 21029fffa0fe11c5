package io.github.sparkzarr.zarr.codec;

import io.github.sparkzarr.zarr.codec.blosc.ByteShuffle;
import io.github.sparkzarr.zarr.codec.filter.Shuffle;
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

  /** The filters that change values, in decoding order (the last one first), after {@link #unshuffle}. */
  private final List<Stage> stages;
  /**
   * The element size of a numcodecs Shuffle decoded first (right after the compressor), or 0:
   * the compressor's output is then one byte-shuffled block of the whole chunk, which aggregates
   * read as it is when no other filter follows (as they read blosc's shuffled blocks).
   */
  private final int unshuffle;
  /** Bytes per element before the first filter decodes (what the compressor gives). */
  private final int encodedSize;
  private final int decodedSize;
  private final int widest;
  private final DecodesInto compressor;

  private FilterRuns(List<Stage> stages, int unshuffle, int encodedSize, DecodesInto compressor) {
    this.stages = List.copyOf(stages);
    this.unshuffle = unshuffle;
    this.encodedSize = encodedSize;
    this.decodedSize = stages.isEmpty() ? encodedSize : stages.get(stages.size() - 1).decodedSize();
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
    return of(stages, 0, encodedSize, compressor);
  }

  /**
   * As {@link #of(List, int, DecodesInto)}, with a numcodecs Shuffle of elements of {@code
   * unshuffle} bytes (0 for none) decoded before the stages.
   */
  private static FilterRuns of(List<Stage> stages, int unshuffle, int encodedSize, DecodesInto compressor) {
    return stages.isEmpty() && unshuffle == 0 ? null : new FilterRuns(stages, unshuffle, encodedSize, compressor);
  }

  /**
   * The runs of {@code codec}'s filters, after a numcodecs Shuffle of the dtype's element size when
   * it is the first to decode, or null when some other filter that changes values decodes its
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
    int unshuffle = 0;
    for (int i = codec.filters().size() - 1; i >= 0; i--) {
      ArrayFilter f = codec.filters().get(i);
      DataType decoded = codec.stageType(i);
      if (f.decodesUnchanged(decoded)) {
        continue;
      }
      if (stages.isEmpty() && unshuffle == 0 && f instanceof Shuffle shuffle
          && shuffle.elementSize() == decoded.size() && decoded.size() > 1 && !decoded.isVariableLength()) {
        unshuffle = decoded.size();
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
    return of(stages, unshuffle, unshuffle > 0 ? unshuffle : encoded.size(), (DecodesInto) codec.compressor());
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
   * of {@code buffers} (4 when a Shuffle is the only filter), and returns it.
   */
  public byte[] decodeWhole(byte[] in, int count, DecodeBuffers buffers) throws IOException {
    in = unshuffled(in, count, buffers);
    if (stages.isEmpty()) {
      return in;
    }
    byte[] out = buffers.get(5, Math.toIntExact((long) count * decodedSize));
    decode(in, count, buffers, null, out);
    return out;
  }

  /** The filters' input with {@link #unshuffle} undone, in scratch buffer 4 (or {@code in} itself). */
  private byte[] unshuffled(byte[] in, int count, DecodeBuffers buffers) {
    if (unshuffle == 0) {
      return in;
    }
    int bytes = Math.toIntExact((long) count * unshuffle);
    byte[] out = buffers.get(4, bytes);
    ByteShuffle.unshuffle(unshuffle, bytes, in, 0, out, 0);
    return out;
  }

  /** Runs into {@code sink}, or into {@code whole} at their places when it is not null. */
  private void decode(byte[] in, int count, DecodeBuffers buffers, BlockSink sink, byte[] whole)
      throws IOException {
    if (sink != null && unshuffle > 0) {
      if (stages.isEmpty() && sink.readsByteShuffled(unshuffle)) {
        sink.byteShuffledBlock(in, 0, 0, count * unshuffle, unshuffle);
        return;
      }
      in = unshuffled(in, count, buffers);
      if (stages.isEmpty()) {
        sink.block(in, 0, 0, count * unshuffle);
        return;
      }
    }
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
