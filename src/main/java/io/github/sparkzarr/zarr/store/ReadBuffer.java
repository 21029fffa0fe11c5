package io.github.sparkzarr.zarr.store;

import java.util.Arrays;

/**
 * The bytes of the last value read into it, in an array a caller keeps across reads (one per
 * task), so reading a chunk allocates nothing once the array is large enough. A chunk of 1 MiB or
 * more is a humongous allocation in G1, zeroed before it is filled; reusing one array saves both.
 * Not thread-safe.
 */
public final class ReadBuffer {
  /** The array this buffer owns and reuses. */
  private byte[] owned = new byte[0];
  /** Where the last value is: {@link #owned}, or an array a store handed over whole. */
  private byte[] current = owned;
  private int length;

  /** The array holding the value in {@code [0, length())}; longer than the value when reused. */
  public byte[] array() {
    return current;
  }

  public int length() {
    return length;
  }

  /** The value as an array of its exact length (the array itself when it fits exactly). */
  public byte[] toArray() {
    return current.length == length ? current : Arrays.copyOf(current, length);
  }

  /** Holds {@code value} itself, without copying it; the owned array is kept for later reads. */
  void wrap(byte[] value) {
    current = value;
    length = value.length;
  }

  /**
   * The owned array, grown to at least {@code capacity} bytes keeping its first {@code keep}, and
   * made current with that length. A new array is exactly {@code capacity} long.
   */
  byte[] reserve(int capacity, int keep) {
    if (owned.length < capacity) {
      byte[] grown = new byte[capacity];
      System.arraycopy(owned, 0, grown, 0, keep);
      owned = grown;
    }
    current = owned;
    length = capacity;
    return owned;
  }
}
