package io.github.sparkzarr.spark.read;

import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** {@link FloatSelect} eight float32 or four float64 elements at a time; loaded only with the Vector API. */
final class VectorFloatSelect implements FloatSelect {
  private static final VectorSpecies<Float> F8 = FloatVector.SPECIES_256;
  private static final VectorSpecies<Double> D4 = DoubleVector.SPECIES_256;
  private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
  private static final VectorSpecies<Long> L4 = LongVector.SPECIES_256;
  private static final VectorSpecies<Byte> B8 = ByteVector.SPECIES_64;
  private static final VectorMask<Byte> FIRST_4 = B8.indexInRange(0, 4);
  private static final IntVector INT_ZERO = IntVector.zero(I8);
  private static final IntVector INT_ONE = IntVector.broadcast(I8, 1);
  private static final LongVector LONG_ZERO = LongVector.zero(L4);
  private static final LongVector LONG_ONE = LongVector.broadcast(L4, 1);
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
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
    int lanes = float32 ? F8.length() : D4.length();
    int body = n - n % lanes;
    int kept = float32 ? floats(chunk, body, outcomes, (float) literal, nanKept, skips, (float) skip, keep)
        : doubles(chunk, body, outcomes, literal, nanKept, skips, skip, keep);
    return kept + FloatSelect.Scalar.range(chunk, body, n, outcomes, literal, nanKept, skip, keep);
  }

  /**
   * 1 in the lanes set in {@code k}, else 0, as bytes: a mask's boolean array store is 2-3x slower
   * (JDK 17).
   */
  private static ByteVector onesOf8(VectorMask<Integer> k) {
    return (ByteVector) INT_ZERO.blend(INT_ONE, k).convertShape(VectorOperators.I2B, B8, 0);
  }

  /** The same for four lanes, in the first four of eight bytes (the others 0). */
  private static ByteVector onesOf4(VectorMask<Long> k) {
    return (ByteVector) LONG_ZERO.blend(LONG_ONE, k).convertShape(VectorOperators.L2B, B8, 0);
  }

  /** A literal float32 holds compares with float32 elements as with them widened to double. */
  private static int floats(NumericChunk chunk, int n, int outcomes, float literal, boolean nanKept, boolean skips,
      float skip, byte[] keep) {
    VectorMask<Float> none = F8.maskAll(false);
    int kept = 0;
    for (int i = 0; i < n; i += F8.length()) {
      FloatVector x = FloatVector.fromByteArray(F8, chunk.bytes, chunk.offset + 4 * i, LE);
      VectorMask<Float> k = (outcomes & 1) != 0 ? x.lt(literal) : none;
      if ((outcomes & 2) != 0) {
        k = k.or(x.eq(literal));
      }
      if ((outcomes & 4) != 0) {
        k = k.or(x.compare(VectorOperators.GT, literal));
      }
      if (nanKept) {
        k = k.or(x.test(VectorOperators.IS_NAN));
      }
      if (skips) {
        k = k.andNot(x.eq(skip));
      }
      onesOf8(k.cast(I8)).intoArray(keep, i);
      kept += k.trueCount();
    }
    return kept;
  }

  private static int doubles(NumericChunk chunk, int n, int outcomes, double literal, boolean nanKept, boolean skips,
      double skip, byte[] keep) {
    VectorMask<Double> none = D4.maskAll(false);
    int kept = 0;
    for (int i = 0; i < n; i += D4.length()) {
      DoubleVector x = DoubleVector.fromByteArray(D4, chunk.bytes, chunk.offset + 8 * i, LE);
      VectorMask<Double> k = (outcomes & 1) != 0 ? x.lt(literal) : none;
      if ((outcomes & 2) != 0) {
        k = k.or(x.eq(literal));
      }
      if ((outcomes & 4) != 0) {
        k = k.or(x.compare(VectorOperators.GT, literal));
      }
      if (nanKept) {
        k = k.or(x.test(VectorOperators.IS_NAN));
      }
      if (skips) {
        k = k.andNot(x.eq(skip));
      }
      onesOf4(k.cast(L4)).intoArray(keep, i, FIRST_4);
      kept += k.trueCount();
    }
    return kept;
  }
}
