package io.github.sparkzarr.spark.read;

import java.nio.ByteOrder;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** {@link FloatSelect} eight float32 or four float64 elements at a time; loaded only with the Vector API. */
final class VectorFloatSelect implements FloatSelect {
  private static final VectorSpecies<Float> F8 = FloatVector.SPECIES_256;
  private static final VectorSpecies<Double> D4 = DoubleVector.SPECIES_256;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
  @Override
  public int select(NumericChunk chunk, int n, int outcomes, double literal, boolean nanKept, boolean[] keep) {
    boolean float32 = chunk.layout == NumericChunk.Layout.FLOAT32;
    if (float32 && (float) literal != literal) {
      // float32 elements cast to double for a double literal float32 cannot hold: one at a time
      return FloatSelect.Scalar.range(chunk, 0, n, outcomes, literal, nanKept, keep);
    }
    int lanes = float32 ? F8.length() : D4.length();
    int body = n - n % lanes;
    int kept = float32 ? floats(chunk, body, outcomes, (float) literal, nanKept, keep)
        : doubles(chunk, body, outcomes, literal, nanKept, keep);
    return kept + FloatSelect.Scalar.range(chunk, body, n, outcomes, literal, nanKept, keep);
  }

  /** A literal float32 holds compares with float32 elements as with them widened to double. */
  private static int floats(NumericChunk chunk, int n, int outcomes, float literal, boolean nanKept, boolean[] keep) {
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
      k.intoArray(keep, i);
      kept += k.trueCount();
    }
    return kept;
  }

  private static int doubles(NumericChunk chunk, int n, int outcomes, double literal, boolean nanKept, boolean[] keep) {
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
      k.intoArray(keep, i);
      kept += k.trueCount();
    }
    return kept;
  }
}
