package io.github.sparkzarr.zarr.codec.blosc;

import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link Unshuffler} with the Vector API for 2-, 4- and 8-byte elements: a few bytes of each
 * plane are widened to the element size, shifted to their place and merged into whole elements in
 * registers, then stored together. About nine times the scalar loop's speed for float32.
 */
final class VectorUnshuffler implements Unshuffler {
  private static final VectorSpecies<Byte> B8 = ByteVector.SPECIES_64;
  private static final VectorSpecies<Byte> B16 = ByteVector.SPECIES_128;
  private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_256;
  private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
  private static final VectorSpecies<Long> L4 = LongVector.SPECIES_256;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

  @Override
  public int unshuffle(int typeSize, int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
    return switch (typeSize) {
      case 2 -> shorts(n, src, srcOff, dst, dstOff);
      case 4 -> ints(n, src, srcOff, dst, dstOff);
      case 8 -> longs(n, src, srcOff, dst, dstOff);
      default -> 0;
    };
  }

  private static int shorts(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
    int end = n - n % 16;
    for (int i = 0; i < end; i += 16) {
      ShortVector low = ((ShortVector) ByteVector.fromArray(B16, src, srcOff + i)
          .convertShape(VectorOperators.B2S, S16, 0)).and((short) 0xFF);
      ShortVector high = (ShortVector) ByteVector.fromArray(B16, src, srcOff + n + i)
          .convertShape(VectorOperators.B2S, S16, 0);
      low.or(high.lanewise(VectorOperators.LSHL, 8)).intoByteArray(dst, dstOff + 2 * i, LE);
    }
    return end;
  }

  private static int ints(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
    int end = n - n % 8;
    for (int i = 0; i < end; i += 8) {
      IntVector bits = IntVector.zero(I8);
      for (int k = 0; k < 4; k++) {
        IntVector bytes = (IntVector) ByteVector.fromArray(B8, src, srcOff + k * n + i)
            .convertShape(VectorOperators.B2I, I8, 0);
        bits = bits.or(bytes.and(0xFF).lanewise(VectorOperators.LSHL, 8 * k));
      }
      bits.intoByteArray(dst, dstOff + 4 * i, LE);
    }
    return end;
  }

  /** Per thread: 32 elements gathered from their planes by {@link VectorByteTranspose}. */
  private static final ThreadLocal<long[]> WORDS = ThreadLocal.withInitial(() -> new long[32]);

  /**
   * 32 elements at a time by one byte transpose of their planes (about twice as fast), then the
   * rest eight at a time, each assembled from its eight planes.
   */
  private static int longs(int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
    int whole = n - n % 32;
    long[] words = WORDS.get();
    for (int i = 0; i < whole; i += 32) {
      VectorByteTranspose.transpose(src, srcOff + i, n, words);
      VectorByteTranspose.writeInOrder(words, dst, dstOff + 8 * i);
    }
    int end = n - n % 8;
    for (int i = whole; i < end; i += 8) {
      LongVector first = LongVector.zero(L4);
      LongVector second = LongVector.zero(L4);
      for (int k = 0; k < 8; k++) {
        ByteVector bytes = ByteVector.fromArray(B8, src, srcOff + k * n + i);
        first = first.or(((LongVector) bytes.convertShape(VectorOperators.B2L, L4, 0)).and(0xFFL)
            .lanewise(VectorOperators.LSHL, 8 * k));
        second = second.or(((LongVector) bytes.convertShape(VectorOperators.B2L, L4, 1)).and(0xFFL)
            .lanewise(VectorOperators.LSHL, 8 * k));
      }
      first.intoByteArray(dst, dstOff + 8 * i, LE);
      second.intoByteArray(dst, dstOff + 8 * i + 32, LE);
    }
    return end;
  }
}
