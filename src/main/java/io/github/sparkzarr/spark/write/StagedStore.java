package io.github.sparkzarr.spark.write;

import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.store.Store;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.fs.Path;

/**
 * The target as the commit will leave it, built without changing the target: keys set here are
 * written to a staging directory, keys deleted here are only marked, and reads see both over the
 * target. The job commit writes coordinate chunks and metadata documents through it, so
 * consolidated metadata describes the new state while readers of the target still see the old.
 */
final class StagedStore implements Store {
  private final HadoopStore target;
  private final HadoopStore staged;
  private final Set<String> written = new TreeSet<>();
  private final Set<String> deleted = new TreeSet<>();

  StagedStore(HadoopStore target, HadoopStore staged) {
    this.target = target;
    this.staged = staged;
  }

  /** Keys written here: they are in the staging directory, at {@link #stagedPath}. */
  Set<String> written() {
    return Collections.unmodifiableSet(written);
  }

  /** Keys deleted here and not written again; some may not exist in the target. */
  Set<String> deleted() {
    return Collections.unmodifiableSet(deleted);
  }

  Path stagedPath(String key) {
    return new Path(staged.root(), StoreKeys.validate(key));
  }

  /** Whether {@code key} lies in a write's staging directory (ours or a concurrent job's). */
  static boolean isStaging(String key) {
    for (String segment : key.split("/")) {
      if (segment.contains(WritePlanner.STAGING_MARKER)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String location() {
    return target.location();
  }

  /** Where {@code key} is read from: the staged copy, nowhere (deleted), or the target. */
  private Optional<Store> source(String key) {
    if (written.contains(key)) {
      return Optional.of(staged);
    }
    return deleted.contains(key) ? Optional.empty() : Optional.of(target);
  }

  @Override
  public Optional<byte[]> get(String key) throws IOException {
    Optional<Store> s = source(key);
    return s.isEmpty() ? Optional.empty() : s.get().get(key);
  }

  @Override
  public Optional<byte[]> get(String key, int maxBytes) throws IOException {
    Optional<Store> s = source(key);
    return s.isEmpty() ? Optional.empty() : s.get().get(key, maxBytes);
  }

  @Override
  public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
    Optional<Store> s = source(key);
    return s.isEmpty() ? Optional.empty() : s.get().getRange(key, offset, length);
  }

  @Override
  public Optional<Long> size(String key) throws IOException {
    Optional<Store> s = source(key);
    return s.isEmpty() ? Optional.empty() : s.get().size(key);
  }

  @Override
  public List<String> list(String prefix) throws IOException {
    String dir = StoreKeys.validate(prefix);
    TreeSet<String> out = new TreeSet<>();
    for (String key : target.list(dir)) {
      if (!deleted.contains(key) && !isStaging(key)) {
        out.add(key);
      }
    }
    for (String key : written) {
      if (key.startsWith(dir)) {
        out.add(key);
      }
    }
    return new ArrayList<>(out);
  }

  @Override
  public List<String> listDir(String prefix) throws IOException {
    String dir = StoreKeys.validate(prefix);
    TreeSet<String> out = new TreeSet<>();
    for (String key : list(dir)) {
      String rest = key.substring(dir.length());
      int slash = rest.indexOf('/');
      out.add(slash < 0 ? rest : rest.substring(0, slash + 1));
    }
    return new ArrayList<>(out);
  }

  @Override
  public void set(String key, byte[] value) throws IOException {
    staged.set(key, value);
    written.add(key);
    deleted.remove(key);
  }

  @Override
  public void delete(String key) throws IOException {
    StoreKeys.validate(key);
    if (written.remove(key)) {
      staged.delete(key);
    }
    deleted.add(key);
  }

  @Override
  public void deletePrefix(String prefix) throws IOException {
    for (String key : list(prefix)) {
      delete(key);
    }
  }
}
