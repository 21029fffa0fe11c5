package io.github.sparkzarr.zarr.store;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * A store that counts what is read through it: value bytes fetched (whole values and ranges) and
 * read requests. Wrap a store in it to measure I/O, e.g. for a Spark custom metric.
 */
public final class CountingStore implements Store {
  private final Store delegate;
  private final LongAdder bytesRead = new LongAdder();
  private final LongAdder requests = new LongAdder();

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

  public void reset() {
    bytesRead.reset();
    requests.reset();
  }

  private Optional<byte[]> count(Optional<byte[]> value) {
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
    return count(delegate.get(key));
  }

  @Override
  public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
    return count(delegate.getRange(key, offset, length));
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
