package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.blosc.VectorByteTranspose;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Whole elements assembled in registers from a byte-shuffled blosc block (byte k of element j at
 * {@code b[p + k * plane + j]}): each plane's bytes are widened, shifted to their place and merged,
 * without an un-shuffled copy. Vector API; loaded only when it is there.
 */
final class ShuffledPlanes {
  private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
  private static final VectorSpecies<Long> L4 = LongVector.SPECIES_256;
  private static final VectorSpecies<Byte> B8 = ByteVector.SPECIES_64;

  private ShuffledPlanes() {}

  /** Eight float32 elements from element {@code p - offset} of the block. */
  static FloatVector floats(byte[] b, int p, int plane) {
    return ints(b, p, plane).reinterpretAsFloats();
  }

  /** Eight 4-byte elements from element {@code p - offset} of the block, as ints. */
  static IntVector ints(byte[] b, int p, int plane) {
    return planeInts(b, p).or(planeInts(b, p + plane).lanewise(VectorOperators.LSHL, 8))
        .or(planeInts(b, p + 2 * plane).lanewise(VectorOperators.LSHL, 16))
        .or(planeInts(b, p + 3 * plane).lanewise(VectorOperators.LSHL, 24));
  }

  /** Eight bytes of one plane, each zero-extended to an int. */
  private static IntVector planeInts(byte[] b, int p) {
    return ((IntVector) ByteVector.fromArray(B8, b, p).convertShape(VectorOperators.B2I, I8, 0)).and(0xFF);
  }

  /**
   * Four float64 elements: of the eight from element {@code p - offset} of the block, the first
   * four ({@code part} 0) or the last four (1).
   */
  static DoubleVector doubles(byte[] b, int p, int plane, int part) {
    return longs(b, p, plane, part).reinterpretAsDoubles();
  }

  /** Four 8-byte elements, as {@link #doubles} picks them, as longs. */
  static LongVector longs(byte[] b, int p, int plane, int part) {
    LongVector bits = LongVector.zero(L4);
    for (int k = 0; k < 8; k++) {
      ByteVector bytes = ByteVector.fromArray(B8, b, p + k * plane);
      bits = bits.or(planeLongs(bytes, part).lanewise(VectorOperators.LSHL, 8 * k));
    }
    return bits;
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
   * of a loop takes: 32 of a byte-shuffled chunk, gathered in order into {@code scratch} by {@link
   * #longsInOrder}, else eight.
   */
  static int step(NumericChunk c, int j, int end, long[] scratch) {
    if (c.plane == 0 || j + 32 > end) {
      return 8;
    }
    longsInOrder(c.bytes, c.offset + j, c.plane, scratch);
    return 32;
  }

  /**
   * 8-byte elements {@code j + q + 4 * part} to {@code j + q + 4 * part + 3} of a chunk, for a
   * {@link #step} of {@code step} elements from {@code j}: of 32, from where {@link #longsInOrder}
   * put them; of eight, from the chunk ({@code q} is 0).
   */
  static LongVector fourLongs(NumericChunk c, int j, int q, int part, int step, long[] scratch) {
    if (step == 32) {
      return LongVector.fromArray(L4, scratch, 32 + q + 4 * part);
    }
    return c.plane == 0 ? LongVector.fromByteArray(L4, c.bytes, c.offset + 8 * j + 32 * part, ByteOrder.LITTLE_ENDIAN)
        : longs(c.bytes, c.offset + j, c.plane, part);
  }

  /** Four of eight bytes ({@code part} 0: the first four), each zero-extended to a long. */
  private static LongVector planeLongs(ByteVector bytes, int part) {
    return ((LongVector) bytes.convertShape(VectorOperators.B2L, L4, part)).and(0xFFL);
  }
}
