package io.github.sparkzarr.zarr.chunk;

/**
 * Reorders the axes of a C-order array: used for v2 order "F" (a Fortran-order array of shape S
 * is a C-order array of the reversed shape) and the v3 transpose codec.
 */
public final class Transpose {
  private Transpose() {}

  /**
   * The C-order array whose axis {@code i} is axis {@code order[i]} of {@code src}.
   *
   * @param shape the shape of {@code src}
   * @param elementSize bytes per element
   */
  public static byte[] permute(byte[] src, int[] shape, int[] order, int elementSize) {
    byte[] dst = new byte[src.length];
    int[] srcIndex = permutedSourceStrides(shape, order);
    walk(shape, order, srcIndex, (dstPos, srcPos) ->
        System.arraycopy(src, srcPos * elementSize, dst, dstPos * elementSize, elementSize));
    return dst;
  }

  /** {@link #permute} for object elements. */
  public static Object[] permute(Object[] src, int[] shape, int[] order) {
    Object[] dst = new Object[src.length];
    int[] srcIndex = permutedSourceStrides(shape, order);
    walk(shape, order, srcIndex, (dstPos, srcPos) -> dst[dstPos] = src[srcPos]);
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

  private interface Move {
    void apply(int dstPos, int srcPos);
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

  private static void walk(int[] shape, int[] order, int[] srcStrides, Move move) {
    int rank = shape.length;
    int total = 1;
    int[] dstShape = new int[rank];
    for (int i = 0; i < rank; i++) {
      dstShape[i] = shape[order[i]];
      total *= dstShape[i];
    }
    if (total == 0) {
      return;
    }
    if (rank == 0) {
      move.apply(0, 0);
      return;
    }
    int[] idx = new int[rank];
    int srcPos = 0;
    int last = rank - 1;
    int innerStride = srcStrides[last];
    int innerLen = dstShape[last];
    for (int dstPos = 0; dstPos < total; ) {
      for (int k = 0; k < innerLen; k++) {
        move.apply(dstPos++, srcPos + k * innerStride);
      }
      // advance the odometer over the outer axes
      int axis = last - 1;
      while (axis >= 0) {
        idx[axis]++;
        srcPos += srcStrides[axis];
        if (idx[axis] < dstShape[axis]) {
          break;
        }
        srcPos -= srcStrides[axis] * dstShape[axis];
        idx[axis] = 0;
        axis--;
      }
    }
  }
}
