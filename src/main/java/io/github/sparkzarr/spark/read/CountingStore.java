package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.store.Store;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** A store that counts the chunks it serves, for the scan's metrics. Reads only. */
final class CountingStore implements Store {
  private final Store store;
  long present;
  long missing;
  long bytes;
  long fetchNanos;

  CountingStore(Store store) {
    this.store = store;
  }

  @Override
  public String location() {
    return store.location();
  }

  @Override
  public Optional<byte[]> get(String key) throws IOException {
    long t0 = System.nanoTime();
    Optional<byte[]> v = store.get(key);
    fetchNanos += System.nanoTime() - t0;
    if (v.isPresent()) {
      present++;
      bytes += v.get().length;
    } else {
      missing++;
    }
    return v;
  }

  @Override
  public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
    Optional<byte[]> v = store.getRange(key, offset, length);
    v.ifPresent(b -> bytes += b.length);
    return v;
  }

  @Override
  public Optional<Long> size(String key) throws IOException {
    return store.size(key);
  }

  @Override
  public List<String> list(String prefix) throws IOException {
    return store.list(prefix);
  }

  @Override
  public List<String> listDir(String prefix) throws IOException {
    return store.listDir(prefix);
  }

  @Override
  public void set(String key, byte[] value) {
    throw new UnsupportedOperationException("the read path does not write");
  }

  @Override
  public void delete(String key) {
    throw new UnsupportedOperationException("the read path does not write");
  }

  @Override
  public void deletePrefix(String prefix) {
    throw new UnsupportedOperationException("the read path does not write");
  }

  @Override
  public void close() throws IOException {
    store.close();
  }
}
