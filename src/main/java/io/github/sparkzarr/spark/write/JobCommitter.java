package io.github.sparkzarr.spark.write;

import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job commit, on the driver. It stages everything new before touching the target, then
 * publishes with single-file renames, remembered by a {@link Publisher} so a failure undoes them:
 *
 * <ol>
 *   <li>stage: tasks have staged their chunks under {@code <staging>/<attempt>/}; coordinate
 *       chunks and every metadata document (arrays, group, consolidated over the new state) are
 *       written by {@link NewStateStager} through a {@link StagedStore} into
 *       {@code <staging>/_new/};
 *   <li>move aside, into {@code <staging>/_old/}: the old consolidated metadata, then the old
 *       metadata documents the write replaces or removes, then the old chunks it replaces or (in
 *       an overwrite) removes — readers now find these arrays absent, never old metadata over new
 *       chunks;
 *   <li>publish: the new chunks, then the new metadata, consolidated last;
 *   <li>delete the staging directory (the old keys with it) and directories emptied.
 * </ol>
 *
 * Any failure in steps 1-3, or a later {@link #abort}, moves everything back: the target is as it
 * was, byte for byte (or absent, if the write created it). A file {@code <staging>/_journal}
 * lists the planned moves, so a driver killed mid-publish can be recovered by hand
 * (docs/reliability.md).
 */
final class JobCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(JobCommitter.class);
  static final String NEW_DIR = "_new";
  static final String OLD_DIR = "_old";
  static final String JOURNAL = "_journal";

  private final WritePlan plan;
  private final WriteLayout layout;
  private final Configuration conf;
  private final HadoopStore store;
  private final FileSystem fs;
  private final Path staging;
  private final Publisher publisher;
  private final List<String> movedAside = new ArrayList<>();
  private boolean committed;

  JobCommitter(WritePlan plan, Configuration conf) throws IOException {
    this.plan = plan;
    this.layout = plan.layout();
    this.conf = conf;
    this.store = new HadoopStore(layout.storeUri(), conf);
    this.fs = store.fileSystem();
    this.staging = new Path(layout.stagingUri());
    this.publisher = new Publisher(fs, store.root(), new Path(staging, OLD_DIR), layout.location());
  }

  void commit(List<ZarrCommitMessage> messages) throws IOException {
    try {
      Map<String, Path> chunks = stagedChunks(messages);
      String dir = StoreKeys.dir(layout.groupPath());
      Set<String> old = new HashSet<>();
      for (String key : store.list(dir)) {
        if (!StagedStore.isStaging(key)) {
          old.add(key);
        }
      }
      StagedStore next = new StagedStore(store, new HadoopStore(new Path(staging, NEW_DIR), conf));
      new NewStateStager(plan).stage(next, messages, old);
      publish(chunks, next, old, dir);
      committed = true;
    } catch (IOException | RuntimeException | Error e) {
      try {
        rollback();
      } catch (IOException | RuntimeException r) {
        e.addSuppressed(r);
      }
      throw e;
    }
    cleanUp();
  }

  /**
   * The staged file of each chunk key. A key staged by two committed attempts is an error when
   * Spark shuffled rows by chunk; otherwise their parts are merged ({@link PartialChunks}).
   */
  private Map<String, Path> stagedChunks(List<ZarrCommitMessage> messages) throws IOException {
    Map<String, List<PartialChunks.Part>> parts = new LinkedHashMap<>();
    for (ZarrCommitMessage m : messages) {
      Set<String> partial = new HashSet<>(m.partial());
      for (String key : m.keys()) {
        parts.computeIfAbsent(key, k -> new ArrayList<>())
            .add(new PartialChunks.Part(m.attemptDir(), partial.contains(key)));
      }
    }
    Map<String, Path> out = new HashMap<>();
    Map<String, List<PartialChunks.Part>> split = new LinkedHashMap<>();
    for (Map.Entry<String, List<PartialChunks.Part>> e : parts.entrySet()) {
      List<PartialChunks.Part> p = e.getValue();
      if (p.size() == 1) {
        out.put(e.getKey(), new Path(new Path(staging, p.get(0).attemptDir()), e.getKey()));
      } else if (layout.grouping().shuffled()) {
        throw new IllegalStateException("chunk " + e.getKey() + " of " + layout.location()
            + " was written by two tasks (" + p.get(0).attemptDir() + " and " + p.get(1).attemptDir()
            + "); the input was not clustered by chunk");
      } else {
        split.put(e.getKey(), p);
      }
    }
    if (!split.isEmpty()) {
      LOG.info("Merging {} chunks of {} that several tasks wrote parts of", split.size(), layout.location());
    }
    out.putAll(new PartialChunks(layout, conf, staging).merge(split));
    return out;
  }

  /**
   * Moves aside every old key the new state replaces or drops, then publishes the new keys; writes
   * the plan to the journal first.
   */
  private void publish(Map<String, Path> chunks, StagedStore next, Set<String> old, String dir)
      throws IOException {
    Map<String, Path> incoming = new TreeMap<>(KeyKind.PUBLISH_ORDER);
    incoming.putAll(chunks);
    for (String key : next.written()) {
      if (incoming.put(key, next.stagedPath(key)) != null) {
        throw new IllegalStateException("key " + key + " of " + layout.location()
            + " is both a staged chunk and a coordinate chunk or metadata document");
      }
    }
    TreeSet<String> outgoing = new TreeSet<>(KeyKind.MOVE_ASIDE_ORDER);
    for (String key : next.deleted()) {
      if (exists(key, old, dir)) {
        outgoing.add(key);
      }
    }
    for (String key : incoming.keySet()) {
      if (exists(key, old, dir)) {
        outgoing.add(key);
      }
    }
    writeJournal(outgoing, incoming);
    for (String key : outgoing) {
      publisher.moveAside(key);
      movedAside.add(key);
    }
    for (Map.Entry<String, Path> e : incoming.entrySet()) {
      publisher.publish(e.getKey(), e.getValue());
    }
  }

  /** Whether the target holds {@code key} now; keys outside the group are asked one by one. */
  private boolean exists(String key, Set<String> old, String dir) throws IOException {
    return key.startsWith(dir) ? old.contains(key) : store.exists(key);
  }

  /**
   * One line per planned move, in order: "aside\t<key>" (to {@code _old/<key>}) and
   * "publish\t<key>\t<staged file, relative to the staging directory>". Keys hold no control
   * characters (StoreKeys), so tabs and newlines separate safely.
   */
  private void writeJournal(Set<String> outgoing, Map<String, Path> incoming) throws IOException {
    StringBuilder b = new StringBuilder();
    for (String key : outgoing) {
      b.append("aside\t").append(key).append('\n');
    }
    String stagingPath = staging.toUri().getPath() + "/";
    for (Map.Entry<String, Path> e : incoming.entrySet()) {
      String from = e.getValue().toUri().getPath();
      b.append("publish\t").append(e.getKey()).append('\t')
          .append(from.startsWith(stagingPath) ? from.substring(stagingPath.length()) : from).append('\n');
    }
    HadoopStore.writeFile(fs, new Path(staging, JOURNAL), b.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * After a failed job (Spark calls this when a task or the commit failed): moves back whatever
   * the commit moved, then deletes the staging directory. Nothing to undo once committed. If the
   * target cannot be restored, the staging directory is kept: it holds the old keys.
   */
  void abort() throws IOException {
    if (!committed) {
      rollback();
    }
  }

  private void rollback() throws IOException {
    try {
      publisher.undo();
    } catch (IOException e) {
      throw new IOException("cannot restore " + layout.location() + " after the failed write: "
          + e.getMessage() + "; its old files are kept in the hidden directory "
          + staging.getName() + " beside it (" + OLD_DIR + "/, and " + JOURNAL
          + " lists the moves; see docs/reliability.md)", e);
    }
    fs.delete(staging, true);
  }

  /**
   * After the commit: deletes the staging directory (the moved-aside old keys with it) and the
   * directories of the target that moving old keys aside left empty. The new state is complete,
   * so a failure here is only logged: undoing it would be wrong.
   */
  private void cleanUp() {
    try {
      fs.delete(staging, true);
      removeEmptiedDirs();
    } catch (IOException | RuntimeException e) {
      LOG.warn("The write to {} is committed, but cleaning up failed: {}; the hidden directory {} "
          + "beside it can be deleted", layout.location(), e.getMessage(), staging.getName());
    }
  }

  /** Directories below the group that only held keys moved aside: deepest first, if empty. */
  private void removeEmptiedDirs() throws IOException {
    String dir = StoreKeys.dir(layout.groupPath());
    TreeSet<String> dirs = new TreeSet<>(Comparator.comparingInt(String::length).reversed()
        .thenComparing(Comparator.naturalOrder()));
    for (String key : movedAside) {
      for (int slash = key.lastIndexOf('/'); slash > dir.length(); slash = key.lastIndexOf('/', slash - 1)) {
        if (!key.startsWith(dir)) {
          break;
        }
        dirs.add(key.substring(0, slash));
      }
    }
    for (String d : dirs) {
      Path p = new Path(store.root(), d);
      FileStatus[] children;
      try {
        children = fs.listStatus(p);
      } catch (java.io.FileNotFoundException gone) {
        continue;
      }
      if (children.length == 0) {
        fs.delete(p, false);
      }
    }
  }
}
