package io.github.sparkzarr.zarr.codec.blosc;

import java.util.Arrays;

/**
 * A greedy, hash-chain-free BloscLZ encoder (format described in {@link BloscLzDecoder}). It does
 * not reproduce libblosc's output byte for byte, only streams libblosc decodes: every stream starts
 * and ends with literals, because libblosc 1.21 drops a match that ends a stream. One instance
 * serves the streams of one encode call, reusing its hash table.
 */
final class BloscLzEncoder {
  private static final int HASH_LOG = 14;
  private static final int MAX_COPY = 32;
  private static final int MAX_DISTANCE = 8191;
  /** libblosc's limit for (unbiased) far match distances. */
  private static final int MAX_FAR_DISTANCE = 65535 + MAX_DISTANCE - 1;
  /** Matches stop this far before the end, so the stream ends with a literal run. */
  private static final int TAIL = 4;
  /** Streams shorter than this are not worth compressing (libblosc refuses below 16 too). */
  private static final int MIN_INPUT = 16;

  /** Positions plus one; 0 means empty. */
  private final int[] table = new int[1 << HASH_LOG];

  /**
   * Compresses src[off, off+len) into dst at dstOff.
   *
   * @return the stream size, or -1 when it would take more than maxOut bytes
   */
  int encode(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut) {
    if (len < MIN_INPUT) {
      return -1;
    }
    Arrays.fill(table, 0);
    Output out = new Output(dst, dstOff, dstOff + maxOut);
    int matchEnd = len - TAIL;
    int searchEnd = len - 12;
    int anchor = 0;
    int ip = 1;
    while (ip < searchEnd) {
      int seq = LittleEndian.readInt(src, off + ip);
      int h = (seq * 0x9E3779B1) >>> (32 - HASH_LOG);
      int cand = table[h] - 1;
      table[h] = ip + 1;
      int distance = ip - cand;
      if (cand < 0
          || distance >= MAX_FAR_DISTANCE
          || LittleEndian.readInt(src, off + cand) != seq) {
        // Skip faster through data that does not compress.
        ip += 1 + ((ip - anchor) >>> 6);
        continue;
      }
      int mlen = 4 + commonLength(src, off + cand + 4, off + ip + 4, matchEnd - ip - 4);
      if (distance > MAX_DISTANCE && mlen < 8) {
        ip++; // a far match costs 4 bytes: not worth it when short
        continue;
      }
      if (!out.literals(src, off + anchor, ip - anchor) || !out.match(distance, mlen)) {
        return -1;
      }
      ip += mlen;
      anchor = ip;
      if (ip < searchEnd) {
        table[(LittleEndian.readInt(src, off + ip - 2) * 0x9E3779B1) >>> (32 - HASH_LOG)] = ip - 1;
      }
    }
    if (!out.literals(src, off + anchor, len - anchor)) {
      return -1;
    }
    return out.pos - dstOff;
  }

  /** How many bytes match at a and b, at most max. */
  private static int commonLength(byte[] src, int a, int b, int max) {
    int n = 0;
    while (n + 8 <= max) {
      long diff = LittleEndian.readLong(src, a + n) ^ LittleEndian.readLong(src, b + n);
      if (diff != 0) {
        return n + (Long.numberOfTrailingZeros(diff) >>> 3);
      }
      n += 8;
    }
    while (n < max && src[a + n] == src[b + n]) {
      n++;
    }
    return n;
  }

  /** The bounded output; its methods return false when the stream would not fit. */
  private static final class Output {
    private final byte[] dst;
    private final int limit;
    private int pos;

    Output(byte[] dst, int pos, int limit) {
      this.dst = dst;
      this.pos = pos;
      this.limit = limit;
    }

    boolean literals(byte[] src, int from, int count) {
      if (count + (count + MAX_COPY - 1) / MAX_COPY > limit - pos) {
        return false;
      }
      while (count > 0) {
        int run = Math.min(count, MAX_COPY);
        dst[pos++] = (byte) (run - 1);
        System.arraycopy(src, from, dst, pos, run);
        pos += run;
        from += run;
        count -= run;
      }
      return true;
    }

    /** distance: how far back the match starts (at least 1); mlen: its length (at least 3). */
    boolean match(int distance, int mlen) {
      int biasedLen = mlen - 2;
      int biasedDistance = distance - 1;
      boolean far = biasedDistance >= MAX_DISTANCE;
      int extraLengthBytes = biasedLen < 7 ? 0 : (biasedLen - 7) / 255 + 1;
      if (1 + extraLengthBytes + (far ? 3 : 1) > limit - pos) {
        return false;
      }
      int high = far ? 31 : biasedDistance >>> 8;
      dst[pos++] = (byte) ((Math.min(biasedLen, 7) << 5) | high);
      if (biasedLen >= 7) {
        int rest = biasedLen - 7;
        for (; rest >= 255; rest -= 255) {
          dst[pos++] = (byte) 255;
        }
        dst[pos++] = (byte) rest;
      }
      if (far) {
        int farDistance = biasedDistance - MAX_DISTANCE;
        dst[pos++] = (byte) 255;
        dst[pos++] = (byte) (farDistance >>> 8);
        dst[pos++] = (byte) farDistance;
      } else {
        dst[pos++] = (byte) biasedDistance;
      }
      return true;
    }
  }
}
