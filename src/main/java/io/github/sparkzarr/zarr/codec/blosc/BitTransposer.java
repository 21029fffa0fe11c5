package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.VectorApi;

/**
 * The SIMD part of {@link BitShuffle#toBytePlanes}: it transposes the leading groups of a byte
 * plane and the scalar loops do the rest, so every implementation gives the same bytes.
 */
interface BitTransposer {
  /** SIMD when the JVM has the Vector API, else one that leaves every group to the loops. */
  BitTransposer BEST = VectorApi.choose(BitTransposer.class,
      "io.github.sparkzarr.zarr.codec.blosc.VectorBitTransposer", (src, rows, rowBytes, dst, plane, g, end) -> g);

  /**
   * Turns groups {@code [g, k)} of the eight bit rows that start at {@code src[rows]} ({@code
   * rowBytes} apart; group g is byte g of each row, eight elements) into bytes of the elements,
   * element {@code 8 * g + m} at {@code dst[plane + 8 * g + m]}.
   *
   * @return k, at most {@code end}
   */
  int transpose(byte[] src, int rows, int rowBytes, byte[] dst, int plane, int g, int end);
}
