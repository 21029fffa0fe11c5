package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.CodecException;
import java.util.Arrays;

/**
 * Encodes one blosc1 frame the way libblosc 1.21's blosc_compress does: same block size, split and
 * shuffle decisions and the same fallbacks (streams that do not shrink are stored raw; frames that
 * would not be smaller than nbytes + 16 are stored whole, "memcpyed"). The inner streams differ
 * from libblosc's where our compressors do (always for blosclz), but libblosc decodes them.
 */
final class BloscEncoder {
  /** libblosc's BLOSC_MAX_BUFFERSIZE. */
  static final int MAX_BUFFER_SIZE = Integer.MAX_VALUE - BloscHeader.SIZE;

  private final BloscCname cname;
  private final int clevel;
  private final BloscShuffle shuffle;
  private final int forcedBlockSize;

  BloscEncoder(BloscCname cname, int clevel, BloscShuffle shuffle, int forcedBlockSize) {
    this.cname = cname;
    this.clevel = clevel;
    this.shuffle = shuffle;
    this.forcedBlockSize = forcedBlockSize;
  }

  byte[] encode(byte[] input, int itemSize) throws CodecException {
    if (input.length > MAX_BUFFER_SIZE) {
      throw new CodecException(
          "blosc: cannot compress " + input.length + " bytes, the limit is " + MAX_BUFFER_SIZE);
    }
    // libblosc treats elements larger than 255 bytes as a byte stream.
    int typeSize = itemSize < 1 || itemSize > 255 ? 1 : itemSize;
    int nbytes = input.length;
    int blockSize = BlockSizes.compute(cname, clevel, typeSize, nbytes, forcedBlockSize);
    boolean split = BlockSizes.split(cname, typeSize, blockSize);
    // numcodecs resolves auto shuffle with the element size before libblosc caps it.
    BloscShuffle filter = shuffle.resolve(itemSize);
    int flags =
        filter.headerFlag()
            | (split ? 0 : BloscHeader.FLAG_DONT_SPLIT)
            | cname.format() << 5;
    if (clevel > 0 && nbytes >= BlockSizes.MIN_BUFFER_SIZE) {
      byte[] frame = compressBlocks(input, filter, typeSize, blockSize, split, flags);
      if (frame != null) {
        return frame;
      }
    }
    return stored(input, typeSize, blockSize, flags | BloscHeader.FLAG_MEMCPYED);
  }

  private static byte[] stored(byte[] input, int typeSize, int blockSize, int flags) {
    byte[] frame = new byte[BloscHeader.SIZE + input.length];
    header(flags, typeSize, input.length, blockSize, frame.length).write(frame);
    System.arraycopy(input, 0, frame, BloscHeader.SIZE, input.length);
    return frame;
  }

  private static BloscHeader header(
      int flags, int typeSize, int nbytes, int blockSize, int cbytes) {
    return new BloscHeader(
        BloscHeader.FORMAT_VERSION,
        BloscCname.VERSION_LZ,
        flags,
        typeSize,
        nbytes,
        blockSize,
        cbytes);
  }

  /** The compressed frame, or null when it would not be smaller than storing the input whole. */
  private byte[] compressBlocks(
      byte[] input, BloscShuffle filter, int typeSize, int blockSize, boolean split, int flags)
      throws CodecException {
    int nbytes = input.length;
    int nblocks = nbytes / blockSize + (nbytes % blockSize > 0 ? 1 : 0);
    int limit = nbytes + BloscHeader.SIZE;
    int offsetsEnd = BloscHeader.SIZE + 4 * nblocks;
    if (offsetsEnd > limit) {
      return null;
    }
    byte[] frame = new byte[limit];
    byte[] shuffled = filter == BloscShuffle.NOSHUFFLE ? null : new byte[blockSize];
    // Streams compress into a small buffer: JNI compressors pin whole arrays on every call.
    byte[] stream = new byte[Math.max(blockSize, 1)];
    int pos = offsetsEnd;
    try (InnerCodec codec = cname.newEncoder(clevel)) {
      for (int j = 0; j < nblocks; j++) {
        int start = j * blockSize;
        int bsize = Math.min(blockSize, nbytes - start);
        LittleEndian.writeInt(frame, BloscHeader.SIZE + 4 * j, pos);
        byte[] src = input;
        int srcOff = start;
        if (filter.apply(typeSize, bsize, input, start, shuffled)) {
          src = shuffled;
          srcOff = 0;
        }
        int nstreams = split && bsize == blockSize ? typeSize : 1;
        int streamSize = bsize / nstreams;
        for (int s = 0; s < nstreams; s++) {
          if (limit - pos < 4 + 1) {
            return null;
          }
          int from = srcOff + s * streamSize;
          // Stored raw unless strictly smaller: a size equal to streamSize means raw.
          int room = Math.min(streamSize - 1, limit - pos - 4);
          int csize = codec.compress(src, from, streamSize, stream, 0, room);
          if (csize > 0) {
            System.arraycopy(stream, 0, frame, pos + 4, csize);
          } else {
            if (limit - pos - 4 < streamSize) {
              return null;
            }
            System.arraycopy(src, from, frame, pos + 4, streamSize);
            csize = streamSize;
          }
          LittleEndian.writeInt(frame, pos, csize);
          pos += 4 + csize;
        }
      }
    }
    header(flags, typeSize, nbytes, blockSize, pos).write(frame);
    return Arrays.copyOf(frame, pos);
  }
}
