package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.Kernels;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link LaneExtremes} with the Vector API: eight 4-byte or 2 × 4 8-byte lanes, reduced at the
 * end; for floating point, NaN replaced by the identity (-infinity for MAX, +infinity for MIN)
 * and counted. As in {@link VectorLaneSums}, no mask is set on one path and used after the paths
 * join (C2 would keep it as a heap object): a filter's dropped elements become NaN in the vector
 * and are counted apart, and a choice between comparisons is a choice of operands.
 */
final class VectorLaneExtremes implements LaneExtremes {
  private static final VectorSpecies<Float> F8 = FloatVector.SPECIES_256;
  private static final VectorSpecies<Double> D4 = DoubleVector.SPECIES_256;
  private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
  private static final VectorSpecies<Long> L4 = LongVector.SPECIES_256;
  private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_256;
  private static final VectorSpecies<Short> S8 = ShortVector.SPECIES_128;
  private static final VectorSpecies<Byte> B32 = ByteVector.SPECIES_256;
  private static final VectorSpecies<Byte> B16 = ByteVector.SPECIES_128;
  private static final VectorSpecies<Byte> B8 = ByteVector.SPECIES_64;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

  // The loops, each called through a handle so that C2 compiles it on its own (see Kernels); not
  // final, so no constants to C2.
  private static MethodHandle floatsBoth = Kernels.find(MethodHandles.lookup(), "floatsBoth");
  private static MethodHandle doublesBoth = Kernels.find(MethodHandles.lookup(), "doublesBoth");
  private static MethodHandle ints = Kernels.find(MethodHandles.lookup(), "ints");
  private static MethodHandle longs = Kernels.find(MethodHandles.lookup(), "longs");
  private static MethodHandle byteRun = Kernels.find(MethodHandles.lookup(), "byteRun");
  private static MethodHandle shortRun = Kernels.find(MethodHandles.lookup(), "shortRun");
  private static MethodHandle intRun = Kernels.find(MethodHandles.lookup(), "intRun");
  private static MethodHandle longRun = Kernels.find(MethodHandles.lookup(), "longRun");
  private static MethodHandle byteExtremes = Kernels.find(MethodHandles.lookup(), "byteExtremes");
  private static MethodHandle shortExtremes = Kernels.find(MethodHandles.lookup(), "shortExtremes");
  private static MethodHandle intExtremes = Kernels.find(MethodHandles.lookup(), "intExtremes");
  private static MethodHandle longExtremes = Kernels.find(MethodHandles.lookup(), "longExtremes");
  private static MethodHandle rowLoop = Kernels.find(MethodHandles.lookup(), "rowLoop");
  private static MethodHandle byteRow = Kernels.find(MethodHandles.lookup(), "byteRow");
  private static MethodHandle shortRow = Kernels.find(MethodHandles.lookup(), "shortRow");
  private static MethodHandle intRow = Kernels.find(MethodHandles.lookup(), "intRow");

  @Override
  public void extremes(NumericChunk c, int i, int n, double skip, byte[] keep, double[] both, int[] left) {
    try {
      if (c.layout == NumericChunk.Layout.FLOAT32) {
        floatsBoth.invokeExact(c, i, n, skip, keep, both, left);
      } else {
        doublesBoth.invokeExact(c, i, n, skip, keep, both, left);
      }
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  @Override
  public long integralExtreme(NumericChunk c, int i, int n, boolean max) {
    try {
      return c.layout == NumericChunk.Layout.INT32 ? (long) ints.invokeExact(c, i, n, max)
          : (long) longs.invokeExact(c, i, n, max);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  /**
   * Unsigned values are compared as signed ones with their top bit flipped, which keeps their
   * order; left-out elements are replaced by the identity of MIN and of MAX and counted.
   */
  @Override
  public void storedIntegerExtremes(NumericChunk c, int i, int n, byte[] keep, long[] out) {
    NumericChunk.Layout t = c.layout;
    boolean unsigned = t == NumericChunk.Layout.UINT8 || t == NumericChunk.Layout.UINT16
        || t == NumericChunk.Layout.UINT32;
    int bits = 8 * c.elementSize();
    long lowest = unsigned ? 0 : -(1L << (bits - 1));
    // a masked value outside the type's range masks nothing
    boolean skips = c.skipsOneValue
        && (bits == 64 || c.skippedValue >= lowest && c.skippedValue < lowest + (1L << bits));
    if (keep == null) {
      // no filter: both extremes without a compare or blend per vector (see leaveOut)
      long flip = unsigned ? 1L << (bits - 1) : 0;
      // in the lanes' signed order, sign-extended as their reductions are
      long skip = ((c.skippedValue ^ flip) << (64 - bits)) >> (64 - bits);
      try {
        switch (bits) {
          case 8 -> byteRun.invokeExact(c, i, n, (byte) flip, (byte) skip, out);
          case 16 -> shortRun.invokeExact(c, i, n, (short) flip, (short) skip, out);
          case 32 -> intRun.invokeExact(c, i, n, (int) flip, (int) skip, out);
          default -> longRun.invokeExact(c, i, n, skip, out);
        }
      } catch (Throwable e) {
        throw Kernels.unchecked(e);
      }
      leaveOut(out, skips, skip);
      if (out[2] > 0) {
        out[0] = unflip(out[0], flip, bits);
        out[1] = unflip(out[1], flip, bits);
      }
      return;
    }
    // a filter's marks (never null here): each loop ors them into its masks unconditionally
    try {
      long left = switch (bits) {
        case 8 -> (long) byteExtremes.invokeExact(c, i, n, unsigned, skips, keep, out);
        case 16 -> (long) shortExtremes.invokeExact(c, i, n, unsigned, skips, keep, out);
        case 32 -> (long) intExtremes.invokeExact(c, i, n, unsigned, skips, keep, out);
        default -> (long) longExtremes.invokeExact(c, i, n, skips, keep, out);
      };
      out[2] = n - left;
    } catch (Throwable e) {
      throw Kernels.unchecked(e);
    }
  }

  /**
   * Leaves the masked value {@code skip} out of a run's extremes with no compare per element.
   * {@code out} holds, in the type's signed order (unsigned values with their top bit flipped):
   * the smallest and largest elements, then the smallest element after {@code skip} and the
   * largest before it in the type's cyclic order (that is, of the elements shifted so that {@code
   * skip + 1} is the lowest value and {@code skip} the highest, and so that {@code skip} is the
   * lowest and {@code skip - 1} the highest). If the smallest element is not {@code skip}, it is
   * the minimum; if it is, every other element lies above {@code skip}, so the first after it in
   * the cyclic order is. The same goes for the maximum. Both equal to {@code skip}: all are masked.
   * Sets {@code out[0]}, {@code out[1]} and {@code out[2]} (positive if any element is kept).
   */
  static void leaveOut(long[] out, boolean skips, long skip) {
    if (!skips) {
      out[2] = 1;
    } else if (out[0] == skip && out[1] == skip) {
      out[2] = 0;
    } else {
      out[0] = out[0] != skip ? out[0] : out[2];
      out[1] = out[1] != skip ? out[1] : out[3];
      out[2] = 1;
    }
  }

  /** A value of {@code bits} bits in flipped signed order, back to the type's own (unsigned: zero-extended). */
  private static long unflip(long v, long flip, int bits) {
    return flip == 0 ? v : (v ^ flip) & (-1L >>> (64 - bits));
  }

  /**
   * The four extremes of {@link #leaveOut} of int64 elements: {@code x + up} puts {@code skip + 1}
   * lowest and {@code skip} highest (wrapping), {@code x + down} puts {@code skip} lowest and
   * {@code skip - 1} highest; subtracting them again gives the elements. Each width has its own
   * copy of this loop: the Vector API's types differ per width, and a loop generic over them is
   * not compiled into SIMD instructions.
   */
  private static void longRun(NumericChunk c, int i, int n, long skip, long[] out) {
    long up = Long.MIN_VALUE - skip - 1;
    long down = Long.MIN_VALUE - skip;
    LongVector lo = LongVector.broadcast(L4, Long.MAX_VALUE);
    LongVector hi = LongVector.broadcast(L4, Long.MIN_VALUE);
    LongVector after = lo;
    LongVector before = hi;
    long[] scratch = ShuffledPlanes.SCRATCH.get();
    for (int j = i; j < i + n; ) {
      int step = ShuffledPlanes.unordered(c, j, i + n, scratch);
      for (int part = 0; part < step / 4; part++) {
        LongVector x = c.plane == 0 ? LongVector.fromByteArray(L4, c.bytes, c.offset + 8 * j + 32 * part, LE)
            : LongVector.fromArray(L4, scratch, 4 * part);
        lo = lo.min(x);
        hi = hi.max(x);
        after = after.min(x.add(up));
        before = before.max(x.add(down));
      }
      j += step;
    }
    out[0] = lo.reduceLanes(VectorOperators.MIN);
    out[1] = hi.reduceLanes(VectorOperators.MAX);
    out[2] = after.reduceLanes(VectorOperators.MIN) - up;
    out[3] = before.reduceLanes(VectorOperators.MAX) - down;
  }

  /** {@link #longRun} of int32 and uint32 ({@code flip} the top bit for unsigned). */
  private static void intRun(NumericChunk c, int i, int n, int flip, int skip, long[] out) {
    int up = Integer.MIN_VALUE - skip - 1;
    int down = Integer.MIN_VALUE - skip;
    IntVector lo = IntVector.broadcast(I8, Integer.MAX_VALUE);
    IntVector hi = IntVector.broadcast(I8, Integer.MIN_VALUE);
    IntVector after = lo;
    IntVector before = hi;
    int[] words = new int[4 * LANES];
    for (int j = i; j < i + n; j += 4 * LANES) {
      if (c.plane != 0) {
        // from a byte-shuffled block, 32 elements out of order: it does not matter here
        ShuffledPlanes.intsUnordered(c.bytes, c.offset + j, c.plane, words);
      }
      for (int part = 0; part < 4; part++) {
        IntVector x = c.plane == 0 ? IntVector.fromByteArray(I8, c.bytes, c.offset + 4 * j + 32 * part, LE)
            : IntVector.fromArray(I8, words, LANES * part);
        x = x.lanewise(VectorOperators.XOR, flip);
        lo = lo.min(x);
        hi = hi.max(x);
        after = after.min(x.add(up));
        before = before.max(x.add(down));
      }
    }
    out[0] = lo.reduceLanes(VectorOperators.MIN);
    out[1] = hi.reduceLanes(VectorOperators.MAX);
    out[2] = (int) (after.reduceLanes(VectorOperators.MIN) - up);
    out[3] = (int) (before.reduceLanes(VectorOperators.MAX) - down);
  }

  /** {@link #longRun} of int16 and uint16. */
  private static void shortRun(NumericChunk c, int i, int n, short flip, short skip, long[] out) {
    short up = (short) (Short.MIN_VALUE - skip - 1);
    short down = (short) (Short.MIN_VALUE - skip);
    ShortVector lo = ShortVector.broadcast(S16, Short.MAX_VALUE);
    ShortVector hi = ShortVector.broadcast(S16, Short.MIN_VALUE);
    ShortVector after = lo;
    ShortVector before = hi;
    for (int j = i; j < i + n; j += S16.length()) {
      ShortVector x = ShortVector.fromByteArray(S16, c.bytes, c.offset + 2 * j, LE).lanewise(VectorOperators.XOR, flip);
      lo = lo.min(x);
      hi = hi.max(x);
      after = after.min(x.add(up));
      before = before.max(x.add(down));
    }
    out[0] = lo.reduceLanes(VectorOperators.MIN);
    out[1] = hi.reduceLanes(VectorOperators.MAX);
    out[2] = (short) (after.reduceLanes(VectorOperators.MIN) - up);
    out[3] = (short) (before.reduceLanes(VectorOperators.MAX) - down);
  }

  /** {@link #longRun} of int8 and uint8. */
  private static void byteRun(NumericChunk c, int i, int n, byte flip, byte skip, long[] out) {
    byte up = (byte) (Byte.MIN_VALUE - skip - 1);
    byte down = (byte) (Byte.MIN_VALUE - skip);
    ByteVector lo = ByteVector.broadcast(B32, Byte.MAX_VALUE);
    ByteVector hi = ByteVector.broadcast(B32, Byte.MIN_VALUE);
    ByteVector after = lo;
    ByteVector before = hi;
    for (int j = i; j < i + n; j += B32.length()) {
      ByteVector x = ByteVector.fromArray(B32, c.bytes, c.offset + j).lanewise(VectorOperators.XOR, flip);
      lo = lo.min(x);
      hi = hi.max(x);
      after = after.min(x.add(up));
      before = before.max(x.add(down));
    }
    out[0] = lo.reduceLanes(VectorOperators.MIN);
    out[1] = hi.reduceLanes(VectorOperators.MAX);
    out[2] = (byte) (after.reduceLanes(VectorOperators.MIN) - up);
    out[3] = (byte) (before.reduceLanes(VectorOperators.MAX) - down);
  }

  private static long longExtremes(NumericChunk c, int i, int n, boolean skips, byte[] keep, long[] out) {
    long skip = c.skippedValue;
    VectorMask<Long> skipping = L4.maskAll(skips);
    LongVector lo = LongVector.broadcast(L4, Long.MAX_VALUE);
    LongVector hi = LongVector.broadcast(L4, Long.MIN_VALUE);
    long left = 0;
    for (int j = i; j < i + n; j += 8) {
      for (int part = 0; part < 2; part++) {
        LongVector v = LongVector.fromByteArray(L4, c.bytes, c.offset + 8 * j + 32 * part, LE);
        // the marks of elements j + 4 * part on: half of the eight from j
        VectorMask<Long> dropped = v.eq(skip).and(skipping).or(((LongVector) ByteVector.fromArray(B8, keep, j)
            .convertShape(VectorOperators.B2L, L4, part)).eq(0));
        lo = lo.min(v.blend(Long.MAX_VALUE, dropped));
        hi = hi.max(v.blend(Long.MIN_VALUE, dropped));
        left += dropped.trueCount();
      }
    }
    out[0] = lo.reduceLanes(VectorOperators.MIN);
    out[1] = hi.reduceLanes(VectorOperators.MAX);
    return left;
  }

  private static long intExtremes(NumericChunk c, int i, int n, boolean unsigned, boolean skips, byte[] keep,
      long[] out) {
    int flip = unsigned ? Integer.MIN_VALUE : 0;
    int skip = (int) c.skippedValue;
    VectorMask<Integer> skipping = I8.maskAll(skips);
    IntVector lo = IntVector.broadcast(I8, Integer.MAX_VALUE);
    IntVector hi = IntVector.broadcast(I8, Integer.MIN_VALUE);
    long left = 0;
    for (int j = i; j < i + n; j += I8.length()) {
      IntVector v = IntVector.fromByteArray(I8, c.bytes, c.offset + 4 * j, LE);
      VectorMask<Integer> out0 = v.eq(skip).and(skipping).or(((IntVector) ByteVector.fromArray(B8, keep, j)
          .convertShape(VectorOperators.B2I, I8, 0)).eq(0));
      IntVector x = v.lanewise(VectorOperators.XOR, flip);
      lo = lo.min(x.blend(Integer.MAX_VALUE, out0));
      hi = hi.max(x.blend(Integer.MIN_VALUE, out0));
      left += out0.trueCount();
    }
    int min = lo.reduceLanes(VectorOperators.MIN) ^ flip;
    int max = hi.reduceLanes(VectorOperators.MAX) ^ flip;
    out[0] = unsigned ? min & 0xFFFFFFFFL : min;
    out[1] = unsigned ? max & 0xFFFFFFFFL : max;
    return left;
  }

  private static long shortExtremes(NumericChunk c, int i, int n, boolean unsigned, boolean skips, byte[] keep,
      long[] out) {
    short flip = unsigned ? Short.MIN_VALUE : 0;
    short skip = (short) c.skippedValue;
    VectorMask<Short> skipping = S16.maskAll(skips);
    ShortVector lo = ShortVector.broadcast(S16, Short.MAX_VALUE);
    ShortVector hi = ShortVector.broadcast(S16, Short.MIN_VALUE);
    long left = 0;
    for (int j = i; j < i + n; j += S16.length()) {
      ShortVector v = ShortVector.fromByteArray(S16, c.bytes, c.offset + 2 * j, LE);
      // a filter's marks of the same elements: dropped ones are left out like masked ones
      VectorMask<Short> out0 = v.eq(skip).and(skipping).or(((ShortVector) ByteVector.fromArray(B16, keep, j)
          .convertShape(VectorOperators.B2S, S16, 0)).eq((short) 0));
      ShortVector x = v.lanewise(VectorOperators.XOR, flip);
      lo = lo.min(x.blend(Short.MAX_VALUE, out0));
      hi = hi.max(x.blend(Short.MIN_VALUE, out0));
      left += out0.trueCount();
    }
    short min = (short) (lo.reduceLanes(VectorOperators.MIN) ^ flip);
    short max = (short) (hi.reduceLanes(VectorOperators.MAX) ^ flip);
    out[0] = unsigned ? min & 0xFFFF : min;
    out[1] = unsigned ? max & 0xFFFF : max;
    return left;
  }

  private static long byteExtremes(NumericChunk c, int i, int n, boolean unsigned, boolean skips, byte[] keep,
      long[] out) {
    byte flip = unsigned ? Byte.MIN_VALUE : 0;
    byte skip = (byte) c.skippedValue;
    VectorMask<Byte> skipping = B32.maskAll(skips);
    ByteVector lo = ByteVector.broadcast(B32, Byte.MAX_VALUE);
    ByteVector hi = ByteVector.broadcast(B32, Byte.MIN_VALUE);
    long left = 0;
    for (int j = i; j < i + n; j += B32.length()) {
      ByteVector v = ByteVector.fromArray(B32, c.bytes, c.offset + j);
      VectorMask<Byte> out0 = v.eq(skip).and(skipping).or(ByteVector.fromArray(B32, keep, j).eq((byte) 0));
      ByteVector x = v.lanewise(VectorOperators.XOR, flip);
      lo = lo.min(x.blend(Byte.MAX_VALUE, out0));
      hi = hi.max(x.blend(Byte.MIN_VALUE, out0));
      left += out0.trueCount();
    }
    byte min = (byte) (lo.reduceLanes(VectorOperators.MIN) ^ flip);
    byte max = (byte) (hi.reduceLanes(VectorOperators.MAX) ^ flip);
    out[0] = unsigned ? min & 0xFF : min;
    out[1] = unsigned ? max & 0xFF : max;
    return left;
  }

  @Override
  public int row(NumericChunk c, int i, int n, byte[] keep, boolean max, double skip, double[] extremes, int at) {
    try {
      int found = 0;
      for (int j = 0, length; j < n; j += length) {
        length = RowElements.piece(c, n - j);
        found |= (int) rowLoop.invokeExact(RowElements.bytes(c, i + j, length), RowElements.offset(c, i + j), length,
            keep, i + j, max, skip, extremes, at + j);
      }
      return found;
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  /**
   * {@link #row} of {@code n} doubles from byte {@code from} of {@code values} (see RowElements),
   * marked from {@code keep[k]}.
   */
  private static int rowLoop(byte[] values, int from, int n, byte[] keep, int k, boolean max, double skip,
      double[] extremes, int at) {
    // whether any element was NaN, any slot filled: scalars asked by anyTrue, not counted in lanes
    // by masked adds, which made this loop's compilation large enough for C2 to leave some of
    // its Vector API calls uncompiled (the vector audit, session 45)
    boolean sawNaN = false;
    boolean filled = false;
    for (int j = 0; j < n; j += LANES) {
      for (int part = 0; part < LANES; part += 4) {
        DoubleVector v = DoubleVector.fromByteArray(D4, values, from + 8 * (j + part), LE);
        sawNaN |= v.test(VectorOperators.IS_NAN).anyTrue();
        v = v.blend(Double.NaN, v.eq(skip)); // a masked value is left out as NaN is; NaN never equals
        if (keep != null) {
          v = v.blend(Double.NaN, ((DoubleVector) ByteVector.fromArray(B8, keep, k + j)
              .convertShape(VectorOperators.B2D, D4, part / 4)).eq(0));
        }
        int to = at + j + part;
        DoubleVector best = DoubleVector.fromArray(D4, extremes, to);
        // One comparison with a constant operator (C2 compiles a comparison into SIMD only with a
        // known operator), its operands chosen: a mask chosen by a branch would be a heap object.
        DoubleVector greater = max ? v : best;
        DoubleVector less = max ? best : v;
        VectorMask<Double> better = greater.compare(VectorOperators.GT, less);
        // A NaN compares false, so it is never taken; an empty slot (NaN) takes any number, which
        // equals itself (v.eq(v), not andNot: see VectorIntegerSelect).
        VectorMask<Double> fill = best.test(VectorOperators.IS_NAN).and(v.eq(v));
        filled |= fill.anyTrue();
        best.blend(v, better.or(fill)).intoArray(extremes, to);
      }
    }
    return (sawNaN ? ROW_NAN : 0) | (filled ? ROW_FILLED : 0);
  }

  @Override
  public int integerRow(NumericChunk c, int i, int n, byte[] keep, boolean max, long[] extremes, int at) {
    try {
      boolean filled = switch (c.elementSize()) {
        case 1 -> (boolean) byteRow.invokeExact(c, i, n, keep, max, extremes, at);
        case 2 -> (boolean) shortRow.invokeExact(c, i, n, keep, max, extremes, at);
        default -> (boolean) intRow.invokeExact(c, i, n, keep, max, extremes, at);
      };
      return filled ? ROW_FILLED : 0;
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  // The integer rows, one loop per width: with the five layouts' widenings in one loop and a
  // masked add counting the filled slots, the vector audit found it compiled with its vectors as
  // heap objects (past C2's inlining budget). Whether a slot was filled is a scalar per step
  // (anyTrue). The loops differ only in how eight elements are widened to int lanes.

  private static boolean byteRow(NumericChunk c, int i, int n, byte[] keep, boolean max, long[] extremes, int at) {
    long identity = max ? Long.MIN_VALUE : Long.MAX_VALUE;
    LongVector empty = LongVector.broadcast(L4, identity);
    // a masked value the layout cannot hold masks nothing (and would wrap in an int lane)
    VectorMask<Integer> skipping = I8.maskAll(c.skipsOneValue && IntegerSelect.holds(c.layout, c.skippedValue));
    int skip = (int) c.skippedValue;
    IntVector ones = IntVector.broadcast(I8, 1);
    boolean filled = false;
    for (int j = 0; j < n; j += LANES) {
      int k = i + j;
      IntVector ints = ((IntVector) ByteVector.fromArray(B8, c.bytes, c.offset + k)
          .convertShape(VectorOperators.B2I, I8, 0)).and(c.layout == NumericChunk.Layout.UINT8 ? 0xFF : -1);
      long unsigned = -1L;
      IntVector marks = keep == null ? ones
          : (IntVector) ByteVector.fromArray(B8, keep, k).convertShape(VectorOperators.B2I, I8, 0);
      IntVector kept = marks.blend(0, ints.eq(skip).and(skipping));
      for (int part = 0; part < 2; part++) {
        LongVector v = ((LongVector) ints.convertShape(VectorOperators.I2L, L4, part)).and(unsigned);
        // a left-out element becomes the identity, which beats nothing
        v = empty.blend(v, ((LongVector) kept.convertShape(VectorOperators.I2L, L4, part)).eq(1));
        int to = at + j + 4 * part;
        LongVector best = LongVector.fromArray(L4, extremes, to);
        // one comparison with a constant operator, its operands chosen (see rowLoop)
        LongVector greater = max ? v : best;
        LongVector less = max ? best : v;
        VectorMask<Long> better = greater.compare(VectorOperators.GT, less);
        filled |= better.and(best.eq(identity)).anyTrue();
        best.blend(v, better).intoArray(extremes, to);
      }
    }
    return filled;
  }

  private static boolean shortRow(NumericChunk c, int i, int n, byte[] keep, boolean max, long[] extremes, int at) {
    long identity = max ? Long.MIN_VALUE : Long.MAX_VALUE;
    LongVector empty = LongVector.broadcast(L4, identity);
    // a masked value the layout cannot hold masks nothing (and would wrap in an int lane)
    VectorMask<Integer> skipping = I8.maskAll(c.skipsOneValue && IntegerSelect.holds(c.layout, c.skippedValue));
    int skip = (int) c.skippedValue;
    IntVector ones = IntVector.broadcast(I8, 1);
    boolean filled = false;
    for (int j = 0; j < n; j += LANES) {
      int k = i + j;
      IntVector ints = ((IntVector) ShortVector.fromByteArray(S8, c.bytes, c.offset + 2 * k, LE)
          .convertShape(VectorOperators.S2I, I8, 0)).and(c.layout == NumericChunk.Layout.UINT16 ? 0xFFFF : -1);
      long unsigned = -1L;
      IntVector marks = keep == null ? ones
          : (IntVector) ByteVector.fromArray(B8, keep, k).convertShape(VectorOperators.B2I, I8, 0);
      IntVector kept = marks.blend(0, ints.eq(skip).and(skipping));
      for (int part = 0; part < 2; part++) {
        LongVector v = ((LongVector) ints.convertShape(VectorOperators.I2L, L4, part)).and(unsigned);
        // a left-out element becomes the identity, which beats nothing
        v = empty.blend(v, ((LongVector) kept.convertShape(VectorOperators.I2L, L4, part)).eq(1));
        int to = at + j + 4 * part;
        LongVector best = LongVector.fromArray(L4, extremes, to);
        // one comparison with a constant operator, its operands chosen (see rowLoop)
        LongVector greater = max ? v : best;
        LongVector less = max ? best : v;
        VectorMask<Long> better = greater.compare(VectorOperators.GT, less);
        filled |= better.and(best.eq(identity)).anyTrue();
        best.blend(v, better).intoArray(extremes, to);
      }
    }
    return filled;
  }

  private static boolean intRow(NumericChunk c, int i, int n, byte[] keep, boolean max, long[] extremes, int at) {
    long identity = max ? Long.MIN_VALUE : Long.MAX_VALUE;
    LongVector empty = LongVector.broadcast(L4, identity);
    // a masked value the layout cannot hold masks nothing (and would wrap in an int lane)
    VectorMask<Integer> skipping = I8.maskAll(c.skipsOneValue && IntegerSelect.holds(c.layout, c.skippedValue));
    int skip = (int) c.skippedValue;
    IntVector ones = IntVector.broadcast(I8, 1);
    boolean filled = false;
    for (int j = 0; j < n; j += LANES) {
      int k = i + j;
      IntVector ints = IntVector.fromByteArray(I8, c.bytes, c.offset + 4 * k, LE);
      long unsigned = c.layout == NumericChunk.Layout.UINT32 ? 0xFFFFFFFFL : -1L;
      IntVector marks = keep == null ? ones
          : (IntVector) ByteVector.fromArray(B8, keep, k).convertShape(VectorOperators.B2I, I8, 0);
      IntVector kept = marks.blend(0, ints.eq(skip).and(skipping));
      for (int part = 0; part < 2; part++) {
        LongVector v = ((LongVector) ints.convertShape(VectorOperators.I2L, L4, part)).and(unsigned);
        // a left-out element becomes the identity, which beats nothing
        v = empty.blend(v, ((LongVector) kept.convertShape(VectorOperators.I2L, L4, part)).eq(1));
        int to = at + j + 4 * part;
        LongVector best = LongVector.fromArray(L4, extremes, to);
        // one comparison with a constant operator, its operands chosen (see rowLoop)
        LongVector greater = max ? v : best;
        LongVector less = max ? best : v;
        VectorMask<Long> better = greater.compare(VectorOperators.GT, less);
        filled |= better.and(best.eq(identity)).anyTrue();
        best.blend(v, better).intoArray(extremes, to);
      }
    }
    return filled;
  }

  private static long ints(NumericChunk c, int i, int n, boolean max) {
    IntVector acc = IntVector.broadcast(I8, max ? Integer.MIN_VALUE : Integer.MAX_VALUE);
    int[] words = new int[4 * LANES];
    for (int j = i; j < i + n; ) {
      // from a byte-shuffled block, 32 elements out of order while there are 32 (the order does
      // not matter to an extreme), else eight
      int step = c.plane == 0 ? LANES : j + 4 * LANES <= i + n ? 4 * LANES : LANES;
      if (c.plane != 0) {
        if (step == LANES) {
          ShuffledPlanes.ints(c.bytes, c.offset + j, c.plane, words);
        } else {
          ShuffledPlanes.intsUnordered(c.bytes, c.offset + j, c.plane, words);
        }
      }
      for (int part = 0; part < step / LANES; part++) {
        IntVector v = c.plane == 0 ? IntVector.fromByteArray(I8, c.bytes, c.offset + 4 * j, LE)
            : IntVector.fromArray(I8, words, LANES * part);
        acc = max ? acc.max(v) : acc.min(v);
      }
      j += step;
    }
    return max ? acc.reduceLanes(VectorOperators.MAX) : acc.reduceLanes(VectorOperators.MIN);
  }

  private static long longs(NumericChunk c, int i, int n, boolean max) {
    LongVector acc = LongVector.broadcast(L4, max ? Long.MIN_VALUE : Long.MAX_VALUE);
    long[] scratch = ShuffledPlanes.SCRATCH.get();
    for (int j = i; j < i + n; ) {
      // the order of the elements does not matter to an extreme
      int step = ShuffledPlanes.unordered(c, j, i + n, scratch);
      for (int part = 0; part < step / 4; part++) {
        LongVector v = c.plane == 0 ? LongVector.fromByteArray(L4, c.bytes, c.offset + 8 * j + 32 * part, LE)
            : LongVector.fromArray(L4, scratch, 4 * part);
        acc = max ? acc.max(v) : acc.min(v);
      }
      j += step;
    }
    return max ? acc.reduceLanes(VectorOperators.MAX) : acc.reduceLanes(VectorOperators.MIN);
  }

  /** Both extremes of float32 elements: each is loaded (or gathered from its planes) once. */
  private static void floatsBoth(NumericChunk c, int i, int n, double skip, byte[] keep, double[] both,
      int[] left) {
    float f = (float) skip;
    float missing = f == skip ? f : Float.NaN; // NaN: no element equals it
    FloatVector lo = FloatVector.broadcast(F8, Float.POSITIVE_INFINITY);
    FloatVector hi = FloatVector.broadcast(F8, Float.NEGATIVE_INFINITY);
    int nan = 0;
    int skipped = 0;
    int[] words = new int[LANES];
    for (int j = i; j < i + n; j += LANES) {
      FloatVector v;
      if (c.plane == 0) {
        v = FloatVector.fromByteArray(F8, c.bytes, c.offset + 4 * j, LE);
      } else {
        ShuffledPlanes.ints(c.bytes, c.offset + j, c.plane, words);
        v = IntVector.fromArray(I8, words, 0).reinterpretAsFloats();
      }
      int dropped = 0;
      if (keep != null) {
        // a filter's marks of the same elements: a dropped one becomes NaN, then is counted apart
        VectorMask<Float> drop = ((FloatVector) ByteVector.fromArray(B8, keep, j)
            .convertShape(VectorOperators.B2F, F8, 0)).eq(0f);
        dropped = drop.trueCount();
        v = v.blend(Float.NaN, drop);
      }
      VectorMask<Float> isNaN = v.compare(VectorOperators.NE, v);
      VectorMask<Float> out = isNaN.or(v.eq(missing));
      if (out.anyTrue()) {
        int k = isNaN.trueCount();
        nan += k - dropped;
        skipped += out.trueCount() - k + dropped;
        lo = lo.min(v.blend(Float.POSITIVE_INFINITY, out));
        hi = hi.max(v.blend(Float.NEGATIVE_INFINITY, out));
      } else {
        lo = lo.min(v);
        hi = hi.max(v);
      }
    }
    left[0] += nan;
    left[1] += skipped;
    both[0] = lo.reduceLanes(VectorOperators.MIN);
    both[1] = hi.reduceLanes(VectorOperators.MAX);
  }

  /** Both extremes of float64 elements. */
  private static void doublesBoth(NumericChunk c, int i, int n, double skip, byte[] keep, double[] both,
      int[] left) {
    DoubleVector lo = DoubleVector.broadcast(D4, Double.POSITIVE_INFINITY);
    DoubleVector hi = DoubleVector.broadcast(D4, Double.NEGATIVE_INFINITY);
    int nan = 0;
    int skipped = 0;
    long[] scratch = ShuffledPlanes.SCRATCH.get();
    for (int j = i; j < i + n; ) {
      int step = ShuffledPlanes.step(c, j, i + n, scratch);
      for (int part = 0; part < step / 4; part++) {
        DoubleVector v = c.plane == 0 ? DoubleVector.fromByteArray(D4, c.bytes, c.offset + 8 * j + 32 * part, LE)
            : LongVector.fromArray(L4, scratch, 32 + 4 * part).reinterpretAsDoubles();
        int dropped = 0;
        if (keep != null) {
          // the marks of elements j + 4 * part on (half of the eight from j + 8 * (part / 2)): a
          // dropped element becomes NaN, then is counted apart
          VectorMask<Double> drop = ((DoubleVector) ByteVector.fromArray(B8, keep, j + 8 * (part / 2))
              .convertShape(VectorOperators.B2D, D4, part % 2)).eq(0);
          dropped = drop.trueCount();
          v = v.blend(Double.NaN, drop);
        }
        VectorMask<Double> isNaN = v.compare(VectorOperators.NE, v);
        VectorMask<Double> out = isNaN.or(v.eq(skip)); // a NaN skip equals nothing
        if (out.anyTrue()) {
          int k = isNaN.trueCount();
          nan += k - dropped;
          skipped += out.trueCount() - k + dropped;
          lo = lo.min(v.blend(Double.POSITIVE_INFINITY, out));
          hi = hi.max(v.blend(Double.NEGATIVE_INFINITY, out));
        } else {
          lo = lo.min(v);
          hi = hi.max(v);
        }
      }
      j += step;
    }
    left[0] += nan;
    left[1] += skipped;
    both[0] = lo.reduceLanes(VectorOperators.MIN);
    both[1] = hi.reduceLanes(VectorOperators.MAX);
  }
}
