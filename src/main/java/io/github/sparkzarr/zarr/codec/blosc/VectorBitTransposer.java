package io.github.sparkzarr.zarr.codec.blosc;

import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link BitTransposer} with the Vector API: the scalar loop's word algorithm (a byte transpose of
 * eight row words, then a bit transpose of each word) run in four 64-bit lanes at once, lane L on
 * the eight groups from {@code g + 8 * L}, so every step is lane-wise and the rows are read 32
 * contiguous bytes at a time.
 */
final class VectorBitTransposer implements BitTransposer {
  private static final VectorSpecies<Long> L4 = LongVector.SPECIES_256;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
  private static final VectorOperators.Binary XOR = VectorOperators.XOR;

  @Override
  public int transpose(byte[] src, int rows, int rowBytes, byte[] dst, int plane, int g, int end) {
    for (; g + 32 <= end; g += 32) {
      int at = rows + g;
      LongVector w0 = LongVector.fromByteArray(L4, src, at, LE);
      LongVector w1 = LongVector.fromByteArray(L4, src, at + rowBytes, LE);
      LongVector w2 = LongVector.fromByteArray(L4, src, at + 2 * rowBytes, LE);
      LongVector w3 = LongVector.fromByteArray(L4, src, at + 3 * rowBytes, LE);
      LongVector w4 = LongVector.fromByteArray(L4, src, at + 4 * rowBytes, LE);
      LongVector w5 = LongVector.fromByteArray(L4, src, at + 5 * rowBytes, LE);
      LongVector w6 = LongVector.fromByteArray(L4, src, at + 6 * rowBytes, LE);
      LongVector w7 = LongVector.fromByteArray(L4, src, at + 7 * rowBytes, LE);
      LongVector t;
      t = swapBits(w0, w1, 8, BitShuffle.BYTES); w1 = w1.lanewise(XOR, t); w0 = w0.lanewise(XOR, t.lanewise(VectorOperators.LSHL, 8));
      t = swapBits(w2, w3, 8, BitShuffle.BYTES); w3 = w3.lanewise(XOR, t); w2 = w2.lanewise(XOR, t.lanewise(VectorOperators.LSHL, 8));
      t = swapBits(w4, w5, 8, BitShuffle.BYTES); w5 = w5.lanewise(XOR, t); w4 = w4.lanewise(XOR, t.lanewise(VectorOperators.LSHL, 8));
      t = swapBits(w6, w7, 8, BitShuffle.BYTES); w7 = w7.lanewise(XOR, t); w6 = w6.lanewise(XOR, t.lanewise(VectorOperators.LSHL, 8));
      t = swapBits(w0, w2, 16, BitShuffle.PAIRS); w2 = w2.lanewise(XOR, t); w0 = w0.lanewise(XOR, t.lanewise(VectorOperators.LSHL, 16));
      t = swapBits(w1, w3, 16, BitShuffle.PAIRS); w3 = w3.lanewise(XOR, t); w1 = w1.lanewise(XOR, t.lanewise(VectorOperators.LSHL, 16));
      t = swapBits(w4, w6, 16, BitShuffle.PAIRS); w6 = w6.lanewise(XOR, t); w4 = w4.lanewise(XOR, t.lanewise(VectorOperators.LSHL, 16));
      t = swapBits(w5, w7, 16, BitShuffle.PAIRS); w7 = w7.lanewise(XOR, t); w5 = w5.lanewise(XOR, t.lanewise(VectorOperators.LSHL, 16));
      t = swapBits(w0, w4, 32, BitShuffle.HALVES); w4 = w4.lanewise(XOR, t); w0 = w0.lanewise(XOR, t.lanewise(VectorOperators.LSHL, 32));
      t = swapBits(w1, w5, 32, BitShuffle.HALVES); w5 = w5.lanewise(XOR, t); w1 = w1.lanewise(XOR, t.lanewise(VectorOperators.LSHL, 32));
      t = swapBits(w2, w6, 32, BitShuffle.HALVES); w6 = w6.lanewise(XOR, t); w2 = w2.lanewise(XOR, t.lanewise(VectorOperators.LSHL, 32));
      t = swapBits(w3, w7, 32, BitShuffle.HALVES); w7 = w7.lanewise(XOR, t); w3 = w3.lanewise(XOR, t.lanewise(VectorOperators.LSHL, 32));
      int out = plane + 8 * g;
      store(dst, out, transpose8x8(w0));
      store(dst, out + 8, transpose8x8(w1));
      store(dst, out + 16, transpose8x8(w2));
      store(dst, out + 24, transpose8x8(w3));
      store(dst, out + 32, transpose8x8(w4));
      store(dst, out + 40, transpose8x8(w5));
      store(dst, out + 48, transpose8x8(w6));
      store(dst, out + 56, transpose8x8(w7));
    }
    return g;
  }

  /** The bits of {@code a >>> shift} and {@code b} that differ, within {@code mask}. */
  private static LongVector swapBits(LongVector a, LongVector b, int shift, long mask) {
    return a.lanewise(VectorOperators.LSHR, shift).lanewise(XOR, b).lanewise(VectorOperators.AND, mask);
  }

  /** {@link BitShuffle#transpose8x8} in each lane. */
  private static LongVector transpose8x8(LongVector x) {
    LongVector t = x.lanewise(XOR, x.lanewise(VectorOperators.LSHR, 7)).lanewise(VectorOperators.AND, 0x00AA00AA00AA00AAL);
    x = x.lanewise(XOR, t).lanewise(XOR, t.lanewise(VectorOperators.LSHL, 7));
    t = x.lanewise(XOR, x.lanewise(VectorOperators.LSHR, 14)).lanewise(VectorOperators.AND, 0x0000CCCC0000CCCCL);
    x = x.lanewise(XOR, t).lanewise(XOR, t.lanewise(VectorOperators.LSHL, 14));
    t = x.lanewise(XOR, x.lanewise(VectorOperators.LSHR, 28)).lanewise(VectorOperators.AND, 0x00000000F0F0F0F0L);
    return x.lanewise(XOR, t).lanewise(XOR, t.lanewise(VectorOperators.LSHL, 28));
  }

  /** Lane L of {@code w} belongs to the groups from g + 8L: 64 bytes further per lane. */
  private static void store(byte[] dst, int out, LongVector w) {
    LittleEndian.writeLong(dst, out, w.lane(0));
    LittleEndian.writeLong(dst, out + 64, w.lane(1));
    LittleEndian.writeLong(dst, out + 128, w.lane(2));
    LittleEndian.writeLong(dst, out + 192, w.lane(3));
  }
}
