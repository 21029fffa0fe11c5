package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.VectorApi;

/**
 * The SIMD part of {@link ByteShuffle#unshuffle}: it un-shuffles the leading elements of a block
 * and the scalar loops do the rest, so every implementation gives the same bytes.
 */
interface Unshuffler {
  /** SIMD when the JVM has the Vector API, else one that leaves every element to the loops. */
  Unshuffler BEST = VectorApi.choose(Unshuffler.class,
      "io.github.sparkzarr.zarr.codec.blosc.VectorUnshuffler", (t, n, src, so, dst, d) -> 0);

  /**
   * Un-shuffles elements {@code [0, k)} of a block of {@code n} elements of {@code typeSize}
   * bytes (plane j of the block at {@code src[srcOff + j * n]}) into {@code dst[dstOff]} on.
   *
   * @return k, at most {@code n}: 0 when this element size has no SIMD loop
   */
  int unshuffle(int typeSize, int n, byte[] src, int srcOff, byte[] dst, int dstOff);
}
