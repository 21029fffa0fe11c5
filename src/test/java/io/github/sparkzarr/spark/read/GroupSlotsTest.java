package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Groups are numbered in the order first met, the same tuple always gets its number back. */
class GroupSlotsTest {
  /**
   * 181 x 360 positions index a table directly; 2^20 x 2^30 fit a long (hashed codes); 2^40 x
   * 2^40 do not (map of tuples). Positions start at an offset, as a partition's do.
   */
  @ParameterizedTest
  @ValueSource(longs = {181, 1L << 20, 1L << 40})
  void numbersEachTupleOnceInTheOrderMet(long lat) {
    long lon = lat == 181 ? 360 : lat == 1L << 20 ? 1L << 30 : 1L << 40;
    long latFirst = 1000;
    long lonFirst = 7;
    GroupSlots slots = new GroupSlots(new long[] {latFirst, lonFirst}, new long[] {lat, lon});
    int n = 0;
    for (int round = 0; round < 2; round++) {
      for (long i = 0; i < 181; i++) {
        for (long j = 0; j < 360; j += 7) {
          long[] key = {latFirst + (lat == 181 ? i : i << 12), lonFirst + (lat == 181 ? j : j << 18)};
          int s = slots.slot(key);
          if (round == 0) {
            assertEquals(n++, s, () -> "new tuple " + key[0] + "," + key[1]);
          }
          assertEquals(key[0], slots.position(s, 0));
          assertEquals(key[1], slots.position(s, 1));
        }
      }
      assertEquals(n, slots.size(), "a second round adds no group");
    }
    assertEquals(0, slots.slot(new long[] {latFirst, lonFirst}));
    assertThrows(IllegalArgumentException.class, () -> slots.slot(new long[] {latFirst - 1, lonFirst}));
  }

  @ParameterizedTest
  @ValueSource(longs = {181, 1L << 40})
  void oneKey(long length) {
    GroupSlots slots = new GroupSlots(new long[] {5}, new long[] {length});
    assertEquals(0, slots.slot(new long[] {185}));
    assertEquals(1, slots.slot(new long[] {5}));
    assertEquals(0, slots.slot(new long[] {185}));
    assertEquals(185, slots.position(0, 0));
    assertThrows(IllegalArgumentException.class, () -> slots.slot(new long[] {5 + length}));
  }

  @org.junit.jupiter.api.Test
  void noKeysIsOneGroup() {
    GroupSlots slots = new GroupSlots(new long[0], new long[0]);
    assertEquals(0, slots.slot(new long[0]));
    assertEquals(0, slots.slot(new long[0]));
    assertEquals(1, slots.size());
  }
}
