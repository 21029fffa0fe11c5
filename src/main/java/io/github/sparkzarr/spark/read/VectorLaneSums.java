package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.Kernels;
import io.github.sparkzarr.zarr.codec.blosc.VectorByteTranspose;
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
 * {@link LaneSums} with the Vector API (JDK incubator module, which Spark 4 adds to its JVMs):
 * eight elements at a time, their doubles in two 4-lane vectors, so vector lane k of the pair is
 * lane k of the scalar loops and the sums are the same bits. A shuffled block's planes are widened
 * and merged into whole elements in registers, without an un-shuffled copy.
 *
 * <p>No mask here is set on one path and used after the paths join (a filter's marks, say): C2 (JDK
 * 17) keeps such a mask as a heap object, allocated on every step, while a vector chosen that way
 * stays in a register. So what depends on a condition is chosen as a vector (the marks, or all
 * kept) or a scalar (a value no element equals), and the masks are made from it after the choice.
 */
final class VectorLaneSums implements LaneSums {
  private static final VectorSpecies<Double> D4 = DoubleVector.SPECIES_256;
  private static final VectorSpecies<Float> F8 = FloatVector.SPECIES_256;
  private static final VectorSpecies<Long> L4 = LongVector.SPECIES_256;
  private static final VectorSpecies<Short> S8 = ShortVector.SPECIES_128;
  private static final VectorSpecies<Byte> B8 = ByteVector.SPECIES_64;
  private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
  private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_256;
  private static final VectorSpecies<Byte> B32 = ByteVector.SPECIES_256;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

  // The loops, each called through a handle so that C2 compiles it on its own (see Kernels); not
  // final, so no constants to C2.
  private static MethodHandle floats = Kernels.find(MethodHandles.lookup(), "floats");
  private static MethodHandle doubles = Kernels.find(MethodHandles.lookup(), "doubles");
  private static MethodHandle shuffledFloats = Kernels.find(MethodHandles.lookup(), "shuffledFloats");
  private static MethodHandle shuffledDoubles = Kernels.find(MethodHandles.lookup(), "shuffledDoubles");
  private static MethodHandle floatsSkipping = Kernels.find(MethodHandles.lookup(), "floatsSkipping");
  private static MethodHandle doublesSkipping = Kernels.find(MethodHandles.lookup(), "doublesSkipping");
  private static MethodHandle transformed = Kernels.find(MethodHandles.lookup(), "transformed");
  private static MethodHandle unpackedSmall = Kernels.find(MethodHandles.lookup(), "unpackedSmall");
  private static MethodHandle sumNarrow = Kernels.find(MethodHandles.lookup(), "sumNarrow");
  private static MethodHandle sumBytes = Kernels.find(MethodHandles.lookup(), "sumBytes");
  private static MethodHandle sumShorts = Kernels.find(MethodHandles.lookup(), "sumShorts");
  private static MethodHandle sumInts = Kernels.find(MethodHandles.lookup(), "sumInts");
  private static MethodHandle longSum = Kernels.find(MethodHandles.lookup(), "longSum");
  private static MethodHandle planeSum = Kernels.find(MethodHandles.lookup(), "planeSum");
  private static MethodHandle matchesInPlanes = Kernels.find(MethodHandles.lookup(), "matchesInPlanes");
  private static MethodHandle unpackedRow = Kernels.find(MethodHandles.lookup(), "unpackedRow");
  private static MethodHandle integerRow = Kernels.find(MethodHandles.lookup(), "integerRow");
  private static MethodHandle row = Kernels.find(MethodHandles.lookup(), "row");
  private static MethodHandle rowSkipping = Kernels.find(MethodHandles.lookup(), "rowSkipping");

  @Override
  public void addFloats(byte[] b, int offset, int n, double[] sums, int at) {
    try {
      floats.invokeExact(b, offset, n, sums, at);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  @Override
  public void addDoubles(byte[] b, int offset, int n, double[] sums, int at) {
    try {
      doubles.invokeExact(b, offset, n, sums, at);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  @Override
  public void addShuffledFloats(byte[] b, int offset, int plane, int n, double[] sums, int at) {
    try {
      shuffledFloats.invokeExact(b, offset, plane, n, sums, at);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  @Override
  public void addShuffledDoubles(byte[] b, int offset, int plane, int n, double[] sums, int at) {
    try {
      shuffledDoubles.invokeExact(b, offset, plane, n, sums, at);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  @Override
  public int addSkipping(NumericChunk c, int i, int m, byte[] keep, double[] sums, int at, double skip,
      boolean nan) {
    try {
      if (c.layout != NumericChunk.Layout.FLOAT32) {
        return (int) doublesSkipping.invokeExact(c, i, m, keep, sums, at, skip, nan);
      }
      float f = (float) skip;
      boolean value = f == skip; // else no float32 equals it (NaN never does)
      if (!value && !nan && keep == null) {
        add(c, i, m, sums, at);
        return 0;
      }
      return (int) floatsSkipping.invokeExact(c, i, m, keep, sums, at, value ? f : Float.NaN, nan);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  @Override
  public void addTransformed(NumericChunk c, int i, int m, double[] sums, int at, ValueTransform t) {
    try {
      transformed.invokeExact(c, i, m, sums, at, t);
    } catch (Throwable e) {
      throw Kernels.unchecked(e);
    }
  }

  @Override
  public int addUnpackedSmall(NumericChunk c, int i, int m, double[] sums, int at) {
    try {
      return (int) unpackedSmall.invokeExact(c, i, m, sums, at);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  @Override
  public void sumSmall(NumericChunk c, int i, int m, byte[] keep, long[] out) {
    try {
      if (c.elementSize() == 4) {
        sumInts.invokeExact(c, i, m, keep, out);
      } else if (keep == null && c.elementSize() == 1) {
        sumBytes.invokeExact(c, i, m, out);
      } else if (keep == null) {
        sumShorts.invokeExact(c, i, m, out);
      } else {
        sumNarrow.invokeExact(c, i, m, keep, out);
      }
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  @Override
  public boolean sumLongs(NumericChunk c, int i, int m, byte[] keep, long[] out) {
    try {
      return (boolean) longSum.invokeExact(c, i, m, keep, out);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  @Override
  public boolean sumPlanes(NumericChunk c, int i, int m, long[] out) {
    try {
      return (boolean) planeSum.invokeExact(c, i, m, out);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  @Override
  public long planeMatches(NumericChunk c, int i, int m, long value) {
    try {
      return (long) matchesInPlanes.invokeExact(c, i, m, value);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  private static void floats(byte[] b, int offset, int n, double[] sums, int at) {
    DoubleVector lo = DoubleVector.fromArray(D4, sums, at);
    DoubleVector hi = DoubleVector.fromArray(D4, sums, at + 4);
    for (int j = 0; j < n; j += LANES) {
      FloatVector v = FloatVector.fromByteArray(F8, b, offset + 4 * j, LE);
      lo = lo.add(v.convertShape(VectorOperators.F2D, D4, 0));
      hi = hi.add(v.convertShape(VectorOperators.F2D, D4, 1));
    }
    lo.intoArray(sums, at);
    hi.intoArray(sums, at + 4);
  }

  /** {@link #addSkipping} of float32, {@code missing} the skipped value as a float (NaN for none). */
  private static int floatsSkipping(NumericChunk c, int i, int m, byte[] keep, double[] sums, int at, float missing,
      boolean nan) {
    VectorMask<Float> nanMissing = F8.maskAll(nan);
    DoubleVector lo = DoubleVector.fromArray(D4, sums, at);
    DoubleVector hi = DoubleVector.fromArray(D4, sums, at + 4);
    FloatVector none = FloatVector.zero(F8);
    FloatVector skipped = none;
    FloatVector allKept = FloatVector.broadcast(F8, 1f);
    int[] words = new int[LANES];
    for (int j = 0; j < m; j += LANES) {
      FloatVector v;
      if (c.plane == 0) {
        v = FloatVector.fromByteArray(F8, c.bytes, c.offset + 4 * (i + j), LE);
      } else {
        ShuffledPlanes.ints(c.bytes, c.offset + i + j, c.plane, words);
        v = IntVector.fromArray(I8, words, 0).reinterpretAsFloats();
      }
      // a filter's marks of the same elements: dropped ones are left out like masked ones
      FloatVector marks = keep == null ? allKept
          : (FloatVector) ByteVector.fromArray(B8, keep, i + j).convertShape(VectorOperators.B2F, F8, 0);
      VectorMask<Float> miss = v.eq(missing).or(v.compare(VectorOperators.NE, v).and(nanMissing))
          .or(marks.eq(0f));
      v = v.blend(-0.0f, miss);
      skipped = skipped.add(none.blend(allKept, miss)); // not a masked add: see doublesSkipping
      lo = lo.add(v.convertShape(VectorOperators.F2D, D4, 0));
      hi = hi.add(v.convertShape(VectorOperators.F2D, D4, 1));
    }
    lo.intoArray(sums, at);
    hi.intoArray(sums, at + 4);
    return (int) skipped.reduceLanes(VectorOperators.ADD);
  }

  /** {@link #addSkipping} of float64. */
  private static int doublesSkipping(NumericChunk c, int i, int m, byte[] keep, double[] sums, int at, double skip,
      boolean nan) {
    DoubleVector lo = DoubleVector.fromArray(D4, sums, at);
    DoubleVector hi = DoubleVector.fromArray(D4, sums, at + 4);
    DoubleVector none = DoubleVector.zero(D4);
    DoubleVector skipped = none;
    VectorMask<Double> nanMissing = D4.maskAll(nan);
    DoubleVector allKept = DoubleVector.broadcast(D4, 1);
    long[] scratch = ShuffledPlanes.SCRATCH.get();
    for (int j = 0; j < m; ) {
      int step = ShuffledPlanes.step(c, i + j, i + m, scratch);
      for (int q = 0; q < step; q += LANES) {
        DoubleVector a = c.plane == 0 ? DoubleVector.fromByteArray(D4, c.bytes, c.offset + 8 * (i + j), LE)
            : LongVector.fromArray(L4, scratch, 32 + q).reinterpretAsDoubles();
        DoubleVector b = c.plane == 0 ? DoubleVector.fromByteArray(D4, c.bytes, c.offset + 8 * (i + j) + 32, LE)
            : LongVector.fromArray(L4, scratch, 36 + q).reinterpretAsDoubles();
        DoubleVector marksA = keep == null ? allKept
            : (DoubleVector) ByteVector.fromArray(B8, keep, i + j + q).convertShape(VectorOperators.B2D, D4, 0);
        DoubleVector marksB = keep == null ? allKept
            : (DoubleVector) ByteVector.fromArray(B8, keep, i + j + q).convertShape(VectorOperators.B2D, D4, 1);
        VectorMask<Double> ma = a.eq(skip).or(a.compare(VectorOperators.NE, a).and(nanMissing)).or(marksA.eq(0));
        VectorMask<Double> mb = b.eq(skip).or(b.compare(VectorOperators.NE, b).and(nanMissing)).or(marksB.eq(0));
        lo = lo.add(a.blend(-0.0, ma));
        hi = hi.add(b.blend(-0.0, mb));
        // Counted by blends, not by masked adds (skipped.add(1, ma)): a masked add inlines a long
        // chain of Vector API methods, and an audit found this loop compiled over C2's inlining
        // budget with its vectors as heap objects (docs/benchmarks.md, session 45).
        skipped = skipped.add(none.blend(allKept, ma).add(none.blend(allKept, mb)));
      }
      j += step;
    }
    lo.intoArray(sums, at);
    hi.intoArray(sums, at + 4);
    return (int) skipped.reduceLanes(VectorOperators.ADD);
  }

  /**
   * Eight integers at a time, widened to float exactly; a skipped element gets -0.0 in its lane. In
   * float32 arithmetic the unpacking is one float multiply and one float add, each rounded, as the
   * scalar {@code (float) raw * (float) scale + (float) offset}; in double, on the widened doubles.
   */
  private static int unpackedSmall(NumericChunk c, int i, int m, double[] sums, int at) {
    DoubleVector lo = DoubleVector.fromArray(D4, sums, at);
    DoubleVector hi = DoubleVector.fromArray(D4, sums, at + 4);
    float skip = c.skipsOneValue ? (float) c.skippedValue : Float.NaN; // NaN equals nothing: no skip
    int skipped = 0;
    boolean inFloat = c.unpacksInFloat();
    float floatScale = (float) c.unpackScale();
    float floatOffset = (float) c.unpackOffset();
    double scale = c.unpackScale();
    double offset = c.unpackOffset();
    for (int j = 0; j < m; j += LANES) {
      int k = i + j;
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
      if (inFloat) {
        VectorMask<Float> miss = raw.eq(skip);
        skipped += miss.trueCount();
        FloatVector v = raw.mul(floatScale).add(floatOffset).blend(-0.0f, miss);
        lo = lo.add(v.convertShape(VectorOperators.F2D, D4, 0));
        hi = hi.add(v.convertShape(VectorOperators.F2D, D4, 1));
      } else {
        skipped += raw.eq(skip).trueCount();
        DoubleVector a = (DoubleVector) raw.convertShape(VectorOperators.F2D, D4, 0);
        DoubleVector b = (DoubleVector) raw.convertShape(VectorOperators.F2D, D4, 1);
        lo = lo.add(a.mul(scale).add(offset).blend(-0.0, a.eq(skip)));
        hi = hi.add(b.mul(scale).add(offset).blend(-0.0, b.eq(skip)));
      }
    }
    lo.intoArray(sums, at);
    hi.intoArray(sums, at + 4);
    return skipped;
  }

  /**
   * As {@link #addUnpackedSmall}, each element into its own slot: the skipped ones add -0.0 and
   * are not counted. About 0.7 ns an element against 4.5 for the scalar loop, whose conversions
   * of one element at a time wait on each other (docs/benchmarks-history.md, session 38).
   */
  @Override
  public void addUnpackedRow(NumericChunk c, int i, int m, double[] sums, long[] counts, int at) {
    try {
      unpackedRow.invokeExact(c, i, m, sums, counts, at);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  private static void unpackedRow(NumericChunk c, int i, int m, double[] sums, long[] counts, int at) {
    float skip = c.skipsOneValue ? (float) c.skippedValue : Float.NaN; // NaN equals nothing: no skip
    boolean inFloat = c.unpacksInFloat();
    float floatScale = (float) c.unpackScale();
    float floatOffset = (float) c.unpackOffset();
    double scale = c.unpackScale();
    double offset = c.unpackOffset();
    IntVector ones = IntVector.broadcast(I8, 1);
    for (int j = 0; j < m; j += LANES) {
      int k = i + j;
      // widened in the loop as in addUnpackedSmall: through a shared helper and an int[8] this
      // loop took 1.2-1.9 ns an element instead of 0.7-0.85
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
      VectorMask<Float> miss = raw.eq(skip);
      IntVector kept = ones.blend(0, miss.cast(I8));
      int to = at + j;
      DoubleVector a;
      DoubleVector b;
      if (inFloat) {
        FloatVector v = raw.mul(floatScale).add(floatOffset).blend(-0.0f, miss);
        a = (DoubleVector) v.convertShape(VectorOperators.F2D, D4, 0);
        b = (DoubleVector) v.convertShape(VectorOperators.F2D, D4, 1);
      } else {
        a = (DoubleVector) raw.convertShape(VectorOperators.F2D, D4, 0);
        b = (DoubleVector) raw.convertShape(VectorOperators.F2D, D4, 1);
        a = a.mul(scale).add(offset).blend(-0.0, a.eq(skip));
        b = b.mul(scale).add(offset).blend(-0.0, b.eq(skip));
      }
      DoubleVector.fromArray(D4, sums, to).add(a).intoArray(sums, to);
      DoubleVector.fromArray(D4, sums, to + 4).add(b).intoArray(sums, to + 4);
      LongVector.fromArray(L4, counts, to).add(kept.convertShape(VectorOperators.I2L, L4, 0)).intoArray(counts, to);
      LongVector.fromArray(L4, counts, to + 4).add(kept.convertShape(VectorOperators.I2L, L4, 1))
          .intoArray(counts, to + 4);
    }
  }

  /** Widened to int lanes, then to long lanes for each element's own slot; the skipped ones add 0 and are not counted. */
  @Override
  public void addIntegerRow(NumericChunk c, int i, int m, long[] sums, long[] counts, int at) {
    try {
      integerRow.invokeExact(c, i, m, sums, counts, at);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  private static void integerRow(NumericChunk c, int i, int m, long[] sums, long[] counts, int at) {
    int bits = 8 * c.elementSize();
    long lowest = c.layout == NumericChunk.Layout.UINT8 || c.layout == NumericChunk.Layout.UINT16 ? 0 : -(1L << (bits - 1));
    // a masked value outside the layout's range masks nothing (and would wrap in an int lane)
    boolean skips = c.skipsOneValue && c.skippedValue >= lowest && c.skippedValue < lowest + (1L << bits);
    VectorMask<Integer> skipping = I8.maskAll(skips);
    int skip = (int) c.skippedValue;
    IntVector ones = IntVector.broadcast(I8, 1);
    for (int j = 0; j < m; j += LANES) {
      int k = i + j;
      // widened in the loop as in addUnpackedSmall: through a shared helper and an int[8] this
      // loop took 1.2-1.9 ns an element instead of 0.7-0.85
      IntVector ints = switch (c.layout) {
        case INT8 -> (IntVector) ByteVector.fromArray(B8, c.bytes, c.offset + k).convertShape(VectorOperators.B2I, I8, 0);
        case UINT8 -> ((IntVector) ByteVector.fromArray(B8, c.bytes, c.offset + k)
            .convertShape(VectorOperators.B2I, I8, 0)).and(0xFF);
        case INT16 -> (IntVector) ShortVector.fromByteArray(S8, c.bytes, c.offset + 2 * k, LE)
            .convertShape(VectorOperators.S2I, I8, 0);
        case UINT16 -> ((IntVector) ShortVector.fromByteArray(S8, c.bytes, c.offset + 2 * k, LE)
            .convertShape(VectorOperators.S2I, I8, 0)).and(0xFFFF);
        case INT32 -> IntVector.fromByteArray(I8, c.bytes, c.offset + 4 * k, LE);
        default -> throw new IllegalArgumentException("not an integer layout of at most 32 signed bits: " + c.layout);
      };
      VectorMask<Integer> miss = ints.eq(skip).and(skipping);
      IntVector kept = ones.blend(0, miss);
      ints = ints.blend(0, miss);
      int to = at + j;
      LongVector.fromArray(L4, sums, to).add(ints.convertShape(VectorOperators.I2L, L4, 0)).intoArray(sums, to);
      LongVector.fromArray(L4, sums, to + 4).add(ints.convertShape(VectorOperators.I2L, L4, 1)).intoArray(sums, to + 4);
      LongVector.fromArray(L4, counts, to).add(kept.convertShape(VectorOperators.I2L, L4, 0)).intoArray(counts, to);
      LongVector.fromArray(L4, counts, to + 4).add(kept.convertShape(VectorOperators.I2L, L4, 1))
          .intoArray(counts, to + 4);
    }
  }

  /** Vectors added in int lanes before they go to the long: 2^14 × 65,535 fits an int. */
  private static final int INT_ROUNDS = 1 << 14;

  /** {@link #sumSmall} of 1- and 2-byte integers. */
  private static void sumNarrow(NumericChunk c, int i, int m, byte[] keep, long[] out) {
    // a masked value no element can hold (outside an int) masks nothing
    boolean skips = c.skipsOneValue && c.skippedValue == (int) c.skippedValue;
    VectorMask<Integer> skipping = I8.maskAll(skips);
    IntVector allKept = IntVector.broadcast(I8, 1);
    int skip = (int) c.skippedValue;
    long sum = 0;
    long skipped = 0;
    for (int start = i; start < i + m; start += INT_ROUNDS * LANES) {
      int end = Math.min(i + m, start + INT_ROUNDS * LANES);
      IntVector acc = IntVector.zero(I8);
      for (int j = start; j < end; j += LANES) {
        // widened to their values in the loop, not in a helper returning a vector (see ShuffledPlanes)
        IntVector v = switch (c.layout) {
          case INT8 -> (IntVector) ByteVector.fromArray(B8, c.bytes, c.offset + j).convertShape(VectorOperators.B2I, I8, 0);
          case UINT8 -> ((IntVector) ByteVector.fromArray(B8, c.bytes, c.offset + j)
              .convertShape(VectorOperators.B2I, I8, 0)).and(0xFF);
          case INT16 -> (IntVector) ShortVector.fromByteArray(S8, c.bytes, c.offset + 2 * j, LE)
              .convertShape(VectorOperators.S2I, I8, 0);
          case UINT16 -> ((IntVector) ShortVector.fromByteArray(S8, c.bytes, c.offset + 2 * j, LE)
              .convertShape(VectorOperators.S2I, I8, 0)).and(0xFFFF);
          default -> throw new IllegalArgumentException("not a 1- or 2-byte integer layout: " + c.layout);
        };
        // a filter's marks of the same elements: dropped ones are left out like masked ones
        IntVector marks = keep == null ? allKept
            : (IntVector) ByteVector.fromArray(B8, keep, j).convertShape(VectorOperators.B2I, I8, 0);
        VectorMask<Integer> miss = v.eq(skip).and(skipping).or(marks.eq(0));
        skipped += miss.trueCount();
        acc = acc.add(v.blend(0, miss));
      }
      sum += ((LongVector) acc.convertShape(VectorOperators.I2L, L4, 0)).reduceLanes(VectorOperators.ADD)
          + ((LongVector) acc.convertShape(VectorOperators.I2L, L4, 1)).reduceLanes(VectorOperators.ADD);
    }
    out[0] = sum;
    out[1] = skipped;
  }

  /**
   * {@link #sumSmall} of 1-byte integers with no filter: 32 a step, every element added (a signed
   * one biased by 128 to its unsigned byte, the bias taken off at the end) and the skipped value's
   * matches counted in byte lanes, then taken off as value × count. Widening each byte to an int
   * lane, as {@link #sumNarrow} does for a filter's marks, adds 8 a step: a quarter of the speed.
   */
  private static void sumBytes(NumericChunk c, int i, int m, long[] out) {
    boolean signed = c.layout == NumericChunk.Layout.INT8;
    byte bias = signed ? Byte.MIN_VALUE : 0;
    byte skip = (byte) c.skippedValue;
    int whole = m & -B32.length();
    long total = 0;
    long matches = 0;
    for (int outer = 0; outer < whole; outer += INT_FLUSH * B32.length()) {
      int outerEnd = (int) Math.min(whole, (long) outer + INT_FLUSH * B32.length());
      IntVector ints = IntVector.zero(I8);
      ShortVector found = ShortVector.zero(S16);
      for (int start = outer; start < outerEnd; start += SHORT_ROUNDS * B32.length()) {
        int end = Math.min(outerEnd, start + SHORT_ROUNDS * B32.length());
        ShortVector acc = ShortVector.zero(S16);
        ByteVector counts = ByteVector.zero(B32); // SHORT_ROUNDS < 256 steps: a byte lane holds them
        for (int j = start; j < end; j += B32.length()) {
          ByteVector v = ByteVector.fromArray(B32, c.bytes, c.offset + i + j);
          counts = counts.add((byte) 1, v.eq(skip));
          ShortVector pairs = v.lanewise(VectorOperators.XOR, bias).reinterpretAsShorts();
          acc = acc.add(pairs.and((short) 0xFF)).add(pairs.lanewise(VectorOperators.LSHR, 8));
        }
        ints = ints.add(((IntVector) acc.convertShape(VectorOperators.S2I, I8, 0)).and(0xFFFF))
            .add(((IntVector) acc.convertShape(VectorOperators.S2I, I8, 1)).and(0xFFFF));
        ShortVector countPairs = counts.reinterpretAsShorts();
        found = found.add(countPairs.and((short) 0xFF)).add(countPairs.lanewise(VectorOperators.LSHR, 8));
      }
      total += ((LongVector) ints.convertShape(VectorOperators.I2L, L4, 0)).reduceLanes(VectorOperators.ADD)
          + ((LongVector) ints.convertShape(VectorOperators.I2L, L4, 1)).reduceLanes(VectorOperators.ADD);
      // a vector's 16-bit lanes as unsigned, here and not in a helper (a vector crossing a call
      // C2 does not inline is a heap object)
      matches += ((IntVector) found.convertShape(VectorOperators.S2I, I8, 0)).and(0xFFFF).reduceLanes(VectorOperators.ADD)
          + (long) ((IntVector) found.convertShape(VectorOperators.S2I, I8, 1)).and(0xFFFF).reduceLanes(VectorOperators.ADD);
    }
    finishNarrow(c, i, m, whole, total - (signed ? 128L * whole : 0), matches, out);
  }

  /**
   * {@link #sumSmall} of 2-byte integers with no filter: 16 a step, as {@link #sumBytes} adds
   * bytes, two 16-bit values to an int lane (a signed one biased by 32,768).
   */
  private static void sumShorts(NumericChunk c, int i, int m, long[] out) {
    boolean signed = c.layout == NumericChunk.Layout.INT16;
    short bias = signed ? Short.MIN_VALUE : 0;
    short skip = (short) c.skippedValue;
    int whole = m & -S16.length();
    long total = 0;
    long matches = 0;
    for (int start = 0; start < whole; start += SHORT_FLUSH * S16.length()) {
      int end = (int) Math.min(whole, (long) start + SHORT_FLUSH * S16.length());
      IntVector acc = IntVector.zero(I8);
      ShortVector counts = ShortVector.zero(S16);
      for (int j = start; j < end; j += S16.length()) {
        ShortVector v = ShortVector.fromByteArray(S16, c.bytes, c.offset + 2 * (i + j), LE);
        counts = counts.add((short) 1, v.eq(skip));
        IntVector pairs = v.lanewise(VectorOperators.XOR, bias).reinterpretAsInts();
        acc = acc.add(pairs.and(0xFFFF)).add(pairs.lanewise(VectorOperators.LSHR, 16));
      }
      total += ((LongVector) acc.convertShape(VectorOperators.I2L, L4, 0)).reduceLanes(VectorOperators.ADD)
          + ((LongVector) acc.convertShape(VectorOperators.I2L, L4, 1)).reduceLanes(VectorOperators.ADD);
      matches += ((IntVector) counts.convertShape(VectorOperators.S2I, I8, 0)).and(0xFFFF).reduceLanes(VectorOperators.ADD)
          + (long) ((IntVector) counts.convertShape(VectorOperators.S2I, I8, 1)).and(0xFFFF).reduceLanes(VectorOperators.ADD);
    }
    finishNarrow(c, i, m, whole, total - (signed ? 32_768L * whole : 0), matches, out);
  }

  /** Steps of 16 two-byte values whose pairs an int lane holds: 16,384 × 2 × 65,535 < 2^31. */
  private static final int SHORT_FLUSH = 1 << 14;

  /**
   * {@link #sumSmall}'s answer from the sum and skipped-value matches of the first {@code whole}
   * elements (every element added) and the rest one by one.
   */
  private static void finishNarrow(NumericChunk c, int i, int m, int whole, long total, long matches,
      long[] out) {
    for (int j = whole; j < m; j++) {
      long v = c.integralAt(i + j);
      total += v;
      matches += v == c.skippedValue ? 1 : 0;
    }
    boolean skips = c.skipsOneValue && IntegerSelect.holds(c.layout, c.skippedValue);
    out[0] = skips ? total - matches * c.skippedValue : total;
    out[1] = skips ? matches : 0;
  }

  /**
   * {@link #sumSmall} of int32 or uint32: eight at a time, widened to longs (each lane holds the sum
   * of at most 2^28 values below 2^32).
   */
  private static void sumInts(NumericChunk c, int i, int m, byte[] keep, long[] out) {
    long unsigned = c.layout == NumericChunk.Layout.UINT32 ? 0xFFFFFFFFL : -1L;
    VectorMask<Integer> skipping = I8.maskAll(c.skipsOneValue && IntegerSelect.holds(c.layout, c.skippedValue));
    int skip = (int) c.skippedValue;
    IntVector allKept = IntVector.broadcast(I8, 1);
    LongVector lo = LongVector.zero(L4);
    LongVector hi = LongVector.zero(L4);
    long skipped = 0;
    for (int j = i; j < i + m; j += LANES) {
      IntVector v = IntVector.fromByteArray(I8, c.bytes, c.offset + 4 * j, LE);
      IntVector marks = keep == null ? allKept
          : (IntVector) ByteVector.fromArray(B8, keep, j).convertShape(VectorOperators.B2I, I8, 0);
      VectorMask<Integer> miss = v.eq(skip).and(skipping).or(marks.eq(0));
      skipped += miss.trueCount();
      v = v.blend(0, miss);
      lo = lo.add(((LongVector) v.convertShape(VectorOperators.I2L, L4, 0)).and(unsigned));
      hi = hi.add(((LongVector) v.convertShape(VectorOperators.I2L, L4, 1)).and(unsigned));
    }
    out[0] = lo.reduceLanes(VectorOperators.ADD) + hi.reduceLanes(VectorOperators.ADD);
    out[1] = skipped;
  }

  /**
   * Eight lanes of long sums; a lane's addition overflowed when its result's sign differs from
   * both addends' signs, and those sign bits are gathered in one vector, so the loop has no branch.
   * Masked and dropped elements become 0 in their lanes.
   */
  private static boolean longSum(NumericChunk c, int i, int m, byte[] keep, long[] out) {
    LongVector lo = LongVector.zero(L4);
    LongVector hi = LongVector.zero(L4);
    LongVector overflow = LongVector.zero(L4);
    boolean skips = c.skipsOneValue;
    VectorMask<Long> skipping = L4.maskAll(skips);
    long skip = c.skippedValue;
    LongVector none = LongVector.zero(L4);
    LongVector skipped = none; // counted in lanes: a mask's trueCount per step costs more
    LongVector allKept = LongVector.broadcast(L4, 1);
    for (int j = i; j < i + m; j += LANES) {
      LongVector a = LongVector.fromByteArray(L4, c.bytes, c.offset + 8 * j, LE);
      LongVector b = LongVector.fromByteArray(L4, c.bytes, c.offset + 8 * j + 32, LE);
      if (keep != null || skips) {
        LongVector marksA = keep == null ? allKept
            : (LongVector) ByteVector.fromArray(B8, keep, j).convertShape(VectorOperators.B2L, L4, 0);
        LongVector marksB = keep == null ? allKept
            : (LongVector) ByteVector.fromArray(B8, keep, j).convertShape(VectorOperators.B2L, L4, 1);
        VectorMask<Long> missA = a.eq(skip).and(skipping).or(marksA.eq(0));
        VectorMask<Long> missB = b.eq(skip).and(skipping).or(marksB.eq(0));
        skipped = skipped.add(none.blend(allKept, missA).add(none.blend(allKept, missB))); // see doublesSkipping
        a = a.blend(0, missA);
        b = b.blend(0, missB);
      }
      LongVector sumA = lo.add(a);
      LongVector sumB = hi.add(b);
      overflow = overflow.or(lo.lanewise(VectorOperators.XOR, sumA).and(a.lanewise(VectorOperators.XOR, sumA)))
          .or(hi.lanewise(VectorOperators.XOR, sumB).and(b.lanewise(VectorOperators.XOR, sumB)));
      lo = sumA;
      hi = sumB;
    }
    if (overflow.reduceLanes(VectorOperators.OR) < 0) {
      return false;
    }
    long[] lanes = new long[LANES];
    lo.intoArray(lanes, 0);
    hi.intoArray(lanes, 4);
    long sum = 0;
    try {
      for (long lane : lanes) {
        sum = Math.addExact(sum, lane);
      }
    } catch (ArithmeticException e) {
      return false;
    }
    out[0] = sum;
    out[1] = skipped.reduceLanes(VectorOperators.ADD);
    return true;
  }

  /** Vectors of bytes added in 16-bit lanes, two bytes per lane each, before the lanes could overflow. */
  private static final int SHORT_ROUNDS = 65_535 / (2 * 255);

  /**
   * Vectors of bytes whose 16-bit lane sums are added in int lanes before those could overflow:
   * each int lane takes two 16-bit lanes of at most 65,280 per {@link #SHORT_ROUNDS}.
   */
  private static final int INT_FLUSH = (Integer.MAX_VALUE / (2 * 65_280)) / SHORT_ROUNDS * SHORT_ROUNDS;

  /**
   * With no un-shuffled copy: the sum of the elements is the sum over their byte planes k of each
   * plane's byte sum times 2^(8k), the top plane's bytes signed for a signed type. A plane's bytes
   * are summed in 16-bit lanes; the planes are then combined from the top one down, every step
   * checked, so a sum that leaves a long returns false.
   */
  private static boolean planeSum(NumericChunk c, int i, int m, long[] out) {
    int top = c.elementSize() - 1;
    boolean signed = c.layout != NumericChunk.Layout.UINT32;
    long total = 0;
    int whole = m & -B32.length();
    try {
      for (int k = top; k >= 0; k--) {
        // a signed top plane's bytes: each biased by 128 (XOR 0x80), the bias taken off at the end
        byte bias = k == top && signed ? Byte.MIN_VALUE : 0;
        int at = c.offset + k * c.plane + i;
        long plane = 0;
        for (int outer = 0; outer < whole; outer += INT_FLUSH * B32.length()) {
          int outerEnd = (int) Math.min(whole, (long) outer + INT_FLUSH * B32.length());
          // the 16-bit lanes go to int lanes, and those to the long only here: a reduction per
          // 4 KiB of plane was a twentieth of an int64 sum's time
          IntVector ints = IntVector.zero(I8);
          for (int start = outer; start < outerEnd; start += SHORT_ROUNDS * B32.length()) {
            int end = Math.min(outerEnd, start + SHORT_ROUNDS * B32.length());
            ShortVector acc = ShortVector.zero(S16);
            for (int j = start; j < end; j += B32.length()) {
              ShortVector pairs = ByteVector.fromArray(B32, c.bytes, at + j).lanewise(VectorOperators.XOR, bias)
                  .reinterpretAsShorts();
              acc = acc.add(pairs.and((short) 0xFF)).add(pairs.lanewise(VectorOperators.LSHR, 8));
            }
            ints = ints.add(((IntVector) acc.convertShape(VectorOperators.S2I, I8, 0)).and(0xFFFF))
                .add(((IntVector) acc.convertShape(VectorOperators.S2I, I8, 1)).and(0xFFFF));
          }
          plane += ((LongVector) ints.convertShape(VectorOperators.I2L, L4, 0)).reduceLanes(VectorOperators.ADD)
              + ((LongVector) ints.convertShape(VectorOperators.I2L, L4, 1)).reduceLanes(VectorOperators.ADD);
        }
        for (int j = whole; j < m; j++) {
          plane += (c.bytes[at + j] ^ bias) & 0xFF;
        }
        if (bias != 0) {
          plane -= 128L * m;
        }
        total = Math.addExact(Math.multiplyExact(total, 256), plane);
      }
    } catch (ArithmeticException e) {
      return false;
    }
    out[0] = total;
    out[1] = 0;
    return true;
  }

  /** An element matches when each of its bytes, one per plane, does: 32 elements a step. */
  private static long matchesInPlanes(NumericChunk c, int i, int m, long value) {
    int size = c.elementSize();
    int whole = m & -B32.length();
    long matches = 0;
    for (int start = 0; start < whole; start += 255 * B32.length()) {
      int end = Math.min(whole, start + 255 * B32.length());
      // each lane counts its matches in a byte, 255 steps at most: a mask's trueCount per step
      // was a tenth of a masked int64 sum's time
      ByteVector counts = ByteVector.zero(B32);
      for (int j = start; j < end; j += B32.length()) {
        VectorMask<Byte> all = ByteVector.fromArray(B32, c.bytes, c.offset + i + j).eq((byte) value);
        for (int k = 1; k < size; k++) {
          all = all.and(ByteVector.fromArray(B32, c.bytes, c.offset + k * c.plane + i + j).eq((byte) (value >>> (8 * k))));
        }
        counts = counts.add((byte) 1, all);
      }
      ShortVector pairs = counts.reinterpretAsShorts();
      matches += pairs.and((short) 0xFF).add(pairs.lanewise(VectorOperators.LSHR, 8)).reduceLanes(VectorOperators.ADD);
    }
    for (int j = i + whole; j < i + m; j++) {
      if (c.integralAt(j) == value) {
        matches++;
      }
    }
    return matches;
  }

  @Override
  public void addRow(NumericChunk c, int i, int m, double[] sums, int at) {
    try {
      for (int j = 0, length; j < m; j += length) {
        length = RowElements.piece(c, m - j);
        row.invokeExact(RowElements.bytes(c, i + j, length), RowElements.offset(c, i + j), length, sums, at + j);
      }
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  /** {@link #addRow} of {@code m} doubles from byte {@code from} of {@code values} (see RowElements). */
  private static void row(byte[] values, int from, int m, double[] sums, int at) {
    for (int j = 0; j < m; j += 4) {
      DoubleVector.fromArray(D4, sums, at + j).add(DoubleVector.fromByteArray(D4, values, from + 8 * j, LE))
          .intoArray(sums, at + j);
    }
  }

  @Override
  public void addRowSkipping(NumericChunk c, int i, int m, byte[] keep, double[] sums, long[] counts, int at,
      double skip, boolean nan) {
    try {
      for (int j = 0, length; j < m; j += length) {
        length = RowElements.piece(c, m - j);
        rowSkipping.invokeExact(RowElements.bytes(c, i + j, length), RowElements.offset(c, i + j), length, keep, i + j,
            sums, counts, at + j, skip, nan);
      }
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  /**
   * {@link #addRowSkipping} of {@code m} doubles from byte {@code from} of {@code values} (see
   * RowElements), marked from {@code keep[k]}.
   */
  private static void rowSkipping(byte[] values, int from, int m, byte[] keep, int k, double[] sums, long[] counts,
      int at, double skip, boolean nan) {
    VectorMask<Double> nanMissing = D4.maskAll(nan);
    DoubleVector allKept = DoubleVector.broadcast(D4, 1);
    LongVector one = LongVector.broadcast(L4, 1);
    for (int j = 0; j < m; j += LANES) {
      // Each element into its own slot; the missing ones add -0.0 and are not counted.
      for (int part = 0; part < LANES; part += 4) {
        DoubleVector v = DoubleVector.fromByteArray(D4, values, from + 8 * (j + part), LE);
        DoubleVector marks = keep == null ? allKept
            : (DoubleVector) ByteVector.fromArray(B8, keep, k + j).convertShape(VectorOperators.B2D, D4, part / 4);
        VectorMask<Double> miss = v.eq(skip).or(v.compare(VectorOperators.NE, v).and(nanMissing)).or(marks.eq(0));
        int to = at + j + part;
        DoubleVector.fromArray(D4, sums, to).add(v.blend(-0.0, miss)).intoArray(sums, to);
        // counted by a blend, not by miss.not(): see VectorIntegerSelect on not() and andNot
        LongVector.fromArray(L4, counts, to).add(one.blend(0L, miss.cast(L4))).intoArray(counts, to);
      }
    }
  }

  private static void doubles(byte[] b, int offset, int n, double[] sums, int at) {
    DoubleVector lo = DoubleVector.fromArray(D4, sums, at);
    DoubleVector hi = DoubleVector.fromArray(D4, sums, at + 4);
    for (int j = 0; j < n; j += LANES) {
      lo = lo.add(DoubleVector.fromByteArray(D4, b, offset + 8 * j, LE));
      hi = hi.add(DoubleVector.fromByteArray(D4, b, offset + 8 * j + 32, LE));
    }
    lo.intoArray(sums, at);
    hi.intoArray(sums, at + 4);
  }

  private static void shuffledFloats(byte[] b, int offset, int plane, int n, double[] sums, int at) {
    DoubleVector lo = DoubleVector.fromArray(D4, sums, at);
    DoubleVector hi = DoubleVector.fromArray(D4, sums, at + 4);
    int[] words = new int[LANES];
    for (int j = 0; j < n; j += LANES) {
      ShuffledPlanes.ints(b, offset + j, plane, words);
      FloatVector v = IntVector.fromArray(I8, words, 0).reinterpretAsFloats();
      lo = lo.add(v.convertShape(VectorOperators.F2D, D4, 0));
      hi = hi.add(v.convertShape(VectorOperators.F2D, D4, 1));
    }
    lo.intoArray(sums, at);
    hi.intoArray(sums, at + 4);
  }

  private static void transformed(NumericChunk c, int i, int m, double[] sums, int at, ValueTransform t) {
    DoubleVector lo = DoubleVector.fromArray(D4, sums, at);
    DoubleVector hi = DoubleVector.fromArray(D4, sums, at + 4);
    DoubleVector constant = DoubleVector.broadcast(D4, t.constant());
    char op = t.op();
    boolean constantFirst = t.constantFirst();
    boolean float32 = c.layout == NumericChunk.Layout.FLOAT32;
    byte[] values = new byte[8 * LANES];
    int[] words = new int[LANES];
    long[] scratch = ShuffledPlanes.SCRATCH.get();
    for (int j = i; j < i + m; ) {
      int step = float32 ? LANES : ShuffledPlanes.step(c, j, i + m, scratch);
      for (int q = 0; q < step; q += LANES) {
        DoubleVector a;
        DoubleVector b;
        if (c.plane == 0) {
          RowElements.eight(c, j, values, 0);
          a = DoubleVector.fromByteArray(D4, values, 0, LE);
          b = DoubleVector.fromByteArray(D4, values, 32, LE);
        } else if (float32) {
          ShuffledPlanes.ints(c.bytes, c.offset + j, c.plane, words);
          FloatVector v = IntVector.fromArray(I8, words, 0).reinterpretAsFloats();
          a = (DoubleVector) v.convertShape(VectorOperators.F2D, D4, 0);
          b = (DoubleVector) v.convertShape(VectorOperators.F2D, D4, 1);
        } else {
          a = LongVector.fromArray(L4, scratch, 32 + q).reinterpretAsDoubles();
          b = LongVector.fromArray(L4, scratch, 36 + q).reinterpretAsDoubles();
        }
        // ValueTransform.apply in each lane; + and * in either order give the same bits.
        lo = lo.add(switch (op) {
          case '+' -> a.add(constant);
          case '-' -> constantFirst ? constant.sub(a) : a.sub(constant);
          case '*' -> a.mul(constant);
          default -> constantFirst ? constant.div(a) : a.div(constant);
        });
        hi = hi.add(switch (op) {
          case '+' -> b.add(constant);
          case '-' -> constantFirst ? constant.sub(b) : b.sub(constant);
          case '*' -> b.mul(constant);
          default -> constantFirst ? constant.div(b) : b.div(constant);
        });
      }
      j += step;
    }
    lo.intoArray(sums, at);
    hi.intoArray(sums, at + 4);
  }

  /**
   * 32 elements at a time are gathered from their eight planes by one byte transpose in SIMD
   * lanes (about twice as fast as assembling four elements from eight planes per vector, below,
   * which the tail still does). Element {@code 8 * l + k} of the 32 is {@code words[4 * k + l]},
   * so each sum adds its four in order, as the lanes would.
   */
  private static void shuffledDoubles(byte[] b, int offset, int plane, int n, double[] sums, int at) {
    int whole = n - n % 32;
    if (whole > 0) {
      addShuffledDoubles32(b, offset, plane, whole, sums, at);
    }
    DoubleVector lo = DoubleVector.fromArray(D4, sums, at);
    DoubleVector hi = DoubleVector.fromArray(D4, sums, at + 4);
    long[] words = new long[LANES];
    for (int j = whole; j < n; j += LANES) {
      ShuffledPlanes.longs(b, offset + j, plane, words, 0);
      lo = lo.add(LongVector.fromArray(L4, words, 0).reinterpretAsDoubles());
      hi = hi.add(LongVector.fromArray(L4, words, 4).reinterpretAsDoubles());
    }
    lo.intoArray(sums, at);
    hi.intoArray(sums, at + 4);
  }

  private static void addShuffledDoubles32(byte[] b, int offset, int plane, int n, double[] sums, int at) {
    long[] words = ShuffledPlanes.SCRATCH.get();
    double s0 = sums[at];
    double s1 = sums[at + 1];
    double s2 = sums[at + 2];
    double s3 = sums[at + 3];
    double s4 = sums[at + 4];
    double s5 = sums[at + 5];
    double s6 = sums[at + 6];
    double s7 = sums[at + 7];
    for (int j = 0; j < n; j += 32) {
      VectorByteTranspose.transpose(b, offset + j, plane, words);
      for (int l = 0; l < 4; l++) {
        s0 += Double.longBitsToDouble(words[l]);
        s1 += Double.longBitsToDouble(words[4 + l]);
        s2 += Double.longBitsToDouble(words[8 + l]);
        s3 += Double.longBitsToDouble(words[12 + l]);
        s4 += Double.longBitsToDouble(words[16 + l]);
        s5 += Double.longBitsToDouble(words[20 + l]);
        s6 += Double.longBitsToDouble(words[24 + l]);
        s7 += Double.longBitsToDouble(words[28 + l]);
      }
    }
    sums[at] = s0;
    sums[at + 1] = s1;
    sums[at + 2] = s2;
    sums[at + 3] = s3;
    sums[at + 4] = s4;
    sums[at + 5] = s5;
    sums[at + 6] = s6;
    sums[at + 7] = s7;
  }
}
