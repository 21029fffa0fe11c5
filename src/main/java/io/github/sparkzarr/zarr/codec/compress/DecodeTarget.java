package io.github.sparkzarr.zarr.codec.compress;

import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.DecodeLimit;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The output buffer of a streaming decoder. With a known decoded size it is exactly that big and
 * never grows, so a decompression bomb fails as soon as it overflows instead of exhausting memory.
 * With an unknown size it grows up to {@link DecodeLimit} by adding segments rather than copying
 * into a bigger array, so a bomb stops at the limit itself and not one and a half times it.
 */
final class DecodeTarget {
  /** The largest array the JVM reliably allocates. */
  static final int MAX_SIZE = Integer.MAX_VALUE - 8;

  private final String codec;
  private final int expected;
  /** Full segments before {@link #buffer}, in order. */
  private final List<byte[]> filled = new ArrayList<>();
  private long filledBytes;
  private byte[] buffer;
  /** How much of {@link #buffer} may be written: a caller's buffer may be longer. */
  private int capacity;
  private int size;

  /**
   * @param expected the exact decoded size, or -1 when unknown
   * @param guess the initial capacity when the size is unknown
   */
  DecodeTarget(String codec, int expected, long guess) {
    this.codec = codec;
    this.expected = expected;
    int limit = DecodeLimit.maxUnknownDecodedBytes();
    this.buffer = new byte[expected >= 0 ? expected : (int) Math.min(Math.max(guess, 64), limit)];
    this.capacity = buffer.length;
  }

  /** A target of exactly {@code size} bytes at the start of the caller's {@code out}. */
  DecodeTarget(String codec, byte[] out, int size) {
    this.codec = codec;
    this.expected = size;
    this.buffer = out;
    this.capacity = size;
  }

  /** The segment being written. */
  byte[] buffer() {
    return buffer;
  }

  /** Bytes written into the current segment. */
  int size() {
    return size;
  }

  /** Bytes written in all. */
  long total() {
    return filledBytes + size;
  }

  int free() {
    return capacity - size;
  }

  void advance(int n) {
    size += n;
  }

  /**
   * Makes room for at least one more byte. Returns false when the size is known and the buffer is
   * full: the caller must then check that the decoder has nothing more to give.
   */
  boolean reserve() throws CodecException {
    if (size < capacity) {
      return true;
    }
    if (expected >= 0) {
      return false;
    }
    long total = total();
    int limit = DecodeLimit.maxUnknownDecodedBytes();
    if (total >= limit) {
      throw DecodeLimit.tooLarge(codec, -1);
    }
    filled.add(buffer);
    filledBytes = total;
    buffer = new byte[(int) Math.min(total, limit - total)];
    capacity = buffer.length;
    size = 0;
    return true;
  }

  /** Adds the bytes written from position {@code from} on to {@code crc}. */
  void updateCrc(CRC32 crc, long from) {
    long at = 0;
    for (byte[] segment : filled) {
      at = update(crc, segment, segment.length, at, from);
    }
    update(crc, buffer, size, at, from);
  }

  private static long update(CRC32 crc, byte[] segment, int length, long at, long from) {
    long skip = Math.max(0, from - at);
    if (skip < length) {
      crc.update(segment, (int) skip, length - (int) skip);
    }
    return at + length;
  }

  CodecException tooLarge() {
    return new CodecException(
        codec + ": data decodes to more than the expected " + expected + " bytes");
  }

  /** Fails unless the decoded size is the one the caller expects (if it gave one). */
  void checkSize() throws CodecException {
    if (expected >= 0 && size != expected) {
      throw new CodecException(
          codec + ": data decodes to " + size + " bytes, expected " + expected);
    }
  }

  /** The decoded bytes, after checking the size the caller expects. */
  byte[] finish() throws CodecException {
    checkSize();
    if (filled.isEmpty()) {
      return size == buffer.length ? buffer : Arrays.copyOf(buffer, size);
    }
    byte[] out = new byte[Math.toIntExact(total())];
    int at = 0;
    for (byte[] segment : filled) {
      System.arraycopy(segment, 0, out, at, segment.length);
      at += segment.length;
    }
    System.arraycopy(buffer, 0, out, at, size);
    return out;
  }

  /** Reads {@code in} to its end, wrapping library failures into {@link CodecException}. */
  static byte[] readAll(String codec, InputStream in, int expected, long guess)
      throws CodecException {
    DecodeTarget target = new DecodeTarget(codec, expected, guess);
    try (in) {
      while (true) {
        if (!target.reserve()) {
          if (in.read() >= 0) {
            throw target.tooLarge();
          }
          return target.finish();
        }
        int n = in.read(target.buffer, target.size, target.free());
        if (n < 0) {
          return target.finish();
        }
        target.advance(n);
      }
    } catch (CodecException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw corrupt(codec, e);
    }
  }

  /** A library rejected the data: name the codec, keep the library's reason. */
  static CodecException corrupt(String codec, Exception cause) {
    return new CodecException(
        codec + ": corrupt or truncated data (" + cause.getClass().getSimpleName() + ": "
            + cause.getMessage() + ")",
        cause);
  }
}
