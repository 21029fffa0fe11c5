package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Groups are numbered in the order first met, the same tuple always gets its number back. */
class GroupSlotsTest {
  /** 181 x 360 fits a long (packed table); lengths near 2^40 each do not (map of tuples). */
  @ParameterizedTest
  @ValueSource(longs = {181, 1L << 40})
  void numbersEachTupleOnceInTheOrderMet(long lat) {
    long lon = lat == 181 ? 360 : (1L << 40);
    GroupSlots slots = new GroupSlots(new long[] {lat, lon});
    int n = 0;
    for (int round = 0; round < 2; round++) {
      for (long i = 0; i < 181; i++) {
        for (long j = 0; j < 360; j += 7) {
          long[] key = {i, lat == 181 ? j : j << 30};
          int s = slots.slot(key);
          if (round == 0) {
            assertEquals(n++, s, () -> "new tuple " + key[0] + "," + key[1]);
          }
          assertArrayEquals(key, slots.key(s));
        }
      }
      assertEquals(n, slots.size(), "a second round adds no group");
    }
    assertEquals(0, slots.slot(new long[] {0, 0}));
    assertEquals(0, new GroupSlots(new long[] {181}).slot(new long[] {180}));
  }
}
