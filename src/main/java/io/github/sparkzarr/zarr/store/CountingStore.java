package io.github.sparkzarr.zarr.store;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * A store that counts what is read through it: value bytes fetched (whole values and ranges),
 * read requests, whole-value reads that found a value or nothing, and time spent fetching. Wrap a
 * store in it to measure I/O, e.g. for Spark custom metrics.
 */
public final class CountingStore implements Store {
  private final Store delegate;
  private final LongAdder bytesRead = new LongAdder();
  private final LongAdder requests = new LongAdder();
  private final LongAdder found = new LongAdder();
  private final LongAdder missing = new LongAdder();
  private final LongAdder fetchNanos = new LongAdder();

  public CountingStore(Store delegate) {
    this.delegate = delegate;
  }

  /** Bytes of values fetched by get and getRange so far. */
  public long bytesRead() {
    return bytesRead.sum();
  }

  /** get, getRange and size calls so far. */
  public long requests() {
    return requests.sum();
  }

  /** get calls that found a value. */
  public long valuesFound() {
    return found.sum();
  }

  /** get calls that found no value (missing chunks, absent metadata). */
  public long valuesMissing() {
    return missing.sum();
  }

  /** Nanoseconds spent in get and getRange of the wrapped store. */
  public long fetchNanos() {
    return fetchNanos.sum();
  }

  public void reset() {
    bytesRead.reset();
    requests.reset();
    found.reset();
    missing.reset();
    fetchNanos.reset();
  }

  private Optional<byte[]> count(Optional<byte[]> value, long startNanos) {
    fetchNanos.add(System.nanoTime() - startNanos);
    requests.increment();
    value.ifPresent(v -> bytesRead.add(v.length));
    return value;
  }

  @Override
  public String location() {
    return delegate.location();
  }

  @Override
  public Optional<byte[]> get(String key) throws IOException {
    long start = System.nanoTime();
    Optional<byte[]> value = count(delegate.get(key), start);
    (value.isPresent() ? found : missing).increment();
    return value;
  }

  @Override
  public Optional<byte[]> get(String key, int maxBytes) throws IOException {
    long start = System.nanoTime();
    Optional<byte[]> value = count(delegate.get(key, maxBytes), start);
    (value.isPresent() ? found : missing).increment();
    return value;
  }

  @Override
  public boolean read(String key, int maxBytes, ReadBuffer into) throws IOException {
    long start = System.nanoTime();
    boolean present = delegate.read(key, maxBytes, into);
    fetchNanos.add(System.nanoTime() - start);
    requests.increment();
    if (present) {
      bytesRead.add(into.length());
    }
    (present ? found : missing).increment();
    return present;
  }

  @Override
  public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
    long start = System.nanoTime();
    return count(delegate.getRange(key, offset, length), start);
  }

  @Override
  public Optional<Long> size(String key) throws IOException {
    requests.increment();
    return delegate.size(key);
  }

  @Override
  public List<String> list(String prefix) throws IOException {
    return delegate.list(prefix);
  }

  @Override
  public List<String> listDir(String prefix) throws IOException {
    return delegate.listDir(prefix);
  }

  @Override
  public void set(String key, byte[] value) throws IOException {
    delegate.set(key, value);
  }

  @Override
  public void delete(String key) throws IOException {
    delegate.delete(key);
  }

  @Override
  public void deletePrefix(String prefix) throws IOException {
    delegate.deletePrefix(prefix);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
