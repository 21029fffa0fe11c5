package io.github.sparkzarr.spark.read;

import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link LaneSums} with the Vector API (JDK incubator module, which Spark 4 adds to its JVMs):
 * eight elements at a time, their doubles in two 4-lane vectors, so vector lane k of the pair is
 * lane k of the scalar loops and the sums are the same bits. A shuffled block's planes are widened
 * and merged into whole elements in registers, without an un-shuffled copy.
 */
final class VectorLaneSums implements LaneSums {
  private static final VectorSpecies<Double> D4 = DoubleVector.SPECIES_256;
  private static final VectorSpecies<Float> F8 = FloatVector.SPECIES_256;
  private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
  private static final VectorSpecies<Long> L4 = LongVector.SPECIES_256;
  private static final VectorSpecies<Byte> B8 = ByteVector.SPECIES_64;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

  @Override
  public void addFloats(byte[] b, int offset, int n, double[] sums, int at) {
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

  @Override
  public void addDoubles(byte[] b, int offset, int n, double[] sums, int at) {
    DoubleVector lo = DoubleVector.fromArray(D4, sums, at);
    DoubleVector hi = DoubleVector.fromArray(D4, sums, at + 4);
    for (int j = 0; j < n; j += LANES) {
      lo = lo.add(DoubleVector.fromByteArray(D4, b, offset + 8 * j, LE));
      hi = hi.add(DoubleVector.fromByteArray(D4, b, offset + 8 * j + 32, LE));
    }
    lo.intoArray(sums, at);
    hi.intoArray(sums, at + 4);
  }

  @Override
  public void addShuffledFloats(byte[] b, int offset, int plane, int n, double[] sums, int at) {
    DoubleVector lo = DoubleVector.fromArray(D4, sums, at);
    DoubleVector hi = DoubleVector.fromArray(D4, sums, at + 4);
    for (int j = 0; j < n; j += LANES) {
      int p = offset + j;
      IntVector bits = planeInts(b, p).or(planeInts(b, p + plane).lanewise(VectorOperators.LSHL, 8))
          .or(planeInts(b, p + 2 * plane).lanewise(VectorOperators.LSHL, 16))
          .or(planeInts(b, p + 3 * plane).lanewise(VectorOperators.LSHL, 24));
      FloatVector v = bits.reinterpretAsFloats();
      lo = lo.add(v.convertShape(VectorOperators.F2D, D4, 0));
      hi = hi.add(v.convertShape(VectorOperators.F2D, D4, 1));
    }
    lo.intoArray(sums, at);
    hi.intoArray(sums, at + 4);
  }

  /** Eight bytes of one plane, each zero-extended to an int. */
  private static IntVector planeInts(byte[] b, int p) {
    return ((IntVector) ByteVector.fromArray(B8, b, p).convertShape(VectorOperators.B2I, I8, 0)).and(0xFF);
  }

  @Override
  public void addShuffledDoubles(byte[] b, int offset, int plane, int n, double[] sums, int at) {
    DoubleVector lo = DoubleVector.fromArray(D4, sums, at);
    DoubleVector hi = DoubleVector.fromArray(D4, sums, at + 4);
    for (int j = 0; j < n; j += LANES) {
      LongVector first = LongVector.zero(L4);
      LongVector second = LongVector.zero(L4);
      for (int k = 0; k < 8; k++) {
        ByteVector bytes = ByteVector.fromArray(B8, b, offset + k * plane + j);
        first = first.or(planeLongs(bytes, 0).lanewise(VectorOperators.LSHL, 8 * k));
        second = second.or(planeLongs(bytes, 1).lanewise(VectorOperators.LSHL, 8 * k));
      }
      lo = lo.add(first.reinterpretAsDoubles());
      hi = hi.add(second.reinterpretAsDoubles());
    }
    lo.intoArray(sums, at);
    hi.intoArray(sums, at + 4);
  }

  /** Four of eight bytes ({@code part} 0: the first four), each zero-extended to a long. */
  private static LongVector planeLongs(ByteVector bytes, int part) {
    return ((LongVector) bytes.convertShape(VectorOperators.B2L, L4, part)).and(0xFFL);
  }
}
