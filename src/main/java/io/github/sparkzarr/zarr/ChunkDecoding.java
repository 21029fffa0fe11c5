package io.github.sparkzarr.zarr;

import io.github.sparkzarr.zarr.chunk.Transpose;
import io.github.sparkzarr.zarr.codec.BlockSink;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.ChunkCodec;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.codec.DecodesInto;
import io.github.sparkzarr.zarr.codec.FilterRuns;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscCodec;
import io.github.sparkzarr.zarr.codec.checksum.Checksum32Codec;
import io.github.sparkzarr.zarr.codec.v3.BytesToBytesCodec;
import io.github.sparkzarr.zarr.codec.v3.EndianCodec;
import io.github.sparkzarr.zarr.codec.v3.TransposeCodec;
import io.github.sparkzarr.zarr.codec.v3.V3ChunkCodec;
import io.github.sparkzarr.zarr.dtype.ByteSwapper;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How the chunks of one codec chain and shape are decoded in a scan: without allocating when the
 * chain allows (the stored bytes themselves, or into reused buffers), block by block for blosc,
 * and filters that change values a run at a time ({@link FilterRuns}). Used for an array's chunks
 * and for the inner chunks of its shards. Chunks stored with their axes in another order (v2 order
 * "F", a v3 "transpose" codec) are decoded into a scratch buffer, then permuted into C order.
 * Checksums that end a v3 chain (crc32c) are verified where the stored bytes lie.
 */
final class ChunkDecoding {
  private final ChunkCodec codec;
  private final int[] shape;
  private final int elementSize;
  /** Decoded bytes of one chunk. */
  private final int size;
  /** The chain's only codec when chunks can be decoded block by block (in their stored order), else null. */
  private final BloscCodec blockCodec;
  /** The chain's only codec when it can decode into a reused buffer, else null. */
  private final DecodesInto intoCodec;
  /** Whether the chain is plain with no compressor: stored chunks are the decoded bytes, maybe to swap. */
  private final boolean uncompressed;
  /**
   * The stored type whose big-endian parts a plain chain swaps after decompressing (a v2 ">f4",
   * a v3 "bytes" codec with endian "big"), or null when nothing is swapped.
   */
  private final DataType swapped;
  /** The C-order shape the plain chain stores a chunk in, when its axes are permuted, else null. */
  private final int[] storedShape;
  /** The permutation from {@link #storedShape} to the chunk's shape ({@link Transpose#permute}), or null. */
  private final int[] axes;
  /**
   * Checksums a plain v3 chain appends after compressing (crc32c), in decoding order: verified
   * where the stored bytes lie, then left off.
   */
  private final List<Checksum32Codec> trailers;
  /** The chain's filters decoded a run at a time after the compressor, or null. */
  private final FilterRuns filterRuns;
  /** Elements per chunk. */
  private final int count;

  ChunkDecoding(DataType type, ChunkCodec codec, int[] shape) {
    this.codec = codec;
    this.shape = shape.clone();
    this.elementSize = type.size();
    long count = 1;
    for (int s : shape) {
      count *= s;
    }
    this.size = type.isVariableLength() ? 0 : (int) Math.min(count * elementSize, Integer.MAX_VALUE);
    this.count = (int) Math.min(count, Integer.MAX_VALUE);
    boolean plain = isPlainChain(type, codec);
    this.trailers = plain && codec instanceof V3ChunkCodec v3 ? trailingChecksums(v3) : List.of();
    BytesCodec compressor = plain ? compressorOf(codec) : null;
    this.swapped = plain ? swappedType(type, codec) : null;
    this.uncompressed = plain && compressor == null;
    int[][] permutation = plain ? permutationOf(codec, shape) : null;
    this.storedShape = permutation == null ? null : permutation[0];
    this.axes = permutation == null ? null : permutation[1];
    this.blockCodec = compressor instanceof BloscCodec b ? b : null;
    this.intoCodec = compressor instanceof DecodesInto d ? d : null;
    this.filterRuns = plain || size != count * elementSize ? null
        : codec instanceof V2ChunkCodec v2 ? FilterRuns.of(v2)
        : codec instanceof V3ChunkCodec v3 ? v3.filterRuns() : null;
  }

  /**
   * Whether the chain on fixed-size elements is at most one compressor and a permutation of axes:
   * v2 in either order with no filters, or only filters that decode to what they are given
   * (bitround, quantize); v3 with at most a "transpose" codec (besides such filters), the "bytes"
   * codec and at most one bytes-to-bytes codec. Big-endian elements are swapped after decompressing (records
   * with big-endian fields are left to the codec).
   */
  private static boolean isPlainChain(DataType t, ChunkCodec codec) {
    if (t.isVariableLength() || t.kind() == DataType.Kind.STRUCT && t.needsSwap()) {
      return false;
    }
    if (codec instanceof V2ChunkCodec v2) {
      return v2.filtersDecodeUnchanged();
    }
    return codec instanceof V3ChunkCodec v3
        && (v3.arrayCodecsToDecode().isEmpty()
            || v3.arrayCodecsToDecode().size() == 1 && v3.arrayCodecsToDecode().get(0) instanceof TransposeCodec)
        && v3.bytesCodecs().size() - trailingChecksums(v3).size() <= 1
        && v3.serializer() instanceof EndianCodec e
        && (e.order() != null || t.size() == 1);
  }

  /**
   * The shape a plain chain stores a chunk of {@code shape} in and the axes that permute it back
   * ({@link Transpose#permute}), or null when it is stored in C order.
   */
  private static int[][] permutationOf(ChunkCodec codec, int[] shape) {
    if (codec instanceof V2ChunkCodec v2) {
      return v2.fortranOrder() && shape.length > 1
          ? new int[][] {Transpose.reversed(shape), Transpose.reversal(shape.length)} : null;
    }
    List<?> arrayCodecs = ((V3ChunkCodec) codec).arrayCodecsToDecode();
    if (arrayCodecs.isEmpty()) {
      return null;
    }
    TransposeCodec t = (TransposeCodec) arrayCodecs.get(0);
    return new int[][] {t.encodedShape(shape), Transpose.inverse(t.order())};
  }

  /** The stored type to swap of a plain chain, or null when its elements are little-endian. */
  private static DataType swappedType(DataType t, ChunkCodec codec) {
    if (t.size() <= 1 || t.kind() == DataType.Kind.STRUCT) {
      return null;
    }
    if (codec instanceof V2ChunkCodec) {
      return t.needsSwap() ? t : null;
    }
    EndianCodec e = (EndianCodec) ((V3ChunkCodec) codec).serializer();
    return e.order() == ByteOrder.BIG_ENDIAN ? t.withOrder(ByteOrder.BIG_ENDIAN) : null;
  }

  /** The compressor of a plain chain ({@link #isPlainChain}), or null when it has none. */
  private static BytesCodec compressorOf(ChunkCodec codec) {
    if (codec instanceof V2ChunkCodec v2) {
      return v2.compressor();
    }
    V3ChunkCodec v3 = (V3ChunkCodec) codec;
    return v3.bytesCodecs().size() == trailingChecksums(v3).size() ? null : v3.bytesCodecs().get(0).codec();
  }

  /**
   * The checksums that end a v3 chain's bytes codecs with the checksum after the data (crc32c),
   * in decoding order: the last codec first.
   */
  private static List<Checksum32Codec> trailingChecksums(V3ChunkCodec codec) {
    List<Checksum32Codec> out = new ArrayList<>();
    List<BytesToBytesCodec> bytes = codec.bytesCodecs();
    for (int i = bytes.size() - 1; i >= 0; i--) {
      if (!(bytes.get(i).codec() instanceof Checksum32Codec c && c.location() == Checksum32Codec.Location.END)) {
        break;
      }
      out.add(c);
    }
    return out;
  }

  /** The length of the stored bytes without their trailing checksums, each verified. */
  private int payloadLength(byte[] stored, int storedLength) throws CodecException {
    int length = storedLength;
    for (Checksum32Codec c : trailers) {
      length = c.verify(stored, length);
    }
    return length;
  }

  /**
   * Whether {@link #decodeBlocks} can hand out a chunk block by block (blosc alone, or filters a
   * run at a time), in C order.
   */
  boolean byBlock() {
    return (blockCodec != null || filterRuns != null) && axes == null;
  }

  /**
   * The permutation from a chunk as stored to C order ({@link Transpose#permute} of {@link
   * #storedShape}) when its axes are stored in another order and {@link #decodeAsStored} and
   * {@link #decodeBlocks} hand the chunk out as stored; else null.
   */
  int[] storedAxes() {
    return axes != null && (uncompressed || intoCodec != null) ? axes.clone() : null;
  }

  /** The C-order shape a chunk is stored in: its own, or permuted (see {@link #storedAxes}). */
  int[] storedShape() {
    return (storedShape == null ? shape : storedShape).clone();
  }

  /** Whether {@link #decodeBlocks} can hand out a chunk block by block in its stored order. */
  boolean byBlockAsStored() {
    return blockCodec != null || filterRuns != null;
  }

  /** Decoded bytes of one chunk. */
  int size() {
    return size;
  }

  /**
   * Hands the decoded bytes of {@code stored[0, storedLength)} to {@code sink}, block by block, in
   * the order they are stored ({@link #byBlockAsStored}).
   */
  void decodeBlocks(byte[] stored, int storedLength, DecodeBuffers buffers, BlockSink sink)
      throws IOException {
    if (filterRuns != null) {
      filterRuns.decode(filterInput(stored, storedLength, buffers), count, buffers, sink);
      return;
    }
    BlockSink target = swapped == null ? sink : new SwappedBlocks(sink, swapped, buffers);
    blockCodec.decodeBlocks(stored, payloadLength(stored, storedLength), size, elementSize, buffers, target);
  }

  /**
   * The decoded bytes in {@code [0, size)}, in C order: {@code stored} itself when it holds them,
   * else scratch buffer 0 of {@code buffers} when the chain decodes into a buffer (4 or 5 when its
   * filters run by run), else a new array.
   */
  byte[] decodeWhole(byte[] stored, int storedLength, DecodeBuffers buffers) throws IOException {
    if (axes == null) {
      return decodeAsStored(stored, storedLength, buffers);
    }
    byte[] decoded = decompress(stored, storedLength, buffers, 4);
    if (decoded == null) {
      return decodeByCodec(stored, storedLength);
    }
    byte[] out = buffers.get(0, size);
    Transpose.permuteInto(decoded, out, storedShape, axes, elementSize);
    return swap(out);
  }

  /**
   * As {@link #decodeWhole}, but with the axes in the order they are stored when {@link
   * #storedAxes} says so.
   */
  byte[] decodeAsStored(byte[] stored, int storedLength, DecodeBuffers buffers) throws IOException {
    if (filterRuns != null) {
      return filterRuns.decodeWhole(filterInput(stored, storedLength, buffers), count, buffers);
    }
    byte[] decoded = decompress(stored, storedLength, buffers, 0);
    if (decoded == null) {
      return decodeByCodec(stored, storedLength);
    }
    if (decoded != stored) {
      return swap(decoded);
    }
    if (swapped == null) {
      return stored;
    }
    byte[] out = buffers.get(0, size);
    System.arraycopy(stored, 0, out, 0, size);
    return swap(out);
  }

  /**
   * The decompressed bytes of a plain chain, not yet swapped nor permuted: {@code stored} itself
   * when uncompressed, else decoded into scratch buffer {@code slot}; null for any other chain,
   * or a stored chunk of the wrong size.
   */
  private byte[] decompress(byte[] stored, int storedLength, DecodeBuffers buffers, int slot)
      throws IOException {
    int length = payloadLength(stored, storedLength);
    if (uncompressed && length == size) {
      return stored;
    }
    if (intoCodec == null) {
      return null;
    }
    byte[] out = buffers.get(slot, size);
    intoCodec.decodeInto(stored, length, out, size, buffers);
    return out;
  }

  /**
   * What the filters of {@link #filterRuns} decode: the stored bytes themselves without a
   * compressor, else decoded into scratch buffer 0.
   */
  private byte[] filterInput(byte[] stored, int storedLength, DecodeBuffers buffers)
      throws IOException {
    long expected = filterRuns.encodedBytes(count);
    DecodesInto compressor = filterRuns.compressor();
    if (compressor == null) {
      if (storedLength != expected) {
        throw new CodecException("the chunk has " + storedLength + " bytes, expected " + expected
            + " for " + count + " elements before its filters");
      }
      return stored;
    }
    byte[] out = buffers.get(0, Math.toIntExact(expected));
    compressor.decodeInto(stored, storedLength, out, (int) expected, buffers);
    return out;
  }

  /** The chunk decoded by its codec chain into a new array (which reports a chunk of the wrong size). */
  private byte[] decodeByCodec(byte[] stored, int storedLength) throws IOException {
    byte[] exact = stored.length == storedLength ? stored : Arrays.copyOf(stored, storedLength);
    return codec.decode(exact, shape).bytes();
  }

  private byte[] swap(byte[] decoded) {
    if (swapped != null) {
      ByteSwapper.swapBigEndianParts(swapped, decoded, 0, size / elementSize);
    }
    return decoded;
  }

  /** Blocks of big-endian elements handed on swapped, in a scratch buffer (the block may be the stored bytes). */
  private record SwappedBlocks(BlockSink sink, DataType type, DecodeBuffers buffers) implements BlockSink {
    @Override
    public void block(byte[] buffer, int offset, int start, int length) throws IOException {
      byte[] scratch = buffers.get(3, length);
      System.arraycopy(buffer, offset, scratch, 0, length);
      ByteSwapper.swapBigEndianParts(type, scratch, 0, length / type.size());
      sink.block(scratch, 0, start, length);
    }
  }
}
