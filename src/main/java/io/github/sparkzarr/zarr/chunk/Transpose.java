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
   * Tile edge, in elements, when the source's last axis is not the destination's: a tile of up to
   * 64 x 64 is read in 64 runs of the source and written in 64 runs of the destination through a
   * buffer that stays in L1 (16 KiB of float32), where walking either array in order would stride
   * through the other. 64 was 1.5-2x faster than 16 or 32 on 1 MiB float32 chunks.
   */
  private static final int TILE = 64;
  private Transpose() {}

  /**
   * The C-order array whose axis {@code i} is axis {@code order[i]} of {@code src}.
   *
   * @param shape the shape of {@code src}
   * @param elementSize bytes per element
   */
  public static byte[] permute(byte[] src, int[] shape, int[] order, int elementSize) {
    byte[] dst = new byte[src.length];
    permuteInto(src, dst, shape, order, elementSize);
    return dst;
  }

  /**
   * {@link #permute} into {@code dst}: the elements of {@code shape} at the start of {@code src}
   * (which may be longer, a reused buffer) go to the start of {@code dst}.
   */
  public static void permuteInto(byte[] src, byte[] dst, int[] shape, int[] order, int elementSize) {
    if (ChunkData.count(shape) > 0) {
      Loops loops = Loops.of(shape, order);
      byte[] tile = new byte[loops.tileBytes(elementSize)];
      loops.forEachBlock((l, s, d, a, b) -> copyBlock(src, dst, tile, l, s, d, a, b, elementSize));
    }
  }

  /** {@link #permute} for object elements. */
  public static Object[] permute(Object[] src, int[] shape, int[] order) {
    Object[] dst = new Object[src.length];
    if (src.length > 0) {
      Loops.of(shape, order).forEachBlock((loops, s, d, a, b) -> {
        Loops.Side outer = loops.a();
        Loops.Side inner = loops.b();
        for (int i = 0; i < a; i++) {
          for (int k = 0; k < b; k++) {
            dst[d + i * outer.dstStride() + k * inner.dstStride()] = src[s + i * outer.srcStride() + k * inner.srcStride()];
          }
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

  /** Copies one block: {@code a} lines of {@code b} elements from source element {@code s} and destination {@code d}. */
  private interface Block {
    void copy(Loops loops, int s, int d, int a, int b);
  }

  /**
   * A permutation as loops. An odometer walks the outer loops (each a length and the source and
   * destination strides of one step, in elements, outermost first) and hands each position to a
   * block of two loops: {@code a} (outer) and {@code b} (inner). When the source's last axis is not
   * the destination's, the block is a tile of both: {@code a} steps along the source's last axis
   * and {@code b} along the destination's, and the odometer steps from tile to tile.
   */
  private record Loops(int[] len, int[] srcStride, int[] dstStride, boolean tiled, Side a, Side b) {
    /** One loop of the block: length, strides and, when the odometer steps its tiles, the last tile's length. */
    private record Side(int len, int srcStride, int dstStride, int tileLoop, int lastLen) {
      static final Side ONCE = new Side(1, 0, 0, -1, 1);

      int lengthAt(int[] idx, int[] loopLen) {
        return tileLoop >= 0 && idx[tileLoop] == loopLen[tileLoop] - 1 ? lastLen : len;
      }
    }

    static Loops of(int[] fullShape, int[] fullOrder) {
      // axes of length 1 move nothing, and would make lines of one element
      int[] newIndex = new int[fullShape.length];
      int rank = 0;
      for (int i = 0; i < fullShape.length; i++) {
        newIndex[i] = fullShape[i] == 1 ? -1 : rank++;
      }
      int[] shape = new int[rank];
      int[] order = new int[rank];
      for (int i = 0, j = 0; i < fullOrder.length; i++) {
        if (newIndex[fullOrder[i]] >= 0) {
          shape[newIndex[fullOrder[i]]] = fullShape[fullOrder[i]];
          order[j++] = newIndex[fullOrder[i]];
        }
      }
      int[] srcStrides = permutedSourceStrides(shape, order);
      int[] dstShape = new int[rank];
      for (int i = 0; i < rank; i++) {
        dstShape[i] = shape[order[i]];
      }
      int[] dstStrides = new int[rank];
      for (int i = rank - 1, s = 1; i >= 0; s *= dstShape[i], i--) {
        dstStrides[i] = s;
      }
      int last = rank - 1;
      int readAxis = last < 0 ? -1 : inverse(order)[last]; // where the source's last axis goes
      boolean tiled = readAxis != last;
      List<int[]> loops = new ArrayList<>(); // {len, srcStride, dstStride}
      for (int i = 0; i < last; i++) {
        if (!tiled || i != readAxis) {
          loops.add(new int[] {dstShape[i], srcStrides[i], dstStrides[i]});
        }
      }
      if (rank == 0) {
        return new Loops(new int[0], new int[0], new int[0], false, Side.ONCE, Side.ONCE);
      }
      Side write = tiled ? tiles(dstShape[last], srcStrides[last], dstStrides[last], loops)
          : new Side(dstShape[last], srcStrides[last], dstStrides[last], -1, dstShape[last]);
      Side read = tiled ? tiles(dstShape[readAxis], srcStrides[readAxis], dstStrides[readAxis], loops) : Side.ONCE;
      int n = loops.size();
      int[] len = new int[n];
      int[] ss = new int[n];
      int[] ds = new int[n];
      for (int k = 0; k < n; k++) {
        len[k] = loops.get(k)[0];
        ss[k] = loops.get(k)[1];
        ds[k] = loops.get(k)[2];
      }
      return new Loops(len, ss, ds, tiled, read, write);
    }

    /** The side of a tile along an axis, adding the loop over its tiles to {@code outer} when there is more than one. */
    private static Side tiles(int length, int srcStride, int dstStride, List<int[]> outer) {
      if (length <= TILE) {
        return new Side(length, srcStride, dstStride, -1, length);
      }
      int count = (length + TILE - 1) / TILE;
      outer.add(new int[] {count, srcStride * TILE, dstStride * TILE});
      return new Side(TILE, srcStride, dstStride, outer.size() - 1, length - TILE * (count - 1));
    }

    /** Bytes a tile of {@code size}-byte elements needs. */
    int tileBytes(int size) {
      return tiled ? a.len * b.len * size : 0;
    }

    /** Hands {@code block} every position of the odometer, in order. */
    void forEachBlock(Block block) {
      int n = len.length;
      int[] idx = new int[n];
      int s = 0;
      int d = 0;
      while (true) {
        block.copy(this, s, d, a.lengthAt(idx, len), b.lengthAt(idx, len));
        int k = n - 1;
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

  /**
   * A block of {@code loops} from source element {@code s} and destination {@code d}. A tile is
   * gathered line by line (source lines along {@code a}) into {@code tile} and scattered from
   * there line by line (destination lines along {@code b}), so that each line of either array is
   * touched in one burst: lines a power of two apart share cache sets, and walking many of them at
   * once evicted them before their next element was read.
   */
  private static void copyBlock(byte[] src, byte[] dst, byte[] tile, Loops loops, int s, int d, int a, int b, int size) {
    Loops.Side outer = loops.a();
    Loops.Side inner = loops.b();
    if (loops.tiled()) {
      int line = a * size;
      for (int k = 0; k < b; k++) {
        System.arraycopy(src, (s + k * inner.srcStride()) * size, tile, k * line, line);
      }
      for (int i = 0; i < a; i++) {
        copyRun(tile, i, a, dst, d + i * outer.dstStride(), 1, b, size);
      }
      return;
    }
    for (int i = 0; i < a; i++) {
      copyRun(src, s + i * outer.srcStride(), inner.srcStride(), dst, d + i * outer.dstStride(), inner.dstStride(), b, size);
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
