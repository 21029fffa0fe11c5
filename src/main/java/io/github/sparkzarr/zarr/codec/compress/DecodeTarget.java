package io.github.sparkzarr.zarr.codec.compress;

import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.DecodeLimit;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The output buffer of a streaming decoder. With a known decoded size it is exactly that big and
 * never grows, so a decompression bomb fails as soon as it overflows instead of exhausting memory;
 * with an unknown size it grows up to {@link DecodeLimit}.
 */
final class DecodeTarget {
  /** The largest array the JVM reliably allocates. */
  static final int MAX_SIZE = Integer.MAX_VALUE - 8;

  private final String codec;
  private final int expected;
  private byte[] buffer;
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
  }

  byte[] buffer() {
    return buffer;
  }

  int size() {
    return size;
  }

  int free() {
    return buffer.length - size;
  }

  void advance(int n) {
    size += n;
  }

  /**
   * Makes room for at least one more byte. Returns false when the size is known and the buffer is
   * full: the caller must then check that the decoder has nothing more to give.
   */
  boolean reserve() throws CodecException {
    if (size < buffer.length) {
      return true;
    }
    if (expected >= 0) {
      return false;
    }
    int limit = DecodeLimit.maxUnknownDecodedBytes();
    if (size >= limit) {
      throw DecodeLimit.tooLarge(codec, -1);
    }
    buffer = Arrays.copyOf(buffer, (int) Math.min((long) size * 2, limit));
    return true;
  }

  CodecException tooLarge() {
    return new CodecException(
        codec + ": data decodes to more than the expected " + expected + " bytes");
  }

  /** The decoded bytes, after checking the size the caller expects. */
  byte[] finish() throws CodecException {
    if (expected >= 0 && size != expected) {
      throw new CodecException(
          codec + ": data decodes to " + size + " bytes, expected " + expected);
    }
    return size == buffer.length ? buffer : Arrays.copyOf(buffer, size);
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
