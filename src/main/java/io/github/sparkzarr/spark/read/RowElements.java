package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.Kernels;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The elements of a row of a contiguous chunk (float32, float64, or packed 1- or 2-byte integers)
 * as little-endian doubles, for the row loops (sums and skipping sums in {@link VectorLaneSums},
 * MIN/MAX in {@link VectorLaneExtremes}) to read with one load whatever the layout.
 *
 * <p>Why: a row loop that also widened every layout went past C2's inlining budget in some runs
 * and kept its vectors as heap objects (the vector audits, sessions 45 and 46). Here a loop of its
 * own widens up to {@link #BLOCK} elements into a thread's buffer, and the row loops stay small.
 * float64 rows are read where they are, with no copy.
 */
final class RowElements {
  private static final VectorSpecies<Double> D4 = DoubleVector.SPECIES_256;
  private static final VectorSpecies<Float> F8 = FloatVector.SPECIES_256;
  private static final VectorSpecies<Short> S8 = ShortVector.SPECIES_128;
  private static final VectorSpecies<Byte> B8 = ByteVector.SPECIES_64;
  private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
  private static final int LANES = 8;

  /** The most elements widened at a time: 8 KiB of doubles, in the first-level cache. */
  static final int BLOCK = 1024;
  private static final ThreadLocal<byte[]> WIDENED = ThreadLocal.withInitial(() -> new byte[8 * BLOCK]);
  // not final, so no constant to C2: the loop is compiled on its own (see Kernels)
  private static MethodHandle widened = Kernels.find(MethodHandles.lookup(), "widened");
  private static MethodHandle unpacked = Kernels.find(MethodHandles.lookup(), "unpacked");

  private RowElements() {}

  /** Whether the chunk's rows are read in place: float64 (only integers are unpacked). */
  static boolean inPlace(NumericChunk c) {
    return c.layout == NumericChunk.Layout.FLOAT64;
  }

  /** How many of the {@code left} elements (a multiple of 8) the next piece of a row takes. */
  static int piece(NumericChunk c, int left) {
    return inPlace(c) ? left : Math.min(BLOCK, left);
  }

  /**
   * The bytes holding elements {@code [k, k + m)} ({@code m} from {@link #piece}) as doubles from
   * {@link #offset}: the chunk's own, or the calling thread's block, widened into it now.
   */
  static byte[] bytes(NumericChunk c, int k, int m) throws Throwable {
    if (inPlace(c)) {
      return c.bytes;
    }
    byte[] block = WIDENED.get();
    if (c.unpacks) {
      unpacked.invokeExact(c, k, m, block, 0);
    } else {
      widened.invokeExact(c, k, m, block);
    }
    return block;
  }

  /** Where element {@code k}'s double starts in {@link #bytes}. */
  static int offset(NumericChunk c, int k) {
    return inPlace(c) ? c.offset + 8 * k : 0;
  }

  /** {@link #eight} over elements {@code [k, k + m)}: float32 rows (float64 ones are read in place). */
  private static void widened(NumericChunk c, int k, int m, byte[] block) {
    for (int j = 0; j < m; j += LANES) {
      eight(c, k + j, block, 8 * j);
    }
  }

  /**
   * Elements {@code [k, k + 8)} of a float32 or float64 chunk as doubles into {@code out} from byte
   * {@code at} (an array, not vectors: see {@link ShuffledPlanes}). Packed rows take {@link
   * #unpacked}.
   */
  static void eight(NumericChunk c, int k, byte[] out, int at) {
    if (c.layout == NumericChunk.Layout.FLOAT32) {
      FloatVector v = FloatVector.fromByteArray(F8, c.bytes, c.offset + 4 * k, LE);
      ((DoubleVector) v.convertShape(VectorOperators.F2D, D4, 0)).intoByteArray(out, at, LE);
      ((DoubleVector) v.convertShape(VectorOperators.F2D, D4, 1)).intoByteArray(out, at + 32, LE);
    } else {
      System.arraycopy(c.bytes, c.offset + 8 * k, out, at, 64);
    }
  }

  /**
   * Elements {@code [k, k + m)} ({@code m} a multiple of 8) of packed 1- or 2-byte integers as
   * doubles into {@code out} from byte {@code at}, unpacked as {@link LaneSums#addUnpackedRow}
   * does. A loop, not eight elements a call: too large for C2 to inline, it was a call every eight
   * elements (1.3 ns an element in session 46's RowMicro).
   */
  private static void unpacked(NumericChunk c, int from, int m, byte[] out, int at) {
    float skip = c.skipsOneValue ? (float) c.skippedValue : Float.NaN; // NaN equals nothing: no skip
    boolean inFloat = c.unpacksInFloat();
    float floatScale = (float) c.unpackScale();
    float floatOffset = (float) c.unpackOffset();
    double scale = c.unpackScale();
    double offset = c.unpackOffset();
    for (int j = 0; j < m; j += LANES) {
      int k = from + j;
      // widened to their values in the loop, not in a helper returning a vector (see ShuffledPlanes)
      IntVector ints = switch (c.layout) {
        case INT8 -> (IntVector) ByteVector.fromArray(B8, c.bytes, c.offset + k).convertShape(VectorOperators.B2I, I8, 0);
        case UINT8 -> ((IntVector) ByteVector.fromArray(B8, c.bytes, c.offset + k)
            .convertShape(VectorOperators.B2I, I8, 0)).and(0xFF);
        case INT16 -> (IntVector) ShortVector.fromByteArray(S8, c.bytes, c.offset + 2 * k, LE)
            .convertShape(VectorOperators.S2I, I8, 0);
        case UINT16 -> ((IntVector) ShortVector.fromByteArray(S8, c.bytes, c.offset + 2 * k, LE)
            .convertShape(VectorOperators.S2I, I8, 0)).and(0xFFFF);
        default -> throw new IllegalArgumentException("not a 1- or 2-byte integer layout: " + c.layout);
      };
      FloatVector raw = (FloatVector) ints.convertShape(VectorOperators.I2F, F8, 0);
      DoubleVector a;
      DoubleVector b;
      if (inFloat) {
        FloatVector v = raw.mul(floatScale).add(floatOffset).blend(Float.NaN, raw.eq(skip));
        a = (DoubleVector) v.convertShape(VectorOperators.F2D, D4, 0);
        b = (DoubleVector) v.convertShape(VectorOperators.F2D, D4, 1);
      } else {
        a = (DoubleVector) raw.convertShape(VectorOperators.F2D, D4, 0);
        b = (DoubleVector) raw.convertShape(VectorOperators.F2D, D4, 1);
        a = a.mul(scale).add(offset).blend(Double.NaN, a.eq(skip));
        b = b.mul(scale).add(offset).blend(Double.NaN, b.eq(skip));
      }
      a.intoByteArray(out, at + 8 * j, LE);
      b.intoByteArray(out, at + 8 * j + 32, LE);
    }
  }
}
