package io.github.sparkzarr.spark.read;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Numbers the groups a partition meets (tuples of positions), in the order they are first met. */
final class GroupSlots {
  private final Map<Key, Integer> slots = new HashMap<>();
  private final List<long[]> keys = new ArrayList<>();

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
    return slots.computeIfAbsent(new Key(positions.clone()), k -> {
      keys.add(k.positions());
      return keys.size() - 1;
    });
  }

  int size() {
    return keys.size();
  }

  /** The positions of slot {@code s}. */
  long[] key(int s) {
    return keys.get(s);
  }
}
