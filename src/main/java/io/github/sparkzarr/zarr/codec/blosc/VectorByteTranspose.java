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
 * element j in plane k), where row r is plane r.
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
   * <p>Three rounds of swaps (bytes, pairs, halves), each a loop over pairs of rows with two
   * vectors live, that meet in {@code words}. As one method of 8 loads, 72 lane operations and 8
   * stores, C2 compiled it with its Vector API calls intrinsified, or, depending on the profiles
   * that other queries had left in the Vector API's shared code, with its stores not intrinsified:
   * every vector then became a heap object, and a bit-shuffled sum took 3-6 times as long for as
   * long as that code lived (docs/benchmarks.md, session 41). The loops keep each compiled body
   * small.
   */
  public static void transpose(byte[] src, int at, int stride, long[] words) {
    // The first round (bytes) as the rows are read; the other two in words.
    for (int r = 0; r < 8; r += 2) {
      LongVector a = LongVector.fromByteArray(L4, src, at + r * stride, LE);
      LongVector b = LongVector.fromByteArray(L4, src, at + (r + 1) * stride, LE);
      LongVector t = a.lanewise(LSHR, 8).lanewise(XOR, b).and(BYTES);
      b.lanewise(XOR, t).intoArray(words, 4 * (r + 1));
      a.lanewise(XOR, t.lanewise(LSHL, 8)).intoArray(words, 4 * r);
    }
    swap(words, 2, 16, PAIRS);
    swap(words, 4, 32, HALVES);
  }

  /**
   * One round: for each row r with bit {@code d} of its number clear, swaps the high {@code bits}
   * of each {@code 2 * bits}-wide field of row r with the low {@code bits} of row r + d's.
   */
  private static void swap(long[] words, int d, int bits, long mask) {
    for (int r = 0; r < 8; r++) {
      if ((r & d) != 0) {
        continue;
      }
      LongVector a = LongVector.fromArray(L4, words, 4 * r);
      LongVector b = LongVector.fromArray(L4, words, 4 * (r + d));
      LongVector t = a.lanewise(LSHR, bits).lanewise(XOR, b).and(mask);
      b.lanewise(XOR, t).intoArray(words, 4 * (r + d));
      a.lanewise(XOR, t.lanewise(LSHL, bits)).intoArray(words, 4 * r);
    }
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
