package io.github.sparkzarr.spark.write;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Chunks that several tasks each wrote part of, when rows were not shuffled by chunk. Each task
 * stages its part as a whole chunk (fill value, or the old element, where it wrote nothing) and,
 * beside its attempt directory, a mask of the elements it wrote; the job commit merges the parts
 * into one chunk per key, failing on an element two tasks wrote.
 */
final class PartialChunks {
  /** Masks of attempt {@code <attempt>} are staged under {@code <staging>/<attempt>.masks/<key>}. */
  static final String MASKS_SUFFIX = ".masks";
  /** Merged chunks are staged under {@code <staging>/_merged/<key>}. */
  static final String MERGED_DIR = "_merged";

  /** One staged part of a chunk: the attempt that wrote it, and whether it is partial. */
  record Part(String attemptDir, boolean partial) {}

  private final WriteLayout layout;
  private final Configuration conf;
  private final Path staging;

  PartialChunks(WriteLayout layout, Configuration conf, Path staging) {
    this.layout = layout;
    this.conf = conf;
    this.staging = staging;
  }

  /** The store of the masks of one attempt's partial chunks. */
  static HadoopStore masks(String stagingUri, String attemptDir, Configuration conf) throws IOException {
    return new HadoopStore(new Path(stagingUri, attemptDir + MASKS_SUFFIX), conf);
  }

  /**
   * Merges the parts of each key, staging the merged chunks on the driver's threads.
   *
   * @return the staged file of each merged key
   */
  Map<String, Path> merge(Map<String, List<Part>> parts) throws IOException {
    Map<String, Path> out = new LinkedHashMap<>();
    if (parts.isEmpty()) {
      return out;
    }
    HadoopStore merged = new HadoopStore(new Path(staging, MERGED_DIR), conf);
    int threads = Math.max(1, Math.min(parts.size(), Runtime.getRuntime().availableProcessors()));
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (Map.Entry<String, List<Part>> e : parts.entrySet()) {
        running.add(pool.submit(() -> {
          merged.set(e.getKey(), mergeOne(e.getKey(), e.getValue()));
          return null;
        }));
        out.put(e.getKey(), new Path(merged.root(), e.getKey()));
      }
      for (Future<?> f : running) {
        await(f);
      }
    } finally {
      pool.shutdownNow();
    }
    return out;
  }

  private static void await(Future<?> f) throws IOException {
    try {
      f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while merging partial chunks", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new UncheckedIOException(new IOException(cause));
    }
  }

  /** The encoded merge of the parts of one chunk. */
  private byte[] mergeOne(String key, List<Part> parts) throws IOException {
    WriteLayout.Var var = varOf(key);
    ChunkData result = null;
    BitSet union = null;
    for (Part part : parts) {
      ChunkData piece = read(var, key, part);
      BitSet mask = part.partial() ? mask(key, part) : full(piece.elementCount());
      if (result == null) {
        result = piece;
        union = (BitSet) mask.clone();
        continue;
      }
      BitSet both = (BitSet) union.clone();
      both.and(mask);
      if (!both.isEmpty()) {
        throw new IllegalArgumentException("duplicate position: two tasks wrote element "
            + element(both.nextSetBit(0), piece.shape()) + " of chunk " + key + " of "
            + layout.location());
      }
      copy(piece, result, mask);
      union.or(mask);
    }
    return var.array().metadata().codec().encode(result);
  }

  private ChunkData read(WriteLayout.Var var, String key, Part part) throws IOException {
    HadoopStore attempt = new HadoopStore(new Path(staging, part.attemptDir()), conf);
    byte[] stored = attempt.get(key).orElseThrow(() -> new IOException("the staged part of chunk "
        + key + " of " + layout.location() + " from " + part.attemptDir() + " is gone"));
    return new ZarrArray(attempt, var.path(), var.array().metadata()).decodeChunk(key, stored);
  }

  private BitSet mask(String key, Part part) throws IOException {
    byte[] bits = masks(staging.toString(), part.attemptDir(), conf).get(key)
        .orElseThrow(() -> new IOException("the mask of partial chunk " + key + " of "
            + layout.location() + " from " + part.attemptDir() + " is gone"));
    return BitSet.valueOf(bits);
  }

  private static BitSet full(int n) {
    BitSet all = new BitSet(n);
    all.set(0, n);
    return all;
  }

  /** Copies the elements of {@code from} that {@code mask} marks into {@code to}, run by run. */
  private static void copy(ChunkData from, ChunkData to, BitSet mask) {
    for (int start = mask.nextSetBit(0); start >= 0; start = mask.nextSetBit(start)) {
      int end = mask.nextClearBit(start);
      if (to.holdsObjects()) {
        System.arraycopy(from.objects(), start, to.objects(), start, end - start);
      } else {
        int size = to.type().size();
        System.arraycopy(from.bytes(), start * size, to.bytes(), start * size, (end - start) * size);
      }
      start = end;
    }
  }

  private WriteLayout.Var varOf(String key) {
    for (WriteLayout.Var v : layout.vars()) {
      if (key.startsWith(v.path() + "/")) {
        return v;
      }
    }
    throw new IllegalStateException("staged key " + key + " of " + layout.location()
        + " belongs to no array of the write");
  }

  /** Element {@code index} of a chunk of {@code shape}, as its position within the chunk. */
  private static String element(int index, int[] shape) {
    int[] at = new int[shape.length];
    for (int d = shape.length - 1; d >= 0; d--) {
      at[d] = index % shape[d];
      index /= shape[d];
    }
    return java.util.Arrays.toString(at) + " (within the chunk)";
  }
}
