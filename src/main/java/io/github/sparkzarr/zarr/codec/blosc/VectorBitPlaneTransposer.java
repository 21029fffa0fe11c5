package io.github.sparkzarr.zarr.codec.blosc;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.XOR;

import io.github.sparkzarr.zarr.codec.Kernels;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link BitPlaneTransposer} with the Vector API: the scalar loop's byte and bit transposes of
 * eight words, done for four words of each bit row at once ({@link VectorByteTranspose}, then
 * {@link #bitTransposeWords}), then the words are put back in element order. About three times the
 * scalar loop's speed.
 *
 * <p>The work is split into two small methods that meet in a 32-long scratch array: one method
 * holding the whole transpose is too large for C2 to inline the Vector API's calls, and vectors
 * that cross a call that is not inlined become objects, which made it slower than the scalar loop.
 * Both are called through method handles C2 cannot inline, so that each is compiled on its own:
 * inlined into this loop, the two (about 30 Vector API calls) took C2 past its inlining budget in
 * JVMs that had run many queries, and it left loads and stores uncompiled, their vectors objects
 * allocated on every step (docs/benchmarks.md, session 42). The calls cost nothing measurable:
 * each handles 256 elements.
 */
final class VectorBitPlaneTransposer implements BitPlaneTransposer {
  private static final VectorSpecies<Long> L4 = LongVector.SPECIES_256;
  /** Bytes of each bit row per step: four words, 256 elements. */
  private static final int ROW_BYTES_PER_STEP = 32;

  private static final ThreadLocal<long[]> WORDS = ThreadLocal.withInitial(() -> new long[32]);
  // Not final, so not constants to C2, which then cannot inline their targets into the loop.
  private static MethodHandle byteTranspose =
      Kernels.find(MethodHandles.lookup().in(VectorByteTranspose.class), "transpose");
  private static MethodHandle bitTranspose = Kernels.find(MethodHandles.lookup(), "bitTransposeWords");

  @Override
  public int toBytePlanes(int typeSize, int n, byte[] src, int srcOff, byte[] dst, int dstOff,
      int first, int count) {
    int done = count - count % (8 * ROW_BYTES_PER_STEP);
    int rowBytes = n / 8;
    long[] words = WORDS.get();
    for (int j = 0; j < typeSize; j++) {
      int rowsStart = srcOff + 8 * j * rowBytes;
      int plane = dstOff + j * count - first;
      for (int g = first / 8, end = (first + done) / 8; g < end; g += ROW_BYTES_PER_STEP) {
        transpose(src, rowsStart + g, rowBytes, words);
        VectorByteTranspose.writeInOrder(words, dst, plane + 8 * g);
      }
    }
    return done;
  }

  private static void transpose(byte[] src, int at, int rowBytes, long[] words) {
    try {
      byteTranspose.invokeExact(src, at, rowBytes, words);
      bitTranspose.invokeExact(words);
    } catch (Throwable t) {
      throw Kernels.unchecked(t);
    }
  }

  /** {@link BitShuffle#transpose8x8} of every word, four at a time. */
  private static void bitTransposeWords(long[] words) {
    for (int k = 0; k < words.length; k += 4) {
      LongVector x = LongVector.fromArray(L4, words, k);
      LongVector t = x.lanewise(LSHR, 7).lanewise(XOR, x).and(0x00AA00AA00AA00AAL);
      x = x.lanewise(XOR, t).lanewise(XOR, t.lanewise(LSHL, 7));
      t = x.lanewise(LSHR, 14).lanewise(XOR, x).and(0x0000CCCC0000CCCCL);
      x = x.lanewise(XOR, t).lanewise(XOR, t.lanewise(LSHL, 14));
      t = x.lanewise(LSHR, 28).lanewise(XOR, x).and(0x00000000F0F0F0F0L);
      x.lanewise(XOR, t).lanewise(XOR, t.lanewise(LSHL, 28)).intoArray(words, k);
    }
  }
}
