package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.blosc.VectorByteTranspose;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Whole elements assembled in registers from a byte-shuffled blosc block (byte k of element j at
 * {@code b[p + k * plane + j]}): each plane's bytes are widened, shifted to their place and merged,
 * without an un-shuffled copy. Vector API; loaded only when it is there.
 *
 * <p>Results go out through small arrays, never as vector objects: C2 turns vector objects into
 * registers only where every method that passes one is inlined, and when it compiles a caller
 * before this code has a profile it may not inline it. A vector then becomes a heap object and
 * each operation on it the Vector API's Java fallback, for as long as that compiled caller lives:
 * a blosc sum took 10x the task CPU (docs/benchmarks-history.md, session 27).
 */
final class ShuffledPlanes {
  private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
  private static final VectorSpecies<Long> L4 = LongVector.SPECIES_256;
  private static final VectorSpecies<Byte> B8 = ByteVector.SPECIES_64;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

  private ShuffledPlanes() {}

  /** Eight 4-byte elements from element {@code p - offset} of the block, as ints into {@code words[0, 8)}. */
  static void ints(byte[] b, int p, int plane, int[] words) {
    IntVector bits = IntVector.zero(I8);
    for (int k = 0; k < 4; k++) {
      IntVector bytes = (IntVector) ByteVector.fromArray(B8, b, p + k * plane)
          .convertShape(VectorOperators.B2I, I8, 0);
      bits = bits.or(bytes.and(0xFF).lanewise(VectorOperators.LSHL, 8 * k));
    }
    bits.intoArray(words, 0);
  }

  /**
   * Eight 8-byte elements from element {@code p - offset} of the block, as longs into {@code
   * words[at, at + 8)}.
   */
  static void longs(byte[] b, int p, int plane, long[] words, int at) {
    LongVector low = LongVector.zero(L4);
    LongVector high = LongVector.zero(L4);
    for (int k = 0; k < 8; k++) {
      ByteVector bytes = ByteVector.fromArray(B8, b, p + k * plane);
      low = low.or(((LongVector) bytes.convertShape(VectorOperators.B2L, L4, 0)).and(0xFFL)
          .lanewise(VectorOperators.LSHL, 8 * k));
      high = high.or(((LongVector) bytes.convertShape(VectorOperators.B2L, L4, 1)).and(0xFFL)
          .lanewise(VectorOperators.LSHL, 8 * k));
    }
    low.intoArray(words, at);
    high.intoArray(words, at + 4);
  }

  /**
   * Thirty-two 8-byte elements from element {@code p - offset} of the block, in order: element e
   * in {@code scratch[32 + e]} (64 longs; the first 32 hold the transpose). One byte transpose of
   * their planes ({@link VectorByteTranspose}) gathers them about twice as fast as {@link #longs}.
   */
  static void longsInOrder(byte[] b, int p, int plane, long[] scratch) {
    VectorByteTranspose.transpose(b, p, plane, scratch);
    // scratch[4k + l] is element 8l + k
    for (int l = 0; l < 4; l++) {
      for (int k = 0; k < 8; k++) {
        scratch[32 + 8 * l + k] = scratch[4 * k + l];
      }
    }
  }

  /** Per thread: the scratch of {@link #longsInOrder}. */
  static final ThreadLocal<long[]> SCRATCH = ThreadLocal.withInitial(() -> new long[64]);

  /**
   * How many 8-byte elements from element {@code j} of a chunk (before {@code end}) the next step
   * of a loop takes, and where they are. Of a chunk stored one element after the other, eight,
   * read from the chunk. Of a byte-shuffled chunk, 32 (or the last eight) gathered in order into
   * {@code scratch[32, 32 + step)}.
   */
  static int step(NumericChunk c, int j, int end, long[] scratch) {
    return gather(c, j, end, scratch, true);
  }

  /**
   * {@link #step} for loops to which the order of the elements does not matter (extremes): of a
   * byte-shuffled chunk, the 32 elements are left in {@code scratch[0, 32)} as the byte transpose
   * leaves them, not put in order (which took as long as the transpose), and the last eight in
   * {@code scratch[0, 8)}.
   */
  static int unordered(NumericChunk c, int j, int end, long[] scratch) {
    return gather(c, j, end, scratch, false);
  }

  private static int gather(NumericChunk c, int j, int end, long[] scratch, boolean inOrder) {
    if (c.plane == 0) {
      return 8;
    }
    if (j + 32 > end) {
      longs(c.bytes, c.offset + j, c.plane, scratch, inOrder ? 32 : 0);
      return 8;
    }
    if (inOrder) {
      longsInOrder(c.bytes, c.offset + j, c.plane, scratch);
    } else {
      VectorByteTranspose.transpose(c.bytes, c.offset + j, c.plane, scratch);
    }
    return 32;
  }


  /**
   * Thirty-two 4-byte elements from element {@code p - offset} of the block into {@code words[0,
   * 32)}, in an order of their own (element {@code 4m + k} at {@code words[8k + m]}): a 4 x 4 byte
   * transpose of the four planes' 32 bytes, lane by lane, which gathers them about four times as
   * fast as {@link #ints} for loops to which the order does not matter (extremes).
   */
  static void intsUnordered(byte[] b, int p, int plane, int[] words) {
    // lane m of row r: byte j is plane r's byte of element 4m + j
    IntVector r0 = IntVector.fromByteArray(I8, b, p, LE);
    IntVector r1 = IntVector.fromByteArray(I8, b, p + plane, LE);
    IntVector r2 = IntVector.fromByteArray(I8, b, p + 2 * plane, LE);
    IntVector r3 = IntVector.fromByteArray(I8, b, p + 3 * plane, LE);
    IntVector t;
    t = r0.lanewise(VectorOperators.LSHR, 8).lanewise(VectorOperators.XOR, r1).and(0x00FF00FF);
    r1 = r1.lanewise(VectorOperators.XOR, t);
    r0 = r0.lanewise(VectorOperators.XOR, t.lanewise(VectorOperators.LSHL, 8));
    t = r2.lanewise(VectorOperators.LSHR, 8).lanewise(VectorOperators.XOR, r3).and(0x00FF00FF);
    r3 = r3.lanewise(VectorOperators.XOR, t);
    r2 = r2.lanewise(VectorOperators.XOR, t.lanewise(VectorOperators.LSHL, 8));
    t = r0.lanewise(VectorOperators.LSHR, 16).lanewise(VectorOperators.XOR, r2).and(0x0000FFFF);
    r2 = r2.lanewise(VectorOperators.XOR, t);
    r0 = r0.lanewise(VectorOperators.XOR, t.lanewise(VectorOperators.LSHL, 16));
    t = r1.lanewise(VectorOperators.LSHR, 16).lanewise(VectorOperators.XOR, r3).and(0x0000FFFF);
    r3 = r3.lanewise(VectorOperators.XOR, t);
    r1 = r1.lanewise(VectorOperators.XOR, t.lanewise(VectorOperators.LSHL, 16));
    // lane m of row k: byte r is plane r's byte of element 4m + k, so the element itself
    r0.intoArray(words, 0);
    r1.intoArray(words, 8);
    r2.intoArray(words, 16);
    r3.intoArray(words, 24);
  }

}
