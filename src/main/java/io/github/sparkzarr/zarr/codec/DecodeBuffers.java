package io.github.sparkzarr.zarr.codec;

import io.github.sparkzarr.zarr.store.ReadBuffer;
import java.lang.ref.SoftReference;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scratch buffers a caller keeps across chunks (one per task), so that reading and decoding
 * allocates nothing per chunk. Not thread-safe.
 *
 * <p>Tasks {@link #borrow} them and {@link #release} them when done, so the next task on the
 * executor reuses them. Why: a chunk of a few MiB or more is a humongous allocation in G1; with a
 * new set per task, a scan of 16 MiB chunks spent 18% of its CPU time in G1's concurrent marking
 * and collections. Idle sets are held through soft references, which the collector clears before
 * it would run out of memory; there are never more of them than were in use at once.
 */
public final class DecodeBuffers {
  private static final ArrayDeque<SoftReference<DecodeBuffers>> IDLE = new ArrayDeque<>();
  private static final AtomicLong CREATED = new AtomicLong();

  private final byte[][] buffers = new byte[11][];
  private final ReadBuffer stored = new ReadBuffer();
  private boolean lent;

  /** A set for one task: an idle one left by an earlier task, or a new one. */
  public static DecodeBuffers borrow() {
    DecodeBuffers b = null;
    synchronized (IDLE) {
      while (b == null && !IDLE.isEmpty()) {
        b = IDLE.pop().get();
      }
    }
    if (b == null) {
      b = new DecodeBuffers();
      CREATED.incrementAndGet();
    }
    b.lent = true;
    return b;
  }

  /**
   * Gives a borrowed set back for later tasks; the caller must not use it, nor any array it
   * handed out, afterwards. Once only: a second call, or a call for a set not borrowed, does nothing.
   */
  public void release() {
    if (!lent) {
      return;
    }
    lent = false;
    synchronized (IDLE) {
      IDLE.push(new SoftReference<>(this));
    }
  }

  /** How many sets {@link #borrow} has made in this JVM: reused sets are not counted. */
  public static long created() {
    return CREATED.get();
  }

  /** Where a chunk's stored bytes are read. */
  public ReadBuffer stored() {
    return stored;
  }

  /**
   * Scratch buffer {@code which} of at least {@code size} bytes; contents undefined. 0 and 1 are
   * for decoding a chunk (see {@link DecodesInto}), 2 for assembling a whole shard, 3 for a
   * decoded block's bytes swapped to little-endian, 4 for a chunk's bytes before its axes are
   * permuted, 5 for a chunk decoded by its filters ({@link FilterRuns}), 6 and 7 for their runs,
   * 8 for float16 elements widened to float32 for aggregates, 9 for the elements a filter kept,
   * 10 for a box of a chunk copied out of it.
   */
  public byte[] get(int which, int size) {
    byte[] b = buffers[which];
    if (b == null || b.length < size) {
      b = new byte[size];
      buffers[which] = b;
    }
    return b;
  }
}
