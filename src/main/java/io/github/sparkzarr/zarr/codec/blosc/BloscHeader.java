package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.CodecException;

/**
 * The 16-byte blosc1 frame header: version, versionlz, flags, typesize, then the little-endian
 * nbytes (decoded size), blocksize and cbytes (frame size including this header).
 */
record BloscHeader(
    int version, int versionLz, int flags, int typeSize, int nbytes, int blockSize, int cbytes) {

  static final int SIZE = 16;
  /** The format version every libblosc 1.x release writes and the only one it reads. */
  static final int FORMAT_VERSION = 2;

  static final int FLAG_BYTE_SHUFFLE = 0x01;
  static final int FLAG_MEMCPYED = 0x02;
  static final int FLAG_BIT_SHUFFLE = 0x04;
  /** Reserved in blosc1; libblosc refuses frames that set it. */
  static final int FLAG_RESERVED = 0x08;
  static final int FLAG_DONT_SPLIT = 0x10;

  /** Reads and checks the fields that do not depend on the inner codec. */
  static BloscHeader read(byte[] frame) throws CodecException {
    return read(frame, frame.length);
  }

  /** As {@link #read(byte[])}, of the frame in {@code frame[0, length)}. */
  static BloscHeader read(byte[] frame, int length) throws CodecException {
    if (length < SIZE) {
      throw new CodecException(
          "blosc: truncated header, the frame has " + length + " bytes, need " + SIZE);
    }
    BloscHeader h =
        new BloscHeader(
            frame[0] & 0xFF,
            frame[1] & 0xFF,
            frame[2] & 0xFF,
            frame[3] & 0xFF,
            LittleEndian.readInt(frame, 4),
            LittleEndian.readInt(frame, 8),
            LittleEndian.readInt(frame, 12));
    if (h.version != FORMAT_VERSION) {
      throw new CodecException(
          "blosc: unsupported format version " + h.version + " (blosc1 frames have version 2)");
    }
    if ((h.flags & FLAG_RESERVED) != 0) {
      throw new CodecException("blosc: reserved flag 0x08 is set (flags 0x" + hex(h.flags) + ")");
    }
    if (h.nbytes < 0 || h.cbytes < SIZE) {
      throw new CodecException(
          "blosc: header has invalid sizes nbytes=" + u32(h.nbytes) + " cbytes=" + u32(h.cbytes));
    }
    return h;
  }

  void write(byte[] frame) {
    frame[0] = (byte) version;
    frame[1] = (byte) versionLz;
    frame[2] = (byte) flags;
    frame[3] = (byte) typeSize;
    LittleEndian.writeInt(frame, 4, nbytes);
    LittleEndian.writeInt(frame, 8, blockSize);
    LittleEndian.writeInt(frame, 12, cbytes);
  }

  boolean memcpyed() {
    return (flags & FLAG_MEMCPYED) != 0;
  }

  boolean dontSplit() {
    return (flags & FLAG_DONT_SPLIT) != 0;
  }

  /** The inner codec's format number in bits 5-7. */
  int compressorFormat() {
    return flags >>> 5;
  }

  /** Byte shuffle is only meaningful for multi-byte elements; libblosc ignores it otherwise. */
  boolean byteShuffled() {
    return (flags & FLAG_BYTE_SHUFFLE) != 0 && typeSize > 1;
  }

  /** libblosc applies bit shuffle only when byte shuffle is off and a block holds an element. */
  boolean bitShuffled(int blockBytes) {
    return !byteShuffled() && (flags & FLAG_BIT_SHUFFLE) != 0 && blockBytes >= typeSize;
  }

  private static String u32(int v) {
    return Long.toString(v & 0xFFFFFFFFL);
  }

  private static String hex(int v) {
    return Integer.toHexString(v);
  }
}
