package io.github.sparkzarr.spark.read;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link IntegerStates} eight elements at a time in int lanes, when the block's values, the literal
 * and the masked value all fit in an int (integers of up to 32 bits, signed, or 16 unsigned: the
 * caller's layouts); else, and for the tail, one at a time. Loaded only with the Vector API.
 */
final class VectorIntegerStates implements IntegerStates {
  private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
  private static final VectorSpecies<Byte> B8 = ByteVector.SPECIES_64;
  /** Where a block is narrowed to ints; one per thread, as readers run on many. */
  private static final ThreadLocal<int[]> NARROWED = ThreadLocal.withInitial(() -> new int[ValueFilter.PIECE]);

  @Override
  public void states(long[] x, int m, long literal, int outcomes, boolean skips, long skipped, byte atSkip,
      byte[] out) {
    int[] v = NARROWED.get();
    if (m > v.length || literal != (int) literal || skips && skipped != (int) skipped) {
      IntegerStates.Scalar.range(x, 0, m, literal, outcomes, skips, skipped, atSkip, out);
      return;
    }
    for (int i = 0; i < m; i++) {
      v[i] = (int) x[i];
    }
    IntVector zero = IntVector.zero(I8);
    IntVector one = IntVector.broadcast(I8, 1);
    IntVector skipState = IntVector.broadcast(I8, atSkip);
    int lit = (int) literal;
    int body = m - m % 8;
    for (int i = 0; i < body; i += 8) {
      IntVector e = IntVector.fromArray(I8, v, i);
      VectorMask<Integer> k = e.lt(lit);
      if ((outcomes & 1) == 0) {
        k = k.andNot(k);
      }
      if ((outcomes & 2) != 0) {
        k = k.or(e.eq(lit));
      }
      if ((outcomes & 4) != 0) {
        k = k.or(e.compare(VectorOperators.GT, lit));
      }
      IntVector states = zero.blend(one, k);
      if (skips) {
        states = states.blend(skipState, e.eq((int) skipped));
      }
      ((ByteVector) states.convertShape(VectorOperators.I2B, B8, 0)).intoArray(out, i);
    }
    IntegerStates.Scalar.range(x, body, m, literal, outcomes, skips, skipped, atSkip, out);
  }
}
