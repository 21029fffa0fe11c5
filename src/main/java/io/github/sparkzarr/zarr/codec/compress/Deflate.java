package io.github.sparkzarr.zarr.codec.compress;

import io.github.sparkzarr.zarr.codec.CodecException;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/** Deflate streams for zlib and gzip, without stream wrappers or intermediate copies. */
final class Deflate {
  /**
   * An inflater per thread and kind: tasks run on long-lived executor threads, and a new one per
   * chunk costs zlib's setup and its native state each time.
   */
  private static final ThreadLocal<Inflater> RAW = ThreadLocal.withInitial(() -> new Inflater(true));
  private static final ThreadLocal<Inflater> WRAPPED = ThreadLocal.withInitial(Inflater::new);

  private Deflate() {}

  /**
   * Runs {@code use} with this thread's inflater for raw deflate ({@code raw}) or zlib streams,
   * reset before and after, so that no state nor reference to the input outlives the call.
   */
  static void withInflater(boolean raw, InflaterUse use) throws CodecException {
    Inflater inflater = (raw ? RAW : WRAPPED).get();
    inflater.reset();
    try {
      use.run(inflater);
    } finally {
      inflater.reset();
    }
  }

  /** Work done with a thread's inflater. */
  interface InflaterUse {
    void run(Inflater inflater) throws CodecException;
  }

  /**
   * Compresses {@code input} into a new array that leaves {@code head} free bytes before and
   * {@code tail} free bytes after the deflate data, for a container's header and trailer.
   */
  static byte[] deflate(byte[] input, int level, boolean raw, int head, int tail) {
    Deflater deflater = new Deflater(level, raw);
    try {
      deflater.setInput(input);
      deflater.finish();
      // zlib's deflateBound is about n + n/1000 + 12; a little slack avoids regrowing
      byte[] out = new byte[head + input.length + input.length / 1000 + 64 + tail];
      int end = head;
      while (!deflater.finished()) {
        if (end == out.length - tail) {
          out = Arrays.copyOf(out, out.length * 2);
        }
        end += deflater.deflate(out, end, out.length - tail - end);
      }
      return end + tail == out.length ? out : Arrays.copyOf(out, end + tail);
    } finally {
      deflater.end();
    }
  }

  /** Decodes {@code in[0, length)} into {@code target}. */
  interface Decoding {
    void run(byte[] in, int length, DecodeTarget target) throws CodecException;
  }

  /** {@code input} decoded into a new array, of {@code decodedSize} bytes if that is not -1. */
  static byte[] decode(String codec, byte[] input, int decodedSize, Decoding decoding)
      throws CodecException {
    DecodeTarget target = new DecodeTarget(codec, decodedSize, guess(input.length));
    decoding.run(input, input.length, target);
    return target.finish();
  }

  /** {@code input[0, length)} decoded into exactly {@code out[0, size)}. */
  static void decodeInto(String codec, byte[] input, int length, byte[] out, int size,
      Decoding decoding) throws CodecException {
    DecodeTarget target = new DecodeTarget(codec, out, size);
    decoding.run(input, length, target);
    target.checkSize();
  }

  /** Inflates the one deflate stream the inflater holds into {@code target}. */
  static void inflate(String codec, Inflater inflater, DecodeTarget target) throws CodecException {
    try {
      while (!inflater.finished()) {
        if (inflater.needsInput()) {
          throw new CodecException(codec + ": truncated data (deflate stream does not end)");
        }
        if (inflater.needsDictionary()) {
          throw new CodecException(codec + ": data needs a preset dictionary, unsupported");
        }
        if (target.reserve()) {
          target.advance(inflater.inflate(target.buffer(), target.size(), target.free()));
        } else if (inflater.inflate(new byte[1]) > 0) {
          throw target.tooLarge();
        }
      }
    } catch (DataFormatException e) {
      throw DecodeTarget.corrupt(codec, e);
    }
  }

  /** A first output capacity for data of unknown decoded size. */
  static long guess(int compressedLength) {
    return compressedLength * 4L;
  }
}
