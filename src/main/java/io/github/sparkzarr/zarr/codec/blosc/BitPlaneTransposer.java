package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.VectorApi;

/**
 * The SIMD part of {@link BitShuffle#toBytePlanes}: it transposes the leading elements of the
 * requested range and the scalar loop does the rest, so every implementation gives the same bytes.
 */
interface BitPlaneTransposer {
  /** SIMD when the JVM has the Vector API, else one that leaves every element to the loop. */
  BitPlaneTransposer BEST = VectorApi.choose(BitPlaneTransposer.class,
      "io.github.sparkzarr.zarr.codec.blosc.VectorBitPlaneTransposer",
      (t, n, src, so, dst, d, first, count) -> 0);

  /**
   * Does what {@link BitShuffle#toBytePlanes} does for elements {@code [first, first + k)}.
   *
   * @return k, a multiple of 8 and at most {@code count}
   */
  int toBytePlanes(int typeSize, int n, byte[] src, int srcOff, byte[] dst, int dstOff,
      int first, int count);
}
