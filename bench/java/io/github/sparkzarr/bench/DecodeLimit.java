package io.github.sparkzarr.bench;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.codec.BlockSink;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.metadata.ArrayDocuments;
import io.github.sparkzarr.zarr.store.ReadBuffer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The decode limit of an array: one thread decoding every stored chunk, in passes (the first warms
 * the JIT and the page cache; the median of the others is kept, since the machine's speed moves),
 * into buffers reused from chunk to chunk, the fastest way the library decodes to memory (blosc
 * blocks un-shuffled into scratch, zstd into one chunk buffer). Only decoding is timed: each
 * chunk's stored bytes are read before the clock starts. Wall time and the thread's CPU time are
 * both kept: on a shared machine only the latter is the codec's limit. Each pass then decodes the
 * chunks again with their files read on the clock too, as a scan must (the "read and decode"
 * limit, a second reading of the "a loop that decodes the same chunks").
 */
final class DecodeLimit {
  /**
   * One pass's median figures.
   *
   * @param seconds wall time of a pass
   * @param cpuSeconds the thread's CPU time of a pass
   * @param decodedBytes the decoded bytes of the chunks a pass decodes (whole chunks, edge ones included)
   * @param chunks the chunks decoded per pass (missing ones are skipped, as a scan skips them)
   * @param readSeconds wall time of a pass that also reads each chunk's file (from the page
   *     cache, into a reused buffer, as a scan reads it): the limit of a scan, which must read them
   * @param readCpuSeconds the thread's CPU time of such a pass
   */
  record Result(double seconds, double cpuSeconds, long decodedBytes, long chunks,
      double readSeconds, double readCpuSeconds) {
    double mibPerSecond() {
      return decodedBytes / seconds / (1 << 20);
    }

    double mibPerCpuSecond() {
      return decodedBytes / cpuSeconds / (1 << 20);
    }
  }

  private DecodeLimit() {}

  /** Decodes every stored chunk of {@code array} {@code timedPasses + 1} times. */
  static Result measure(ZarrArray array, int timedPasses) throws IOException {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    List<Double> wall = new ArrayList<>();
    List<Double> cpu = new ArrayList<>();
    List<Double> readWall = new ArrayList<>();
    List<Double> readCpu = new ArrayList<>();
    ReadBuffer read = new ReadBuffer();
    DecodeBuffers buffers = new DecodeBuffers();
    long[] checksum = new long[1];
    // Reads the last byte of every piece, which keeps the JIT from skipping work.
    BlockSink lastBytes = (buffer, offset, start, length) -> checksum[0] += buffer[offset + length - 1];
    long chunkBytes = (long) array.metadata().chunkElementCount() * array.memoryType().size();
    long chunks = 0;
    for (int pass = 0; pass <= timedPasses; pass++) {
      long nanos = 0;
      long cpuNanos = 0;
      chunks = 0;
      for (long[] c : allChunks(array)) {
        String key = array.chunkKey(c);
        Optional<byte[]> stored = array.store().get(key);
        if (stored.isEmpty()) {
          continue;
        }
        byte[] bytes = stored.get();
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        array.decodeChunkBlocks(key, bytes, bytes.length, buffers, lastBytes);
        nanos += System.nanoTime() - t0;
        cpuNanos += threads.getCurrentThreadCpuTime() - c0;
        chunks++;
      }
      // The same chunks again, each file read on the clock too.
      long c0 = threads.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      for (long[] c : allChunks(array)) {
        String key = array.chunkKey(c);
        if (array.store().read(key, Integer.MAX_VALUE - 8, read)) {
          array.decodeChunkBlocks(key, read.array(), read.length(), buffers, lastBytes);
        }
      }
      if (pass > 0) {
        wall.add(nanos / 1e9);
        cpu.add(cpuNanos / 1e9);
        readWall.add((System.nanoTime() - t0) / 1e9);
        readCpu.add((threads.getCurrentThreadCpuTime() - c0) / 1e9);
      }
    }
    if (checksum[0] == 42) {
      Suite.log("(checksum " + checksum[0] + ")");
    }
    return new Result(Suite.median(wall), Suite.median(cpu), chunks * chunkBytes, chunks,
        Suite.median(readWall), Suite.median(readCpu));
  }

  /**
   * Why a decode limit means nothing for this array, or null if it does: uncompressed chunks are
   * read in place (there is no decoding to compare a scan with), and a shard is decoded inner
   * chunk by inner chunk as it is read, which this loop does not do.
   */
  static String notApplicable(ZarrArray array) {
    if (array.readsPartialChunks()) {
      return "sharded: its inner chunks are decoded as they are read";
    }
    var doc = ArrayDocuments.metadata(array.metadata());
    boolean plain = switch (array.metadata().zarrFormat()) {
      case 3 -> doc.get("codecs").size() == 1 && doc.get("codecs").get(0).get("name").asText().equals("bytes");
      case 2 -> isNull(doc.get("compressor")) && isNull(doc.get("filters"));
      default -> isNull(doc.get("compression")) || doc.get("compression").asText().equals("none");
    };
    if (plain) {
      return "uncompressed: chunks are read in place";
    }
    return bloscCodec(array, doc) && firstChunkMemcpyed(array)
        ? "blosc stored the chunks uncompressed (memcpyed, as for noise): they are read in place" : null;
  }

  /** Whether blosc is the array's compressor (v2) or one of its codecs (v3). */
  private static boolean bloscCodec(ZarrArray array, com.fasterxml.jackson.databind.JsonNode doc) {
    return switch (array.metadata().zarrFormat()) {
      case 2 -> !isNull(doc.get("compressor")) && doc.get("compressor").path("id").asText().equals("blosc");
      case 3 -> doc.get("codecs").toString().contains("\"name\":\"blosc\"");
      default -> false;
    };
  }

  /**
   * Whether the first stored chunk is a blosc frame whose flags say it holds the bytes as they are
   * (blosc does that when they do not compress): decoding it costs nothing, so a limit means nothing.
   */
  private static boolean firstChunkMemcpyed(ZarrArray array) {
    try {
      for (long[] c : allChunks(array)) {
        Optional<byte[]> stored = array.store().get(array.chunkKey(c));
        if (stored.isPresent()) {
          byte[] frame = stored.get();
          return frame.length > 2 && (frame[2] & 0x02) != 0;
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return false;
  }

  private static boolean isNull(com.fasterxml.jackson.databind.JsonNode node) {
    return node == null || node.isNull();
  }

  /** Every chunk's grid coordinates, in C order. */
  static List<long[]> allChunks(ZarrArray array) {
    long[] grid = array.metadata().gridShape();
    List<long[]> out = new ArrayList<>();
    long[] c = new long[grid.length];
    for (long g : grid) {
      if (g == 0) {
        return out;
      }
    }
    while (true) {
      out.add(c.clone());
      int d = grid.length - 1;
      while (d >= 0 && ++c[d] == grid[d]) {
        c[d] = 0;
        d--;
      }
      if (d < 0) {
        return out;
      }
    }
  }
}
