package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.Kernels;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
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

  // The loop is called through a handle so that C2 compiles it on its own (see Kernels); not
  // final, so no constant to C2.
  private static MethodHandle narrowed = Kernels.find(MethodHandles.lookup(), "narrowed");

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
    int body = m - m % 8;
    try {
      narrowed.invokeExact(v, body, (int) literal, outcomes, skips, (int) skipped, atSkip, out);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
    IntegerStates.Scalar.range(x, body, m, literal, outcomes, skips, skipped, atSkip, out);
  }

  /**
   * The states of {@code v[0, n)}, {@code n} a multiple of 8. Each outcome's comparison is and-ed
   * with an all-true or all-false mask of whether the filter keeps it, and the masked value's with
   * whether one is: a mask chosen by a branch would be a heap object (see VectorIntegerSelect).
   */
  private static void narrowed(int[] v, int n, int literal, int outcomes, boolean skips, int skipped, byte atSkip,
      byte[] out) {
    VectorMask<Integer> less = I8.maskAll((outcomes & 1) != 0);
    VectorMask<Integer> equal = I8.maskAll((outcomes & 2) != 0);
    VectorMask<Integer> greater = I8.maskAll((outcomes & 4) != 0);
    VectorMask<Integer> skipping = I8.maskAll(skips);
    IntVector zero = IntVector.zero(I8);
    IntVector one = IntVector.broadcast(I8, 1);
    IntVector skipState = IntVector.broadcast(I8, atSkip);
    for (int i = 0; i < n; i += 8) {
      IntVector e = IntVector.fromArray(I8, v, i);
      VectorMask<Integer> k = e.lt(literal).and(less).or(e.eq(literal).and(equal))
          .or(e.compare(VectorOperators.GT, literal).and(greater));
      IntVector states = zero.blend(one, k).blend(skipState, e.eq(skipped).and(skipping));
      ((ByteVector) states.convertShape(VectorOperators.I2B, B8, 0)).intoArray(out, i);
    }
  }
}
