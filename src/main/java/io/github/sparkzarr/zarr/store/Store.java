package io.github.sparkzarr.zarr.store;

import io.github.sparkzarr.zarr.ZarrException;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * A key-value store holding a Zarr hierarchy. Keys are '/'-separated, relative, and validated by
 * {@link StoreKeys#validate}.
 *
 * <p>"Absent" and "failed" are different answers: a missing key gives {@code Optional.empty()}, an
 * I/O failure throws. Callers must never turn an exception into a missing chunk.
 */
public interface Store extends Closeable {

  /** Where the store lives, for messages. Never contains credentials. */
  String location();

  /** The whole value at {@code key}, or empty if there is none. */
  Optional<byte[]> get(String key) throws IOException;

  /**
   * The whole value at {@code key}, or empty if there is none; a {@link ZarrException} naming the
   * key when it holds more than {@code maxBytes}. Hostile stores can hold huge values, so stores
   * that stream override this to stop reading after {@code maxBytes + 1} bytes.
   */
  default Optional<byte[]> get(String key, int maxBytes) throws IOException {
    Optional<byte[]> value = get(key);
    if (value.isPresent() && value.get().length > maxBytes) {
      throw tooLarge(location(), key, maxBytes);
    }
    return value;
  }

  /**
   * Reads the value at {@code key} into {@code into}, reusing its array where the store can, under
   * the same limit as {@link #get(String, int)}; false, leaving {@code into} as it was, when there
   * is no such key. Stores that stream override this to read straight into the reused array.
   */
  default boolean read(String key, int maxBytes, ReadBuffer into) throws IOException {
    Optional<byte[]> value = get(key, maxBytes);
    value.ifPresent(into::wrap);
    return value.isPresent();
  }

  /** The error for a value over a size limit. */
  static ZarrException tooLarge(String location, String key, int maxBytes) {
    return new ZarrException(location, key, "the value is larger than the limit of " + maxBytes
        + " bytes for this kind of value; refusing to read it");
  }

  /**
   * {@code length} bytes from {@code offset} of the value at {@code key}, or empty if there is no
   * such key. A range reaching past the end of the value is an error.
   */
  Optional<byte[]> getRange(String key, long offset, int length) throws IOException;

  /** The size in bytes of the value at {@code key}, or empty if there is none. */
  Optional<Long> size(String key) throws IOException;

  default boolean exists(String key) throws IOException {
    return size(key).isPresent();
  }

  /** Every key below {@code prefix} (a "directory" such as "a/b/" or "" for all), recursively. */
  List<String> list(String prefix) throws IOException;

  /**
   * The immediate children of the directory {@code prefix} ("" or ending in '/'): their names,
   * without the prefix; children that are themselves directories end in '/'.
   */
  List<String> listDir(String prefix) throws IOException;

  /** Stores {@code value} at {@code key}, replacing any previous value. */
  void set(String key, byte[] value) throws IOException;

  /** Removes {@code key}; removing an absent key is not an error. */
  void delete(String key) throws IOException;

  /** Removes every key below the directory {@code prefix}. */
  void deletePrefix(String prefix) throws IOException;

  @Override
  default void close() throws IOException {}
}
