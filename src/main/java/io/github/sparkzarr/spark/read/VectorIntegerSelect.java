package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.Kernels;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link IntegerSelect} 32 bytes, 16 shorts, 8 ints or 8 longs (two vectors) at a time, compared as
 * stored: unsigned elements with their top bit flipped, which orders them as signed ones. Loaded
 * only with the Vector API.
 */
final class VectorIntegerSelect implements IntegerSelect {
  private static final VectorSpecies<Byte> B32 = ByteVector.SPECIES_256;
  private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_256;
  private static final VectorSpecies<Byte> B16 = ByteVector.SPECIES_128;
  private static final VectorSpecies<Byte> B8 = ByteVector.SPECIES_64;
  private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
  private static final VectorSpecies<Long> L4 = LongVector.SPECIES_256;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

  // Each loop is called through a handle so that C2 compiles it on its own (see Kernels); not
  // final, so no constants to C2.
  private static MethodHandle bytes = Kernels.find(MethodHandles.lookup(), "bytes");
  private static MethodHandle shorts = Kernels.find(MethodHandles.lookup(), "shorts");
  private static MethodHandle ints = Kernels.find(MethodHandles.lookup(), "ints");
  private static MethodHandle longs = Kernels.find(MethodHandles.lookup(), "longs");

  @Override
  public int select(NumericChunk chunk, int n, int outcomes, long literal, boolean skips, long skipped,
      byte[] keep) {
    int size = chunk.elementSize();
    int lanes = size == 1 ? 32 : size == 2 ? 16 : 8;
    int body = n - n % lanes;
    int kept;
    try {
      kept = switch (size) {
        case 1 -> (int) bytes.invokeExact(chunk, body, outcomes, literal, skips, skipped, keep);
        case 2 -> (int) shorts.invokeExact(chunk, body, outcomes, literal, skips, skipped, keep);
        case 4 -> (int) ints.invokeExact(chunk, body, outcomes, literal, skips, skipped, keep);
        default -> (int) longs.invokeExact(chunk, body, outcomes, literal, skips, skipped, keep);
      };
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
    return kept + IntegerSelect.Scalar.range(chunk, body, n, outcomes, literal, skips, skipped, keep);
  }

  // Each outcome's comparison is and-ed with an all-true or all-false mask of whether the filter
  // keeps it; written out in each loop, not in a helper taking vectors (see ShuffledPlanes). The
  // masked value is left out by and-ing "not equal to it, or nothing skipped", not by andNot:
  // andNot calls not() through VectorMask, a call whose profile every mask type shares, and once
  // C2 saw several it did not inline it, and the masks became objects allocated on every step
  // (the int16 loop, in a JVM that had run the sixteen variant layouts: docs/benchmarks.md).

  private static int bytes(NumericChunk c, int n, int outcomes, long literal, boolean skips, long skipped,
      byte[] keep) {
    byte flip = (byte) (c.layout == NumericChunk.Layout.UINT8 ? 0x80 : 0);
    byte lit = (byte) (literal ^ flip);
    byte skip = (byte) skipped;
    VectorMask<Byte> less = B32.maskAll((outcomes & 1) != 0);
    VectorMask<Byte> equal = B32.maskAll((outcomes & 2) != 0);
    VectorMask<Byte> greater = B32.maskAll((outcomes & 4) != 0);
    VectorMask<Byte> unskipped = B32.maskAll(!skips); // all true when nothing is skipped
    ByteVector zero = ByteVector.zero(B32);
    int kept = 0;
    for (int i = 0; i < n; i += 32) {
      ByteVector raw = ByteVector.fromArray(B32, c.bytes, c.offset + i);
      ByteVector e = raw.lanewise(VectorOperators.XOR, flip);
      VectorMask<Byte> k = e.lt(lit).and(less).or(e.eq(lit).and(equal))
          .or(e.compare(VectorOperators.GT, lit).and(greater))
          .and(raw.compare(VectorOperators.NE, skip).or(unskipped));
      zero.blend((byte) 1, k).intoArray(keep, i);
      kept += k.trueCount();
    }
    return kept;
  }

  private static int shorts(NumericChunk c, int n, int outcomes, long literal, boolean skips, long skipped,
      byte[] keep) {
    short flip = (short) (c.layout == NumericChunk.Layout.UINT16 ? 0x8000 : 0);
    short lit = (short) (literal ^ flip);
    short skip = (short) skipped;
    VectorMask<Short> less = S16.maskAll((outcomes & 1) != 0);
    VectorMask<Short> equal = S16.maskAll((outcomes & 2) != 0);
    VectorMask<Short> greater = S16.maskAll((outcomes & 4) != 0);
    VectorMask<Short> unskipped = S16.maskAll(!skips); // all true when nothing is skipped
    ShortVector zero = ShortVector.zero(S16);
    int kept = 0;
    for (int i = 0; i < n; i += 16) {
      ShortVector raw = ShortVector.fromByteArray(S16, c.bytes, c.offset + 2 * i, LE);
      ShortVector e = raw.lanewise(VectorOperators.XOR, flip);
      VectorMask<Short> k = e.lt(lit).and(less).or(e.eq(lit).and(equal))
          .or(e.compare(VectorOperators.GT, lit).and(greater))
          .and(raw.compare(VectorOperators.NE, skip).or(unskipped));
      zero.blend((short) 1, k).convertShape(VectorOperators.S2B, B16, 0).reinterpretAsBytes().intoArray(keep, i);
      kept += k.trueCount();
    }
    return kept;
  }

  private static int ints(NumericChunk c, int n, int outcomes, long literal, boolean skips, long skipped,
      byte[] keep) {
    int flip = c.layout == NumericChunk.Layout.UINT32 ? Integer.MIN_VALUE : 0;
    int lit = (int) literal ^ flip;
    int skip = (int) skipped;
    VectorMask<Integer> less = I8.maskAll((outcomes & 1) != 0);
    VectorMask<Integer> equal = I8.maskAll((outcomes & 2) != 0);
    VectorMask<Integer> greater = I8.maskAll((outcomes & 4) != 0);
    VectorMask<Integer> unskipped = I8.maskAll(!skips); // all true when nothing is skipped
    IntVector zero = IntVector.zero(I8);
    int kept = 0;
    for (int i = 0; i < n; i += 8) {
      IntVector raw = IntVector.fromByteArray(I8, c.bytes, c.offset + 4 * i, LE);
      IntVector e = raw.lanewise(VectorOperators.XOR, flip);
      VectorMask<Integer> k = e.lt(lit).and(less).or(e.eq(lit).and(equal))
          .or(e.compare(VectorOperators.GT, lit).and(greater))
          .and(raw.compare(VectorOperators.NE, skip).or(unskipped));
      zero.blend(1, k).convertShape(VectorOperators.I2B, B8, 0).reinterpretAsBytes().intoArray(keep, i);
      kept += k.trueCount();
    }
    return kept;
  }

  /** Eight int64 at a time, in two vectors whose marks are narrowed to ints and joined. */
  private static int longs(NumericChunk c, int n, int outcomes, long literal, boolean skips, long skipped,
      byte[] keep) {
    VectorMask<Long> less = L4.maskAll((outcomes & 1) != 0);
    VectorMask<Long> equal = L4.maskAll((outcomes & 2) != 0);
    VectorMask<Long> greater = L4.maskAll((outcomes & 4) != 0);
    VectorMask<Long> unskipped = L4.maskAll(!skips); // all true when nothing is skipped
    LongVector zero = LongVector.zero(L4);
    int kept = 0;
    for (int i = 0; i < n; i += 8) {
      int at = c.offset + 8 * i;
      LongVector x = LongVector.fromByteArray(L4, c.bytes, at, LE);
      LongVector y = LongVector.fromByteArray(L4, c.bytes, at + 32, LE);
      VectorMask<Long> low = x.lt(literal).and(less).or(x.eq(literal).and(equal))
          .or(x.compare(VectorOperators.GT, literal).and(greater))
          .and(x.compare(VectorOperators.NE, skipped).or(unskipped));
      VectorMask<Long> high = y.lt(literal).and(less).or(y.eq(literal).and(equal))
          .or(y.compare(VectorOperators.GT, literal).and(greater))
          .and(y.compare(VectorOperators.NE, skipped).or(unskipped));
      IntVector lows = (IntVector) zero.blend(1, low).convertShape(VectorOperators.L2I, I8, 0);
      IntVector highs = (IntVector) zero.blend(1, high).convertShape(VectorOperators.L2I, I8, -1);
      ((ByteVector) lows.or(highs).convertShape(VectorOperators.I2B, B8, 0)).intoArray(keep, i);
      kept += low.trueCount() + high.trueCount();
    }
    return kept;
  }
}
