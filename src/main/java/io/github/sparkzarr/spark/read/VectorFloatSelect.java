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
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** {@link FloatSelect} eight elements at a time (one float32 vector, two float64); loaded only with the Vector API. */
final class VectorFloatSelect implements FloatSelect {
  private static final VectorSpecies<Float> F8 = FloatVector.SPECIES_256;
  private static final VectorSpecies<Double> D4 = DoubleVector.SPECIES_256;
  private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
  private static final VectorSpecies<Long> L4 = LongVector.SPECIES_256;
  private static final VectorSpecies<Byte> B8 = ByteVector.SPECIES_64;
  private static final IntVector INT_ZERO = IntVector.zero(I8);
  private static final IntVector INT_ONE = IntVector.broadcast(I8, 1);
  private static final LongVector LONG_ZERO = LongVector.zero(L4);
  private static final LongVector LONG_ONE = LongVector.broadcast(L4, 1);
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

  // Each loop is called through a handle so that C2 compiles it on its own (see Kernels); not
  // final, so no constants to C2.
  private static MethodHandle floats = Kernels.find(MethodHandles.lookup(), "floats");
  private static MethodHandle doubles = Kernels.find(MethodHandles.lookup(), "doubles");

  @Override
  public int select(NumericChunk chunk, int n, int outcomes, double literal, boolean nanKept, double skip,
      byte[] keep) {
    boolean float32 = chunk.layout == NumericChunk.Layout.FLOAT32;
    if (float32 && (float) literal != literal) {
      // float32 elements cast to double for a double literal float32 cannot hold: one at a time
      return FloatSelect.Scalar.range(chunk, 0, n, outcomes, literal, nanKept, skip, keep);
    }
    // A masked value float32 cannot hold matches no float32 element.
    boolean skips = !Double.isNaN(skip) && (!float32 || (float) skip == skip);
    int body = n - n % 8;
    int kept;
    try {
      kept = float32 ? (int) floats.invokeExact(chunk, body, outcomes, (float) literal, nanKept, skips, (float) skip, keep)
          : (int) doubles.invokeExact(chunk, body, outcomes, literal, nanKept, skips, skip, keep);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
    return kept + FloatSelect.Scalar.range(chunk, body, n, outcomes, literal, nanKept, skip, keep);
  }

  // The lanes kept: each outcome's comparison, and-ed with an all-true or all-false mask of
  // whether the filter keeps that outcome. Written out in each loop, not in a helper taking
  // vectors: see ShuffledPlanes on vector objects across method boundaries. No andNot: see
  // VectorIntegerSelect.

  /** A literal float32 holds compares with float32 elements as with them widened to double. */
  private static int floats(NumericChunk chunk, int n, int outcomes, float literal, boolean nanKept, boolean skips,
      float skip, byte[] keep) {
    FloatVector lit = FloatVector.broadcast(F8, literal);
    FloatVector masked = FloatVector.broadcast(F8, skip);
    VectorMask<Float> below = F8.maskAll((outcomes & 1) != 0);
    VectorMask<Float> equal = F8.maskAll((outcomes & 2) != 0);
    VectorMask<Float> above = F8.maskAll((outcomes & 4) != 0);
    VectorMask<Float> nan = F8.maskAll(nanKept);
    VectorMask<Float> unskipped = F8.maskAll(!skips); // all true when nothing is skipped
    int kept = 0;
    for (int i = 0; i < n; i += 8) {
      FloatVector x = FloatVector.fromByteArray(F8, chunk.bytes, chunk.offset + 4 * i, LE);
      VectorMask<Float> k = x.compare(VectorOperators.LT, lit).and(below)
          .or(x.compare(VectorOperators.EQ, lit).and(equal))
          .or(x.compare(VectorOperators.GT, lit).and(above))
          .or(x.test(VectorOperators.IS_NAN).and(nan))
          .and(x.compare(VectorOperators.NE, masked).or(unskipped));
      // 1 or 0 per lane as bytes: storing a mask to a boolean array is 2-3x slower (JDK 17).
      ((ByteVector) INT_ZERO.blend(INT_ONE, k.cast(I8)).convertShape(VectorOperators.I2B, B8, 0)).intoArray(keep, i);
      kept += k.trueCount();
    }
    return kept;
  }

  /** Eight float64 at a time, in two vectors whose marks are narrowed to ints and joined (a masked 4-byte store is slow). */
  private static int doubles(NumericChunk chunk, int n, int outcomes, double literal, boolean nanKept, boolean skips,
      double skip, byte[] keep) {
    DoubleVector lit = DoubleVector.broadcast(D4, literal);
    DoubleVector masked = DoubleVector.broadcast(D4, skip);
    VectorMask<Double> below = D4.maskAll((outcomes & 1) != 0);
    VectorMask<Double> equal = D4.maskAll((outcomes & 2) != 0);
    VectorMask<Double> above = D4.maskAll((outcomes & 4) != 0);
    VectorMask<Double> nan = D4.maskAll(nanKept);
    VectorMask<Double> unskipped = D4.maskAll(!skips); // all true when nothing is skipped
    int kept = 0;
    for (int i = 0; i < n; i += 8) {
      int at = chunk.offset + 8 * i;
      DoubleVector x = DoubleVector.fromByteArray(D4, chunk.bytes, at, LE);
      DoubleVector y = DoubleVector.fromByteArray(D4, chunk.bytes, at + 32, LE);
      VectorMask<Double> low = x.compare(VectorOperators.LT, lit).and(below)
          .or(x.compare(VectorOperators.EQ, lit).and(equal))
          .or(x.compare(VectorOperators.GT, lit).and(above))
          .or(x.test(VectorOperators.IS_NAN).and(nan))
          .and(x.compare(VectorOperators.NE, masked).or(unskipped));
      VectorMask<Double> high = y.compare(VectorOperators.LT, lit).and(below)
          .or(y.compare(VectorOperators.EQ, lit).and(equal))
          .or(y.compare(VectorOperators.GT, lit).and(above))
          .or(y.test(VectorOperators.IS_NAN).and(nan))
          .and(y.compare(VectorOperators.NE, masked).or(unskipped));
      IntVector lows = (IntVector) LONG_ZERO.blend(LONG_ONE, low.cast(L4)).convertShape(VectorOperators.L2I, I8, 0);
      IntVector highs = (IntVector) LONG_ZERO.blend(LONG_ONE, high.cast(L4)).convertShape(VectorOperators.L2I, I8, -1);
      ((ByteVector) lows.or(highs).convertShape(VectorOperators.I2B, B8, 0)).intoArray(keep, i);
      kept += low.trueCount() + high.trueCount();
    }
    return kept;
  }
}
