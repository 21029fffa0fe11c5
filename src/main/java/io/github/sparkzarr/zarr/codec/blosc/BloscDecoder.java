package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.BlockSink;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.codec.DecodeLimit;
import java.io.IOException;

/**
 * Decodes one blosc1 frame, following libblosc 1.21's blosc_d: after the header come nblocks
 * int32 block offsets, then per block one stream (or typesize streams when split), each an int32
 * compressed size and its bytes; a size equal to the stream's decoded size means stored raw.
 * Unlike libblosc, every offset and size is checked, and the frame must be exactly cbytes long.
 */
final class BloscDecoder {
  private final byte[] frame;
  /** The frame's length: the array may be longer (a buffer reused from chunk to chunk). */
  private final int frameLength;
  private final BloscHeader header;
  /** The whole decoded frame, or null when blocks go to {@link #sink}. */
  private final byte[] out;
  /** Receives each decoded block when {@link #out} is null. */
  private final BlockSink sink;
  private final DecodeBuffers buffers;
  /** Holds a block's streams before they are unshuffled into the output. */
  private byte[] shuffled;

  private BloscDecoder(byte[] frame, BloscHeader header, byte[] out, BlockSink sink,
      DecodeBuffers buffers) {
    this.frame = frame;
    this.frameLength = header.cbytes(); // check() made sure the frame is that long
    this.header = header;
    this.out = out;
    this.sink = sink;
    this.buffers = buffers;
  }

  /**
   * @param decodedSize the expected decoded length, or -1 when unknown
   */
  static byte[] decode(byte[] frame, int decodedSize) throws CodecException {
    BloscHeader header = check(frame, frame.length, decodedSize);
    byte[] out = new byte[header.nbytes()];
    decodeWhole(frame, header, out, null);
    return out;
  }

  /**
   * Decodes a frame ({@code frame[0, frameLength)}) of exactly {@code size} bytes into {@code
   * out[0, size)}; either array may be longer.
   */
  static void decodeInto(byte[] frame, int frameLength, byte[] out, int size)
      throws CodecException {
    decodeInto(frame, frameLength, out, size, null);
  }

  /** As {@link #decodeInto(byte[], int, byte[], int)}, a shuffled block held in scratch buffer 1. */
  static void decodeInto(byte[] frame, int frameLength, byte[] out, int size, DecodeBuffers scratch)
      throws CodecException {
    decodeWhole(frame, check(frame, frameLength, size), out, scratch);
  }

  private static void decodeWhole(byte[] frame, BloscHeader header, byte[] out, DecodeBuffers scratch)
      throws CodecException {
    if (header.nbytes() == 0) {
      return;
    }
    BloscDecoder decoder = new BloscDecoder(frame, header, out, null, scratch);
    if (header.memcpyed()) {
      decoder.copyStored();
      return;
    }
    try {
      decoder.decodeBlocks();
    } catch (CodecException e) {
      throw e;
    } catch (IOException e) {
      throw new CodecException("blosc: " + e.getMessage(), e); // only sinks throw others
    }
  }

  /**
   * Decodes a frame of exactly {@code decodedSize} bytes and hands it to {@code sink} block by
   * block, in order, each block as soon as it is decoded. Blocks start and end on element
   * boundaries ({@code elementSize}); a frame whose blocks do not is decoded whole and handed out
   * as one block, and so is a stored (memcpyed) frame, straight from the frame.
   */
  static void decodeBlocks(byte[] frame, int frameLength, int decodedSize, int elementSize,
      DecodeBuffers buffers, BlockSink sink) throws IOException {
    BloscHeader header = check(frame, frameLength, decodedSize);
    if (header.nbytes() == 0) {
      return;
    }
    if (header.memcpyed()) {
      new BloscDecoder(frame, header, null, null, null).checkStoredSize();
      sink.block(frame, BloscHeader.SIZE, 0, header.nbytes());
      return;
    }
    if (elementSize <= 0 || header.blockSize() % elementSize != 0) {
      byte[] whole = new byte[header.nbytes()];
      new BloscDecoder(frame, header, whole, null, null).decodeBlocks();
      sink.block(whole, 0, 0, whole.length);
      return;
    }
    new BloscDecoder(frame, header, null, sink, buffers).decodeBlocks();
  }

  /**
   * Reads the header and checks it against the frame ({@code frame[0, frameLength)}) and the
   * expected size. A header that passes says the frame is {@code frameLength} bytes (cbytes).
   */
  private static BloscHeader check(byte[] frame, int frameLength, int decodedSize)
      throws CodecException {
    BloscHeader header = BloscHeader.read(frame, frameLength);
    if (decodedSize >= 0 && header.nbytes() != decodedSize) {
      throw new CodecException(
          "blosc: the header's decoded size (nbytes) is "
              + header.nbytes()
              + " bytes but "
              + decodedSize
              + " were expected");
    }
    if (decodedSize < 0) {
      DecodeLimit.checkDeclared("blosc", header.nbytes());
    }
    if (header.cbytes() != frameLength) {
      throw new CodecException(
          "blosc: header says the frame has "
              + Integer.toUnsignedString(header.cbytes())
              + " bytes but it has "
              + frameLength
              + (header.cbytes() > frameLength ? " (truncated)" : ""));
    }
    if (header.nbytes() != 0) {
      checkGeometry(header);
    }
    return header;
  }

  private static void checkGeometry(BloscHeader h) throws CodecException {
    if (h.typeSize() == 0) {
      throw new CodecException("blosc: typesize 0 in header");
    }
    if (h.blockSize() <= 0 || h.blockSize() > h.nbytes()) {
      throw new CodecException(
          "blosc: blocksize "
              + Integer.toUnsignedString(h.blockSize())
              + " is not within 1.."
              + h.nbytes()
              + " (nbytes)");
    }
  }

  private void copyStored() throws CodecException {
    checkStoredSize();
    System.arraycopy(frame, BloscHeader.SIZE, out, 0, header.nbytes());
  }

  private void checkStoredSize() throws CodecException {
    if (header.cbytes() - BloscHeader.SIZE != header.nbytes()) {
      throw new CodecException(
          "blosc: uncompressed frame holds "
              + (header.cbytes() - BloscHeader.SIZE)
              + " bytes but nbytes is "
              + header.nbytes());
    }
  }

  private void decodeBlocks() throws IOException {
    int blockSize = header.blockSize();
    int nbytes = header.nbytes();
    int nblocks = nbytes / blockSize + (nbytes % blockSize > 0 ? 1 : 0);
    if (nblocks > (frameLength - BloscHeader.SIZE) / 4) {
      throw new CodecException(
          "blosc: frame of " + frameLength + " bytes is too short for " + nblocks + " offsets");
    }
    try (InnerCodec codec = BloscCname.newDecoder(header.compressorFormat())) {
      for (int j = 0; j < nblocks; j++) {
        int start = j * blockSize;
        int bsize = Math.min(blockSize, nbytes - start);
        int offset = LittleEndian.readInt(frame, BloscHeader.SIZE + 4 * j);
        decodeBlock(codec, j, offset, start, bsize, bsize < blockSize);
      }
    }
  }

  private void decodeBlock(
      InnerCodec codec, int index, int offset, int start, int bsize, boolean leftover)
      throws IOException {
    boolean byteShuffled = header.byteShuffled();
    boolean bitShuffled = header.bitShuffled(bsize);
    int typeSize = header.typeSize();
    int nstreams =
        !header.dontSplit() && !leftover && BlockSizes.splittable(typeSize, bsize) ? typeSize : 1;
    if (bsize % nstreams != 0) {
      throw new CodecException(
          "blosc: block " + index + " of " + bsize + " bytes cannot split into " + nstreams);
    }
    int streamSize = bsize / nstreams;
    byte[] target = out;
    int targetOff = start;
    if (byteShuffled || bitShuffled) {
      if (shuffled == null) {
        // Decoding whole, buffer 0 may be the caller's output: the block waits in buffer 1.
        shuffled = buffers == null ? new byte[header.blockSize()]
            : buffers.get(out == null ? 0 : 1, header.blockSize());
      }
      target = shuffled;
      targetOff = 0;
    } else if (out == null) {
      target = buffers.get(1, header.blockSize());
      targetOff = 0;
    }
    int pos = offset;
    for (int s = 0; s < nstreams; s++) {
      if (pos < 0 || pos > frameLength - 4) {
        throw new CodecException(
            "blosc: block " + index + " stream " + s + " offset " + pos + " is out of the frame");
      }
      int csize = LittleEndian.readInt(frame, pos);
      pos += 4;
      if (csize < 0 || csize > frameLength - pos) {
        throw new CodecException(
            "blosc: block "
                + index
                + " stream "
                + s
                + " claims "
                + Integer.toUnsignedString(csize)
                + " bytes, only "
                + (frameLength - pos)
                + " remain");
      }
      int dst = targetOff + s * streamSize;
      if (csize == streamSize) {
        System.arraycopy(frame, pos, target, dst, streamSize);
      } else {
        codec.decompress(frame, pos, csize, target, dst, streamSize);
      }
      pos += csize;
    }
    if (out != null) {
      if (byteShuffled) {
        ByteShuffle.unshuffle(typeSize, bsize, shuffled, 0, out, start);
      } else if (bitShuffled) {
        BitShuffle.unshuffle(typeSize, bsize, shuffled, 0, out, start);
      }
      return;
    }
    if (byteShuffled && bsize % typeSize == 0 && sink.readsByteShuffled(typeSize)) {
      sink.byteShuffledBlock(shuffled, 0, start, bsize, typeSize);
      return;
    }
    int elements = bsize / typeSize;
    if (bitShuffled && bsize % typeSize == 0 && elements % 8 == 0 && sink.readsByteShuffled(typeSize)) {
      // The bit transpose alone leaves the byte shuffle's layout, which the sink reads as it is.
      byte[] planes = buffers.get(1, header.blockSize());
      BitShuffle.toBytePlanes(typeSize, elements, shuffled, 0, planes, 0, 0, elements);
      sink.byteShuffledBlock(planes, 0, start, bsize, typeSize);
      return;
    }
    if (byteShuffled || bitShuffled) {
      target = buffers.get(1, header.blockSize());
      if (byteShuffled) {
        ByteShuffle.unshuffle(typeSize, bsize, shuffled, 0, target, 0);
      } else {
        BitShuffle.unshuffle(typeSize, bsize, shuffled, 0, target, 0);
      }
    }
    sink.block(target, 0, start, bsize);
  }
}
