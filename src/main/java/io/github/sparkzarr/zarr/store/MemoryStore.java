package io.github.sparkzarr.zarr.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;

/** An in-memory store, for tests and small temporary hierarchies. Thread-safe. */
public final class MemoryStore implements Store {
  private final Map<String, byte[]> entries = new ConcurrentSkipListMap<>();
  private final String name;

  public MemoryStore() {
    this("memory");
  }

  public MemoryStore(String name) {
    this.name = name;
  }

  @Override
  public String location() {
    return name;
  }

  @Override
  public Optional<byte[]> get(String key) {
    byte[] v = entries.get(StoreKeys.validate(key));
    return v == null ? Optional.empty() : Optional.of(v.clone());
  }

  @Override
  public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
    byte[] v = entries.get(StoreKeys.validate(key));
    if (v == null) {
      return Optional.empty();
    }
    if (offset < 0 || length < 0 || offset + length > v.length) {
      throw new IOException(
          "range " + offset + "+" + length + " is outside the " + v.length + " bytes of " + key);
    }
    return Optional.of(Arrays.copyOfRange(v, (int) offset, (int) offset + length));
  }

  @Override
  public Optional<Long> size(String key) {
    byte[] v = entries.get(StoreKeys.validate(key));
    return v == null ? Optional.empty() : Optional.of((long) v.length);
  }

  @Override
  public List<String> list(String prefix) {
    String p = StoreKeys.validate(prefix);
    List<String> out = new ArrayList<>();
    for (String k : entries.keySet()) {
      if (k.startsWith(p)) {
        out.add(k);
      }
    }
    return out;
  }

  @Override
  public List<String> listDir(String prefix) {
    String p = StoreKeys.validate(prefix);
    TreeSet<String> children = new TreeSet<>();
    for (String k : entries.keySet()) {
      if (k.startsWith(p)) {
        String rest = k.substring(p.length());
        int slash = rest.indexOf('/');
        children.add(slash < 0 ? rest : rest.substring(0, slash + 1));
      }
    }
    return new ArrayList<>(children);
  }

  @Override
  public void set(String key, byte[] value) {
    entries.put(StoreKeys.validate(key), value.clone());
  }

  @Override
  public void delete(String key) {
    entries.remove(StoreKeys.validate(key));
  }

  @Override
  public void deletePrefix(String prefix) {
    entries.keySet().removeIf(k -> k.startsWith(StoreKeys.validate(prefix)));
  }
}
