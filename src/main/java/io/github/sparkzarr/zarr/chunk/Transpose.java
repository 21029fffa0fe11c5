package io.github.sparkzarr.zarr.chunk;

import static io.github.sparkzarr.zarr.dtype.ByteViews.INT_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.LONG_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.SHORT_LE;

import java.util.ArrayList;
import java.util.List;

/**
 * Reorders the axes of a C-order array: used for v2 order "F" (a Fortran-order array of shape S
 * is a C-order array of the reversed shape) and the v3 transpose codec.
 */
public final class Transpose {
  /**
   * Tile edge, in elements, when the source's last axis is not the destination's: a tile of
   * 16 x 16 reads 16 runs of the source and writes 16 runs of the destination while both stay in
   * cache, where walking either array in order would stride through the other.
   */
  private static final int TILE = 16;
  private Transpose() {}

  /**
   * The C-order array whose axis {@code i} is axis {@code order[i]} of {@code src}.
   *
   * @param shape the shape of {@code src}
   * @param elementSize bytes per element
   */
  public static byte[] permute(byte[] src, int[] shape, int[] order, int elementSize) {
    byte[] dst = new byte[src.length];
    if (src.length > 0) {
      Loops.of(shape, order).forEachRun((s, ss, d, ds, n) -> copyRun(src, s, ss, dst, d, ds, n, elementSize));
    }
    return dst;
  }

  /** {@link #permute} for object elements. */
  public static Object[] permute(Object[] src, int[] shape, int[] order) {
    Object[] dst = new Object[src.length];
    if (src.length > 0) {
      Loops.of(shape, order).forEachRun((s, ss, d, ds, n) -> {
        for (int k = 0; k < n; k++) {
          dst[d + k * ds] = src[s + k * ss];
        }
      });
    }
    return dst;
  }

  /** The reversed shape: the C-order shape of a Fortran-order array. */
  public static int[] reversed(int[] shape) {
    int[] r = new int[shape.length];
    for (int i = 0; i < shape.length; i++) {
      r[i] = shape[shape.length - 1 - i];
    }
    return r;
  }

  /** The axis order that reverses all axes. */
  public static int[] reversal(int rank) {
    int[] r = new int[rank];
    for (int i = 0; i < rank; i++) {
      r[i] = rank - 1 - i;
    }
    return r;
  }

  /** The permutation that undoes {@code order}. */
  public static int[] inverse(int[] order) {
    int[] inv = new int[order.length];
    for (int i = 0; i < order.length; i++) {
      inv[order[i]] = i;
    }
    return inv;
  }

  /** Source strides (in elements) for each destination axis. */
  private static int[] permutedSourceStrides(int[] shape, int[] order) {
    int rank = shape.length;
    int[] srcStrides = new int[rank];
    int s = 1;
    for (int i = rank - 1; i >= 0; i--) {
      srcStrides[i] = s;
      s *= shape[i];
    }
    int[] out = new int[rank];
    for (int i = 0; i < rank; i++) {
      out[i] = srcStrides[order[i]];
    }
    return out;
  }

  /** A run of {@code n} elements: element {@code k} from {@code s + k * ss} to {@code d + k * ds}. */
  private interface Run {
    void copy(int s, int ss, int d, int ds, int n);
  }

  /**
   * The loops of a permutation, outermost first: each with a length and the source and
   * destination strides (in elements) of one step. The innermost loop is a run.
   */
  private record Loops(int[] len, int[] srcStride, int[] dstStride) {
    static Loops of(int[] shape, int[] order) {
      int rank = shape.length;
      int[] srcStrides = permutedSourceStrides(shape, order);
      int[] dstShape = new int[rank];
      for (int i = 0; i < rank; i++) {
        dstShape[i] = shape[order[i]];
      }
      int[] dstStrides = new int[rank];
      for (int i = rank - 1, s = 1; i >= 0; s *= dstShape[i], i--) {
        dstStrides[i] = s;
      }
      List<int[]> loops = new ArrayList<>(); // {len, srcStride, dstStride}
      int last = rank - 1;
      int readAxis = last < 0 ? -1 : inverse(order)[last]; // where the source's last axis goes
      boolean tiled = readAxis != last;
      for (int i = 0; i < rank; i++) {
        if (!tiled || i != readAxis && i != last) {
          loops.add(new int[] {dstShape[i], srcStrides[i], dstStrides[i]});
        }
      }
      if (tiled) {
        // tiles over the destination's last axis and the source's last: the two contiguous ones
        int[] write = {dstShape[last], srcStrides[last], dstStrides[last]};
        int[] read = {dstShape[readAxis], srcStrides[readAxis], dstStrides[readAxis]};
        int[] writeInner = split(write, loops);
        int[] readInner = split(read, loops);
        loops.add(readInner);
        loops.add(writeInner);
      }
      int n = loops.size();
      int[] len = new int[n];
      int[] ss = new int[n];
      int[] ds = new int[n];
      for (int k = 0; k < n; k++) {
        len[k] = loops.get(k)[0];
        ss[k] = loops.get(k)[1];
        ds[k] = loops.get(k)[2];
      }
      return new Loops(len, ss, ds);
    }

    /** Adds the loop over tiles of {@code axis} to {@code outer} and returns the loop within one (the whole axis when no tile divides it). */
    private static int[] split(int[] axis, List<int[]> outer) {
      if (axis[0] <= TILE || axis[0] % TILE != 0) {
        return axis;
      }
      outer.add(new int[] {axis[0] / TILE, axis[1] * TILE, axis[2] * TILE});
      return new int[] {TILE, axis[1], axis[2]};
    }

    /** Hands every run to {@code run}: one run of one element for rank 0. */
    void forEachRun(Run run) {
      int n = len.length;
      if (n == 0) {
        run.copy(0, 1, 0, 1, 1);
        return;
      }
      int inner = n - 1;
      int[] idx = new int[n];
      int s = 0;
      int d = 0;
      while (true) {
        run.copy(s, srcStride[inner], d, dstStride[inner], len[inner]);
        int k = inner - 1;
        while (k >= 0) {
          idx[k]++;
          s += srcStride[k];
          d += dstStride[k];
          if (idx[k] < len[k]) {
            break;
          }
          s -= srcStride[k] * len[k];
          d -= dstStride[k] * len[k];
          idx[k] = 0;
          k--;
        }
        if (k < 0) {
          return;
        }
      }
    }
  }

  /** Copies {@code n} elements of {@code size} bytes, element {@code k} from {@code s + k * ss} to {@code d + k * ds}. */
  private static void copyRun(byte[] src, int s, int ss, byte[] dst, int d, int ds, int n, int size) {
    if (ss == 1 && ds == 1) {
      System.arraycopy(src, s * size, dst, d * size, n * size);
      return;
    }
    switch (size) {
      case 1 -> {
        for (int k = 0; k < n; k++) {
          dst[d + k * ds] = src[s + k * ss];
        }
      }
      case 2 -> {
        for (int k = 0; k < n; k++) {
          SHORT_LE.set(dst, 2 * (d + k * ds), (short) SHORT_LE.get(src, 2 * (s + k * ss)));
        }
      }
      case 4 -> {
        for (int k = 0; k < n; k++) {
          INT_LE.set(dst, 4 * (d + k * ds), (int) INT_LE.get(src, 4 * (s + k * ss)));
        }
      }
      case 8 -> {
        for (int k = 0; k < n; k++) {
          LONG_LE.set(dst, 8 * (d + k * ds), (long) LONG_LE.get(src, 8 * (s + k * ss)));
        }
      }
      default -> {
        for (int k = 0; k < n; k++) {
          System.arraycopy(src, (s + k * ss) * size, dst, (d + k * ds) * size, size);
        }
      }
    }
  }
}
