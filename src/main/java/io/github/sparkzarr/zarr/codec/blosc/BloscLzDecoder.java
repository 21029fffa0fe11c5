package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.CodecException;
import java.util.Arrays;

/**
 * Decodes BloscLZ, blosc's own FastLZ-derived LZ77 format. A control byte below 32 starts a run of
 * ctrl+1 literals; otherwise its top 3 bits are the match length minus 2 (7 means more length
 * bytes follow, each 255 meaning "add 255 and continue"), its low 5 bits and the next byte the
 * distance minus 1. A distance field of 8191 (31, 255) announces two more big-endian bytes for
 * distances from 8192. The first control byte is always a literal run (its top bits are masked).
 * libblosc 1.21 ignores a match that ends the stream, older releases copy it; its encoders never
 * write one, and we copy it, so frames from every release decode.
 */
final class BloscLzDecoder {
  private static final int MAX_DISTANCE = 8191;

  private BloscLzDecoder() {}

  /** Decodes src[srcOff, srcOff+srcLen) into dst at dstOff, writing at most dstLen bytes. */
  static int decode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen)
      throws CodecException {
    if (srcLen <= 0) {
      throw corrupt("empty stream");
    }
    int ip = srcOff;
    final int ipEnd = srcOff + srcLen;
    int op = dstOff;
    final int opEnd = dstOff + dstLen;
    int ctrl = src[ip++] & 31;
    while (true) {
      if (ctrl >= 32) {
        int len = (ctrl >>> 5) - 1;
        int ofs = (ctrl & 31) << 8;
        if (len == 6) {
          int code;
          do {
            if (ip >= ipEnd) {
              throw corrupt("truncated match length");
            }
            code = src[ip++] & 0xFF;
            len += code;
            if (len > dstLen) {
              throw corrupt("match longer than the block");
            }
          } while (code == 255);
        }
        if (ip >= ipEnd) {
          throw corrupt("truncated match distance");
        }
        int code = src[ip++] & 0xFF;
        len += 3;
        int distance;
        if (code == 255 && ofs == (31 << 8)) {
          if (ipEnd - ip < 2) {
            throw corrupt("truncated far match distance");
          }
          distance = ((src[ip] & 0xFF) << 8 | (src[ip + 1] & 0xFF)) + MAX_DISTANCE + 1;
          ip += 2;
        } else {
          distance = ofs + code + 1;
        }
        if (len > opEnd - op) {
          throw corrupt("match of " + len + " bytes overruns the block");
        }
        if (distance > op - dstOff) {
          throw corrupt("match distance " + distance + " reaches before the block start");
        }
        copyMatch(dst, op, distance, len);
        op += len;
      } else {
        int run = ctrl + 1;
        if (run > opEnd - op) {
          throw corrupt("literal run overruns the block");
        }
        if (run > ipEnd - ip) {
          throw corrupt("truncated literal run");
        }
        System.arraycopy(src, ip, dst, op, run);
        ip += run;
        op += run;
      }
      if (ip >= ipEnd) {
        return op - dstOff;
      }
      ctrl = src[ip++] & 0xFF;
    }
  }

  /** Copies len bytes from distance back, where an overlap repeats the last distance bytes. */
  private static void copyMatch(byte[] dst, int op, int distance, int len) {
    int ref = op - distance;
    if (distance >= len) {
      System.arraycopy(dst, ref, dst, op, len);
    } else if (distance == 1) {
      Arrays.fill(dst, op, op + len, dst[ref]);
    } else {
      // The output from ref on is periodic with period distance: copy doubling whole periods.
      int done = 0;
      while (done < len) {
        int chunk = Math.min(len - done, done == 0 ? distance : done);
        System.arraycopy(dst, ref, dst, op + done, chunk);
        done += chunk;
      }
    }
  }

  private static CodecException corrupt(String what) {
    return new CodecException("blosc: corrupt blosclz stream: " + what);
  }
}
