package io.github.sparkzarr.spark.write;

import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Moves single files into and out of the target, one rename each, and remembers every move so a
 * failed publish can be undone: a rename of one file is atomic on local file systems and HDFS
 * (a copy of one object on S3A), so a reader finds each key whole or not at all.
 *
 * <p>Old keys are moved aside to {@code <staging>/_old/<key>}, never deleted, until the commit is
 * over; {@link #undo} moves everything back, newest first.
 */
final class Publisher {
  /** One completed rename. */
  private record Move(String key, Path from, Path to) {}

  private final FileSystem fs;
  private final Path targetRoot;
  private final Path backupRoot;
  private final String location;
  private final List<Move> done = new ArrayList<>();
  /** The rename being attempted: if it failed half-way, {@link #undo} checks whether it happened. */
  private Move inFlight;
  private final Set<Path> knownDirs = new HashSet<>();
  /** The topmost directory each publish had to create in the target, removed again by undo. */
  private final List<Path> createdDirs = new ArrayList<>();

  /**
   * @param backupRoot where old keys are moved aside (inside the staging directory)
   * @param location the target, safe to print
   */
  Publisher(FileSystem fs, Path targetRoot, Path backupRoot, String location) {
    this.fs = fs;
    this.targetRoot = targetRoot;
    this.backupRoot = backupRoot;
    this.location = location;
  }

  Path targetPath(String key) {
    return new Path(targetRoot, key);
  }

  Path backupPath(String key) {
    return new Path(backupRoot, key);
  }

  /** Moves the target's {@code key} aside into the backup directory. */
  void moveAside(String key) throws IOException {
    move(new Move(key, targetPath(key), backupPath(key)), "move the old " + key + " of " + location
        + " aside");
  }

  /** Moves the staged file {@code from} to the target's {@code key}. */
  void publish(String key, Path from) throws IOException {
    move(new Move(key, from, targetPath(key)), "publish " + key + " into " + location);
  }

  private void move(Move m, String what) throws IOException {
    ensureParent(m.to());
    inFlight = m;
    if (!fs.rename(m.from(), m.to())) {
      throw new IOException("cannot " + what + ": the rename failed (does the file exist?)");
    }
    done.add(m);
    inFlight = null;
  }

  /** Creates the destination's directory when missing, remembering what it created. */
  private void ensureParent(Path to) throws IOException {
    Path parent = to.getParent();
    if (knownDirs.contains(parent)) {
      return;
    }
    Path top = null;
    for (Path p = parent; p != null && !knownDirs.contains(p) && !fs.exists(p); p = p.getParent()) {
      top = p;
    }
    if (top != null) {
      HadoopStore.makeDirectories(fs, parent);
      if (isInTarget(top)) {
        createdDirs.add(top);
      }
    }
    knownDirs.add(parent);
  }

  private boolean isInTarget(Path p) {
    String root = targetRoot.toUri().getPath();
    String path = p.toUri().getPath();
    return path.equals(root) || path.startsWith(root.endsWith("/") ? root : root + "/");
  }

  /**
   * Moves everything back, newest first: new metadata leaves before new chunks, old chunks return
   * before old metadata, consolidated metadata last. Then removes the directories publishing
   * created, if empty. Safe to call again after a failure: it resumes where it stopped.
   */
  void undo() throws IOException {
    if (inFlight != null) {
      // A rename that failed may still have happened (an object store's copy without the delete).
      if (!fs.exists(inFlight.from()) && fs.exists(inFlight.to())) {
        done.add(inFlight);
      }
      inFlight = null;
    }
    for (int i = done.size() - 1; i >= 0; i--) {
      Move m = done.get(i);
      HadoopStore.makeDirectories(fs, m.from().getParent());
      if (!fs.rename(m.to(), m.from())) {
        throw new IOException("cannot move " + m.key() + " of " + location + " back: the rename failed");
      }
      done.remove(i);
    }
    for (int i = createdDirs.size() - 1; i >= 0; i--) {
      Path dir = createdDirs.get(i);
      if (fs.exists(dir) && !fs.listFiles(dir, true).hasNext()) {
        fs.delete(dir, true);
      }
      createdDirs.remove(i);
    }
    knownDirs.clear();
  }
}
