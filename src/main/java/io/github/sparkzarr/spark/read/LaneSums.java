package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.VectorApi;

/**
 * The inner loops of SUM: adds runs of little-endian float32 or float64 elements, widened to
 * double, into eight interleaved partial sums {@code sums[at + k]}, element {@code j} of a run
 * into lane {@code j % 8}. Runs are whole multiples of 8 elements and nothing is tested for
 * missing values ({@link SumAccumulator} does that). Every implementation gives the same bits.
 */
interface LaneSums {
  int LANES = 8;

  /** The fastest implementation this JVM runs: SIMD when it has the Vector API, else scalar. */
  static LaneSums best() {
    return Holder.BEST;
  }

  /** {@code n} float32 elements stored one after the other from {@code bytes[offset]}. */
  void addFloats(byte[] bytes, int offset, int n, double[] sums, int at);

  /** {@code n} float64 elements stored one after the other from {@code bytes[offset]}. */
  void addDoubles(byte[] bytes, int offset, int n, double[] sums, int at);

  /**
   * {@code n} float32 elements of a byte-shuffled block: byte k of the run's element j at
   * {@code bytes[offset + k * plane + j]}.
   */
  void addShuffledFloats(byte[] bytes, int offset, int plane, int n, double[] sums, int at);

  /** {@link #addShuffledFloats} for float64 elements. */
  void addShuffledDoubles(byte[] bytes, int offset, int plane, int n, double[] sums, int at);

  /** Chooses once per JVM. */
  final class Holder {
    static final LaneSums BEST = choose();

    private Holder() {
    }

    private static LaneSums choose() {
      return VectorApi.choose(LaneSums.class, "io.github.sparkzarr.spark.read.VectorLaneSums",
          new ScalarLaneSums());
    }
  }
}
