package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.DecodeLimit;

/**
 * Decodes one blosc1 frame, following libblosc 1.21's blosc_d: after the header come nblocks
 * int32 block offsets, then per block one stream (or typesize streams when split), each an int32
 * compressed size and its bytes; a size equal to the stream's decoded size means stored raw.
 * Unlike libblosc, every offset and size is checked, and the frame must be exactly cbytes long.
 */
final class BloscDecoder {
  private final byte[] frame;
  private final BloscHeader header;
  private final byte[] out;
  /** Holds a block's streams before they are unshuffled into the output. */
  private byte[] shuffled;

  private BloscDecoder(byte[] frame, BloscHeader header) {
    this.frame = frame;
    this.header = header;
    this.out = new byte[header.nbytes()];
  }

  /**
   * @param decodedSize the expected decoded length, or -1 when unknown
   */
  static byte[] decode(byte[] frame, int decodedSize) throws CodecException {
    BloscHeader header = BloscHeader.read(frame);
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
    if (header.cbytes() != frame.length) {
      throw new CodecException(
          "blosc: header says the frame has "
              + Integer.toUnsignedString(header.cbytes())
              + " bytes but it has "
              + frame.length
              + (header.cbytes() > frame.length ? " (truncated)" : ""));
    }
    if (header.nbytes() == 0) {
      return new byte[0];
    }
    checkGeometry(header);
    BloscDecoder decoder = new BloscDecoder(frame, header);
    if (header.memcpyed()) {
      decoder.copyStored();
    } else {
      decoder.decodeBlocks();
    }
    return decoder.out;
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
    if (header.cbytes() - BloscHeader.SIZE != header.nbytes()) {
      throw new CodecException(
          "blosc: uncompressed frame holds "
              + (header.cbytes() - BloscHeader.SIZE)
              + " bytes but nbytes is "
              + header.nbytes());
    }
    System.arraycopy(frame, BloscHeader.SIZE, out, 0, out.length);
  }

  private void decodeBlocks() throws CodecException {
    int blockSize = header.blockSize();
    int nbytes = header.nbytes();
    int nblocks = nbytes / blockSize + (nbytes % blockSize > 0 ? 1 : 0);
    if (nblocks > (frame.length - BloscHeader.SIZE) / 4) {
      throw new CodecException(
          "blosc: frame of " + frame.length + " bytes is too short for " + nblocks + " offsets");
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
      throws CodecException {
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
        shuffled = new byte[header.blockSize()];
      }
      target = shuffled;
      targetOff = 0;
    }
    int pos = offset;
    for (int s = 0; s < nstreams; s++) {
      if (pos < 0 || pos > frame.length - 4) {
        throw new CodecException(
            "blosc: block " + index + " stream " + s + " offset " + pos + " is out of the frame");
      }
      int csize = LittleEndian.readInt(frame, pos);
      pos += 4;
      if (csize < 0 || csize > frame.length - pos) {
        throw new CodecException(
            "blosc: block "
                + index
                + " stream "
                + s
                + " claims "
                + Integer.toUnsignedString(csize)
                + " bytes, only "
                + (frame.length - pos)
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
    if (byteShuffled) {
      ByteShuffle.unshuffle(typeSize, bsize, shuffled, 0, out, start);
    } else if (bitShuffled) {
      BitShuffle.unshuffle(typeSize, bsize, shuffled, 0, out, start);
    }
  }
}
