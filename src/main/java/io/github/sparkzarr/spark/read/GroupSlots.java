package io.github.sparkzarr.spark.read;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Numbers the groups a partition meets (tuples of positions), in the order they are first met.
 *
 * <p>A scan grouped by {@code lat, lon} looks up every grid cell once per chunk, so the lookup is
 * kept cheap: when the positions fit in one long (each below its dimension's length, packed in
 * mixed radix) they are found in an open-addressing table of longs, else in a map of tuples.
 */
final class GroupSlots {
  private final long[] radix;
  private final boolean packed;
  private final List<long[]> keys = new ArrayList<>();
  // packed: open addressing, codes + 1 (0 marks a free entry), slot numbers beside them
  private long[] codes = new long[64];
  private int[] numbers = new int[64];
  // otherwise
  private final Map<Key, Integer> slots = new HashMap<>();

  /** @param radix the number of positions each key can take (its dimension's length) */
  GroupSlots(long[] radix) {
    this.radix = radix.clone();
    long product = 2; // the leading 1 of a code doubles its range
    boolean fits = true;
    for (long r : radix) {
      if (r <= 0 || product > (Long.MAX_VALUE - 1) / r) {
        fits = false;
        break;
      }
      product *= r;
    }
    this.packed = fits;
  }

  private record Key(long[] positions) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(positions, k.positions);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(positions);
    }
  }

  /** The slot of the group at {@code positions}, new if not met before. */
  int slot(long[] positions) {
    if (!packed) {
      return slots.computeIfAbsent(new Key(positions.clone()), k -> {
        keys.add(k.positions());
        return keys.size() - 1;
      });
    }
    long code = 1;
    for (int k = 0; k < positions.length; k++) {
      code = code * radix[k] + positions[k]; // below the product, so never 0 after the leading 1
    }
    int mask = codes.length - 1;
    for (int i = mix(code) & mask; ; i = (i + 1) & mask) {
      if (codes[i] == code) {
        return numbers[i];
      }
      if (codes[i] == 0) {
        codes[i] = code;
        numbers[i] = keys.size();
        keys.add(positions.clone());
        if (2 * keys.size() > codes.length) {
          grow();
        }
        return keys.size() - 1;
      }
    }
  }

  private static int mix(long code) {
    long h = code * 0x9E3779B97F4A7C15L;
    return (int) (h ^ h >>> 32);
  }

  private void grow() {
    long[] oldCodes = codes;
    int[] oldNumbers = numbers;
    codes = new long[oldCodes.length * 2];
    numbers = new int[oldCodes.length * 2];
    int mask = codes.length - 1;
    for (int j = 0; j < oldCodes.length; j++) {
      if (oldCodes[j] != 0) {
        int i = mix(oldCodes[j]) & mask;
        while (codes[i] != 0) {
          i = (i + 1) & mask;
        }
        codes[i] = oldCodes[j];
        numbers[i] = oldNumbers[j];
      }
    }
  }

  int size() {
    return keys.size();
  }

  /** The positions of slot {@code s}. */
  long[] key(int s) {
    return keys.get(s);
  }
}
