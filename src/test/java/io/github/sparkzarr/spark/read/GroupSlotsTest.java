package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
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

  /**
   * positions(k, n) is position(s, k) for every slot, whether groups are met in C order (codes
   * one after the other, carrying over every key; from code 0 or from inside a key's step), with
   * gaps, in a random order or by tuple.
   */
  @ParameterizedTest
  @ValueSource(strings = {"C order", "C order from inside", "gaps", "random", "tuples"})
  void positionsOfAllSlotsAreEachSlotsPosition(String order) {
    long[] radix = order.equals("tuples") ? new long[] {3, 1L << 40, 1L << 40} : new long[] {3, 5, 7};
    GroupSlots slots = new GroupSlots(new long[] {10, 20, 30}, radix);
    java.util.List<long[]> tuples = new java.util.ArrayList<>();
    for (long a = 0; a < 3; a++) {
      for (long b = 0; b < 5; b++) {
        for (long c = 0; c < 7; c++) {
          boolean kept = switch (order) {
            case "gaps" -> (a * 35 + b * 7 + c) % 4 != 1;
            case "C order from inside" -> a * 35 + b * 7 + c >= 17; // the first slot's code is 17
            default -> true;
          };
          if (kept) {
            tuples.add(new long[] {10 + a, 20 + b, 30 + c});
          }
        }
      }
    }
    if (order.equals("random")) {
      java.util.Collections.shuffle(tuples, new java.util.Random(3));
    }
    tuples.forEach(slots::slot);
    int n = slots.size();
    assertEquals(tuples.size(), n);
    for (int k = 0; k < 3; k++) {
      long[] all = new long[n];
      for (int from = 0; from < n; from += 16) { // in pieces, as callers ask for them
        long[] piece = new long[16];
        slots.positions(k, from, Math.min(16, n - from), piece);
        System.arraycopy(piece, 0, all, from, Math.min(16, n - from));
      }
      for (int s = 0; s < n; s++) {
        assertEquals(slots.position(s, k), all[s], order + ": key " + k + ", slot " + s);
        assertEquals(tuples.get(s)[k], all[s], order + ": key " + k + ", slot " + s);
      }
    }
  }

  /** After addEvery each code is its own slot, and positions and lookups answer as for groups met one by one. */
  @Test
  void everyCodeItsOwnSlot() {
    long[] first = {4, 0, 9};
    long[] radix = {2, 3, 5};
    GroupSlots every = new GroupSlots(first, radix);
    GroupSlots oneByOne = new GroupSlots(first, radix);
    every.addEvery();
    for (long a = 0; a < 2; a++) {
      for (long b = 0; b < 3; b++) {
        for (long c = 0; c < 5; c++) {
          oneByOne.slot(new long[] {4 + a, b, 9 + c});
        }
      }
    }
    assertEquals(30, every.size());
    assertEquals(oneByOne.size(), every.size());
    for (int k = 0; k < 3; k++) {
      long[] got = new long[7];
      long[] expected = new long[7];
      every.positions(k, 11, 7, got);
      oneByOne.positions(k, 11, 7, expected);
      assertArrayEquals(expected, got, "key " + k);
      for (int s = 0; s < 30; s++) {
        assertEquals(oneByOne.position(s, k), every.position(s, k), "key " + k + ", slot " + s);
      }
    }
    assertEquals(oneByOne.slot(new long[] {5, 2, 12}), every.slot(new long[] {5, 2, 12}));
    assertEquals(23, every.slot(new long[] {5, 1, 12}));
    assertEquals(30, every.size(), "no slot added for a code met before");
    assertThrows(IllegalStateException.class, oneByOne::addEvery, "only before any slot");
  }

  /** Beyond the direct table's range (hashed codes), every code is its own slot as well. */
  @Test
  void everyCodeItsOwnSlotBeyondTheDirectTable() {
    GroupSlots every = new GroupSlots(new long[] {100, 7}, new long[] {5, 1 << 20});
    every.addEvery();
    assertEquals(5 << 20, every.size());
    assertEquals((4L << 20) + 9, every.slot(new long[] {104, 16}));
    long[] out = new long[4];
    every.positions(1, (3 << 20) - 2, 4, out);
    assertArrayEquals(new long[] {7 + (1 << 20) - 2, 7 + (1 << 20) - 1, 7, 8}, out);
    every.positions(0, (3 << 20) - 2, 4, out);
    assertArrayEquals(new long[] {102, 102, 103, 103}, out);
    assertEquals(5 << 20, every.size());
  }
}
