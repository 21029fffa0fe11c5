package io.github.sparkzarr.spark.read;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Numbers the groups a partition meets (tuples of positions, one per key), in the order they are
 * first met.
 *
 * <p>A scan grouped by {@code lat, lon} looks up every grid cell once per chunk, so the lookup is
 * kept cheap. Each key's positions lie in a known range (the positions the partition reads along
 * its dimension), so a tuple has a code in mixed radix. When the ranges' product is small the code
 * indexes a table directly; when it fits a long, an open-addressing table of codes finds it;
 * otherwise a map of tuples does.
 */
final class GroupSlots {
  /** Codes below this index a table directly (16 MiB of ints at most, as much as 2 Mi groups' sums). */
  static final long DIRECT_LIMIT = 1L << 22;

  private final long[] first;
  private final long[] radix;
  /** What one step of each key adds to a code: the product of the later keys' radixes. */
  private final long[] stride;
  /** Product of the radixes, or -1 when it does not fit a long. */
  private final long range;
  private long[] codeOfSlot = new long[16];
  private int size;
  /** Whether each slot's code is the one before's plus one (groups met in C order, as a map's cells are). */
  private boolean consecutive = true;
  // direct: slot + 1 by code, 0 where not met (allocated at the first lookup)
  private final boolean directCodes;
  private int[] direct;
  /** Whether every code is its own slot ({@link #addEvery}): nothing is looked up or stored. */
  private boolean every;
  // hashed: open addressing, codes + 1 (0 marks a free entry), slot numbers beside them
  private long[] codes;
  private int[] numbers;
  // otherwise
  private final Map<Key, Integer> tuples = new HashMap<>();
  private final List<long[]> keys = new ArrayList<>();

  /**
   * @param first each key's lowest position
   * @param radix the number of positions each key can take from there
   */
  GroupSlots(long[] first, long[] radix) {
    this.first = first.clone();
    this.radix = radix.clone();
    long product = 1;
    for (long r : radix) {
      if (r <= 0 || product > (Long.MAX_VALUE - 1) / r) {
        product = -1;
        break;
      }
      product *= r;
    }
    this.range = product;
    this.stride = new long[radix.length];
    long step = 1;
    for (int k = radix.length - 1; k >= 0; k--) {
      stride[k] = step;
      step *= radix[k]; // meaningful only when the product fits
    }
    directCodes = product >= 0 && product <= DIRECT_LIMIT;
    if (product >= 0 && !directCodes) {
      codes = new long[64];
      numbers = new int[64];
    }
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
    long code = 0;
    for (int k = 0; k < positions.length; k++) {
      code += codePart(k, positions[k]); // overflows only when not coded, which does not use it
    }
    if (!coded()) {
      return tuples.computeIfAbsent(new Key(positions.clone()), k -> {
        keys.add(k.positions());
        return keys.size() - 1;
      });
    }
    return slotOfCode(code);
  }

  /** Whether groups have codes: the sum of their keys' {@link #codePart}s. */
  boolean coded() {
    return range >= 0;
  }

  /** Key {@code k}'s share of a group's code, at {@code position}. */
  long codePart(int k, long position) {
    long offset = position - first[k];
    if (offset < 0 || offset >= radix[k]) {
      throw new IllegalArgumentException("position " + position + " of key " + k
          + " is outside [" + first[k] + ", " + (first[k] + radix[k]) + ")");
    }
    return offset * stride[k];
  }

  /** The slot of the group with this code (only when {@link #coded()}), new if not met before. */
  int slotOfCode(long code) {
    if (every) {
      return (int) code;
    }
    if (directCodes) {
      if (direct == null) {
        direct = new int[(int) Math.max(1, range)];
      }
      int s = direct[(int) code] - 1;
      if (s < 0) {
        s = add(code);
        direct[(int) code] = s + 1;
      }
      return s;
    }
    return hashed(code + 1);
  }

  private int hashed(long code) {
    int mask = codes.length - 1;
    for (int i = mix(code) & mask; ; i = (i + 1) & mask) {
      if (codes[i] == code) {
        return numbers[i];
      }
      if (codes[i] == 0) {
        codes[i] = code;
        numbers[i] = add(code - 1);
        if (2 * size > codes.length) {
          grow();
        }
        return size - 1;
      }
    }
  }

  /** The number of codes: every combination of the keys' positions (only when {@link #coded()}). */
  long range() {
    return range;
  }

  /**
   * Makes every code its own slot, before any slot is made: for a first box that holds every
   * group, met in C order (a map's cells, each element its own group), whose slots are then its
   * groups' numbers, with no table to fill and look up.
   */
  void addEvery() {
    if (size != 0 || range < 0 || range > Integer.MAX_VALUE) {
      throw new IllegalStateException("codes are their slots only from the start, and as many as an int counts: "
          + size + " slots, " + range + " codes");
    }
    every = true;
    size = (int) range;
    codeOfSlot = null;
  }

  /** The code of slot {@code s}. */
  private long codeOf(int s) {
    return every ? s : codeOfSlot[s];
  }

  /** Makes room for {@code more} new groups at once, rather than doubling as they come. */
  void reserve(int more) {
    if (every) {
      return;
    }
    if (size + more > codeOfSlot.length) {
      codeOfSlot = Arrays.copyOf(codeOfSlot, size + more);
    }
  }

  private int add(long code) {
    if (size == codeOfSlot.length) {
      codeOfSlot = Arrays.copyOf(codeOfSlot, size * 2);
    }
    consecutive &= size == 0 || code == codeOfSlot[size - 1] + 1;
    codeOfSlot[size] = code;
    return size++;
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
    return range < 0 ? keys.size() : size;
  }

  /**
   * The position of key {@code k} in each of slots {@code [from, from + count)}, into {@code
   * out[0, count)}: {@link #position} of each, without its two divisions where a slot's code
   * follows the one before (slots met in C order, as when every element is its own group), which
   * would cost more than adding the elements up.
   */
  void positions(int k, int from, int count, long[] out) {
    if (range < 0) {
      for (int i = 0; i < count; i++) {
        out[i] = keys.get(from + i)[k];
      }
      return;
    }
    if (consecutive || every) {
      consecutivePositions(k, codeOf(from), count, out);
      return;
    }
    long step = stride[k];
    long before = Long.MIN_VALUE;
    long below = 0; // the code's remainder by step
    long digit = 0;
    for (int i = 0; i < count; i++) {
      long code = codeOfSlot[from + i];
      if (code == before + 1) {
        if (++below == step) {
          below = 0;
          digit = digit + 1 == radix[k] ? 0 : digit + 1;
        }
      } else {
        below = code % step;
        digit = code / step % radix[k];
      }
      before = code;
      out[i] = first[k] + digit;
    }
  }

  /**
   * {@link #positions} of {@code count} slots whose codes run on from {@code code}: each position
   * repeats for as many slots as a step of the key spans, the last key's counting up.
   */
  private void consecutivePositions(int k, long code, int count, long[] out) {
    long step = stride[k];
    long digit = code / step % radix[k];
    if (step == 1) {
      for (int i = 0; i < count; digit = 0) {
        int m = (int) Math.min(count - i, radix[k] - digit);
        long position = first[k] + digit;
        for (int j = 0; j < m; j++) {
          out[i + j] = position + j;
        }
        i += m;
      }
      return;
    }
    long left = step - code % step; // slots before the key's next step
    for (int i = 0; i < count; ) {
      int m = (int) Math.min(count - i, left);
      Arrays.fill(out, i, i + m, first[k] + digit);
      i += m;
      left = step;
      digit = digit + 1 == radix[k] ? 0 : digit + 1;
    }
  }

  /** The position of key {@code k} in slot {@code s}. */
  long position(int s, int k) {
    if (range < 0) {
      return keys.get(s)[k];
    }
    return first[k] + codeOf(s) / stride[k] % radix[k];
  }
}
