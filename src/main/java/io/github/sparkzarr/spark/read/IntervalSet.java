package io.github.sparkzarr.spark.read;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A set of positions along one dimension: sorted, disjoint, non-adjacent [start, end) ranges. */
public final class IntervalSet implements Serializable {
  private final long[] bounds; // start0, end0, start1, end1, ...

  private IntervalSet(long[] bounds) {
    this.bounds = bounds;
  }

  public static IntervalSet all(long length) {
    return range(0, length);
  }

  public static IntervalSet range(long start, long end) {
    return start >= end ? new IntervalSet(new long[0]) : new IntervalSet(new long[] {start, end});
  }

  public static IntervalSet empty() {
    return new IntervalSet(new long[0]);
  }

  public int rangeCount() {
    return bounds.length / 2;
  }

  public long start(int i) {
    return bounds[2 * i];
  }

  public long end(int i) {
    return bounds[2 * i + 1];
  }

  public boolean isEmpty() {
    return bounds.length == 0;
  }

  public long size() {
    long n = 0;
    for (int i = 0; i < rangeCount(); i++) {
      n += end(i) - start(i);
    }
    return n;
  }

  public IntervalSet union(IntervalSet o) {
    List<long[]> all = new ArrayList<>();
    for (IntervalSet s : List.of(this, o)) {
      for (int i = 0; i < s.rangeCount(); i++) {
        all.add(new long[] {s.start(i), s.end(i)});
      }
    }
    all.sort((a, b) -> Long.compare(a[0], b[0]));
    List<Long> out = new ArrayList<>();
    for (long[] r : all) {
      if (!out.isEmpty() && r[0] <= out.get(out.size() - 1)) {
        out.set(out.size() - 1, Math.max(out.get(out.size() - 1), r[1]));
      } else {
        out.add(r[0]);
        out.add(r[1]);
      }
    }
    return new IntervalSet(out.stream().mapToLong(Long::longValue).toArray());
  }

  public IntervalSet intersect(IntervalSet o) {
    List<Long> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < rangeCount() && j < o.rangeCount()) {
      long lo = Math.max(start(i), o.start(j));
      long hi = Math.min(end(i), o.end(j));
      if (lo < hi) {
        out.add(lo);
        out.add(hi);
      }
      if (end(i) < o.end(j)) {
        i++;
      } else {
        j++;
      }
    }
    return new IntervalSet(out.stream().mapToLong(Long::longValue).toArray());
  }

  /** The positions of [0, length) not in this set. */
  public IntervalSet complement(long length) {
    List<Long> out = new ArrayList<>();
    long at = 0;
    for (int i = 0; i < rangeCount(); i++) {
      if (start(i) > at) {
        out.add(at);
        out.add(start(i));
      }
      at = end(i);
    }
    if (at < length) {
      out.add(at);
      out.add(length);
    }
    return new IntervalSet(out.stream().mapToLong(Long::longValue).toArray());
  }

  /** The positions of this set inside [lo, hi), listed. */
  public long[] positionsIn(long lo, long hi) {
    IntervalSet part = intersect(range(lo, hi));
    long[] out = new long[Math.toIntExact(part.size())];
    int k = 0;
    for (int i = 0; i < part.rangeCount(); i++) {
      for (long p = part.start(i); p < part.end(i); p++) {
        out[k++] = p;
      }
    }
    return out;
  }

  /** The chunks (of length {@code chunk}) that hold at least one position of this set. */
  public long[] chunks(int chunk) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < rangeCount(); i++) {
      long first = start(i) / chunk;
      long last = (end(i) - 1) / chunk;
      for (long c = first; c <= last; c++) {
        if (out.isEmpty() || out.get(out.size() - 1) < c) {
          out.add(c);
        }
      }
    }
    return out.stream().mapToLong(Long::longValue).toArray();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IntervalSet s && Arrays.equals(bounds, s.bounds);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bounds);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < rangeCount(); i++) {
      b.append(i == 0 ? "" : ",").append('[').append(start(i)).append(',').append(end(i)).append(')');
    }
    return b.length() == 0 ? "{}" : b.toString();
  }
}
