package io.github.sparkzarr.zarr.codec.checksum;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * numcodecs "fletcher32" (numcodecs ≥ 0.12): HDF5's Fletcher-32, appended as 4 little-endian
 * bytes. HDF5 (H5checksum.c, H5_checksum_fletcher32) sums big-endian 16-bit words, pads an odd
 * last byte as the high byte of a word, and folds the sums with end-around carry, so a sum of
 * 0xffff stays 0xffff rather than becoming 0 as in the textbook modulo-65535 definition.
 */
public final class Fletcher32Codec extends Checksum32Codec {
  public static final String ID = "fletcher32";

  /** Words summed before folding: the most that keeps the 32-bit sums from overflowing. */
  private static final int WORDS_PER_FOLD = 360;

  public Fletcher32Codec() {
    super(Location.END);
  }

  /** numcodecs' Fletcher32 has no parameters. */
  public static Fletcher32Codec fromConfig(JsonNode config) {
    return new Fletcher32Codec();
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  protected Location defaultLocation() {
    return Location.END;
  }

  @Override
  protected int checksum(byte[] data, int offset, int length) {
    long sum1 = 0;
    long sum2 = 0;
    int p = offset;
    for (int words = length / 2; words > 0; ) {
      int run = Math.min(words, WORDS_PER_FOLD);
      words -= run;
      for (; run > 0; run--, p += 2) {
        sum1 += (data[p] & 0xff) << 8 | (data[p + 1] & 0xff);
        sum2 += sum1;
      }
      sum1 = fold(sum1);
      sum2 = fold(sum2);
    }
    if (length % 2 != 0) {
      sum1 += (data[p] & 0xff) << 8;
      sum2 += sum1;
      sum1 = fold(sum1);
      sum2 = fold(sum2);
    }
    return (int) (fold(sum2) << 16 | fold(sum1));
  }

  private static long fold(long sum) {
    return (sum & 0xffff) + (sum >>> 16);
  }
}
