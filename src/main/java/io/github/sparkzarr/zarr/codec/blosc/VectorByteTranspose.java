package io.github.sparkzarr.zarr.codec.blosc;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.XOR;

import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The 8 x 8 byte transpose of eight rows of bytes, 32 bytes of each row at once, with the Vector
 * API: the first step of undoing blosc's bit shuffle ({@link VectorBitPlaneTransposer}), and the
 * whole of gathering 8-byte elements from the byte planes of a byte-shuffled block (byte k of
 * element j in plane k), where row r is plane r. Kept in a method of its own: with more Vector API
 * calls in one method, C2 stops inlining them and the vectors become objects.
 */
public final class VectorByteTranspose {
  private static final VectorSpecies<Long> L4 = LongVector.SPECIES_256;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
  private static final long BYTES = 0x00FF00FF00FF00FFL;
  private static final long PAIRS = 0x0000FFFF0000FFFFL;
  private static final long HALVES = 0x00000000FFFFFFFFL;

  private VectorByteTranspose() {}

  /**
   * Transposes the 8 x 8 bytes of eight words, four times side by side: with word {@code w} of row
   * {@code r} the little-endian long at {@code src[at + r * stride + 8 * w]} (r < 8, w < 4), byte r
   * of {@code words[4 * k + w]} is byte k of word w of row r.
   *
   * <p>Three steps of their own (bytes, pairs, halves), which meet in {@code words}. C2 compiled
   * the whole transpose as one method with the Vector API's calls intrinsified, or, depending on
   * the profiles that other queries had left in the Vector API's shared code, with its stores not
   * intrinsified: every vector then became a heap object, and a bit-shuffled sum took 3-6 times as
   * long for as long as that code lived (docs/benchmarks.md, session 41). Each step is small
   * enough to compile the same way whatever the profiles, and too large (over 325 bytes of
   * bytecode) for C2 to inline back into one method. Each step stores its own vectors: a vector
   * passed to a call that C2 does not inline becomes an object.
   */
  public static void transpose(byte[] src, int at, int stride, long[] words) {
    swapBytes(src, at, stride, words);
    swapPairs(words);
    swapHalves(words);
  }

  /** Loads the eight rows and swaps the odd bytes of rows 2i with the even bytes of rows 2i + 1. */
  private static void swapBytes(byte[] src, int at, int stride, long[] words) {
    LongVector w0 = LongVector.fromByteArray(L4, src, at, LE);
    LongVector w1 = LongVector.fromByteArray(L4, src, at + stride, LE);
    LongVector w2 = LongVector.fromByteArray(L4, src, at + 2 * stride, LE);
    LongVector w3 = LongVector.fromByteArray(L4, src, at + 3 * stride, LE);
    LongVector w4 = LongVector.fromByteArray(L4, src, at + 4 * stride, LE);
    LongVector w5 = LongVector.fromByteArray(L4, src, at + 5 * stride, LE);
    LongVector w6 = LongVector.fromByteArray(L4, src, at + 6 * stride, LE);
    LongVector w7 = LongVector.fromByteArray(L4, src, at + 7 * stride, LE);
    LongVector t;
    t = w0.lanewise(LSHR, 8).lanewise(XOR, w1).and(BYTES); w1 = w1.lanewise(XOR, t); w0 = w0.lanewise(XOR, t.lanewise(LSHL, 8));
    t = w2.lanewise(LSHR, 8).lanewise(XOR, w3).and(BYTES); w3 = w3.lanewise(XOR, t); w2 = w2.lanewise(XOR, t.lanewise(LSHL, 8));
    t = w4.lanewise(LSHR, 8).lanewise(XOR, w5).and(BYTES); w5 = w5.lanewise(XOR, t); w4 = w4.lanewise(XOR, t.lanewise(LSHL, 8));
    t = w6.lanewise(LSHR, 8).lanewise(XOR, w7).and(BYTES); w7 = w7.lanewise(XOR, t); w6 = w6.lanewise(XOR, t.lanewise(LSHL, 8));
    w0.intoArray(words, 0);
    w1.intoArray(words, 4);
    w2.intoArray(words, 8);
    w3.intoArray(words, 12);
    w4.intoArray(words, 16);
    w5.intoArray(words, 20);
    w6.intoArray(words, 24);
    w7.intoArray(words, 28);
  }

  /** Swaps the odd byte pairs of rows 0, 1, 4, 5 with the even pairs of rows 2, 3, 6, 7. */
  private static void swapPairs(long[] words) {
    LongVector w0 = LongVector.fromArray(L4, words, 0);
    LongVector w1 = LongVector.fromArray(L4, words, 4);
    LongVector w2 = LongVector.fromArray(L4, words, 8);
    LongVector w3 = LongVector.fromArray(L4, words, 12);
    LongVector w4 = LongVector.fromArray(L4, words, 16);
    LongVector w5 = LongVector.fromArray(L4, words, 20);
    LongVector w6 = LongVector.fromArray(L4, words, 24);
    LongVector w7 = LongVector.fromArray(L4, words, 28);
    LongVector t;
    t = w0.lanewise(LSHR, 16).lanewise(XOR, w2).and(PAIRS); w2 = w2.lanewise(XOR, t); w0 = w0.lanewise(XOR, t.lanewise(LSHL, 16));
    t = w1.lanewise(LSHR, 16).lanewise(XOR, w3).and(PAIRS); w3 = w3.lanewise(XOR, t); w1 = w1.lanewise(XOR, t.lanewise(LSHL, 16));
    t = w4.lanewise(LSHR, 16).lanewise(XOR, w6).and(PAIRS); w6 = w6.lanewise(XOR, t); w4 = w4.lanewise(XOR, t.lanewise(LSHL, 16));
    t = w5.lanewise(LSHR, 16).lanewise(XOR, w7).and(PAIRS); w7 = w7.lanewise(XOR, t); w5 = w5.lanewise(XOR, t.lanewise(LSHL, 16));
    w0.intoArray(words, 0);
    w1.intoArray(words, 4);
    w2.intoArray(words, 8);
    w3.intoArray(words, 12);
    w4.intoArray(words, 16);
    w5.intoArray(words, 20);
    w6.intoArray(words, 24);
    w7.intoArray(words, 28);
  }

  /** Swaps the high halves of rows 0-3 with the low halves of rows 4-7. */
  private static void swapHalves(long[] words) {
    LongVector w0 = LongVector.fromArray(L4, words, 0);
    LongVector w1 = LongVector.fromArray(L4, words, 4);
    LongVector w2 = LongVector.fromArray(L4, words, 8);
    LongVector w3 = LongVector.fromArray(L4, words, 12);
    LongVector w4 = LongVector.fromArray(L4, words, 16);
    LongVector w5 = LongVector.fromArray(L4, words, 20);
    LongVector w6 = LongVector.fromArray(L4, words, 24);
    LongVector w7 = LongVector.fromArray(L4, words, 28);
    LongVector t;
    t = w0.lanewise(LSHR, 32).lanewise(XOR, w4).and(HALVES); w4 = w4.lanewise(XOR, t); w0 = w0.lanewise(XOR, t.lanewise(LSHL, 32));
    t = w1.lanewise(LSHR, 32).lanewise(XOR, w5).and(HALVES); w5 = w5.lanewise(XOR, t); w1 = w1.lanewise(XOR, t.lanewise(LSHL, 32));
    t = w2.lanewise(LSHR, 32).lanewise(XOR, w6).and(HALVES); w6 = w6.lanewise(XOR, t); w2 = w2.lanewise(XOR, t.lanewise(LSHL, 32));
    t = w3.lanewise(LSHR, 32).lanewise(XOR, w7).and(HALVES); w7 = w7.lanewise(XOR, t); w3 = w3.lanewise(XOR, t.lanewise(LSHL, 32));
    w0.intoArray(words, 0);
    w1.intoArray(words, 4);
    w2.intoArray(words, 8);
    w3.intoArray(words, 12);
    w4.intoArray(words, 16);
    w5.intoArray(words, 20);
    w6.intoArray(words, 24);
    w7.intoArray(words, 28);
  }

  /**
   * Writes the 32 words {@link #transpose} left in {@code words} as 256 bytes from {@code
   * dst[at]}, in the order of their rows' bytes: word k of lane w ({@code words[4 * k + w]}) at
   * {@code at + 64 * w + 8 * k}. For byte planes, that is the 32 elements in order.
   */
  static void writeInOrder(long[] words, byte[] dst, int at) {
    for (int w = 0; w < 4; w++, at += 64) {
      for (int k = 0; k < 8; k++) {
        LittleEndian.writeLong(dst, at + 8 * k, words[4 * k + w]);
      }
    }
  }
}
