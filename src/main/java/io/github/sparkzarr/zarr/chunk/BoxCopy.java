package io.github.sparkzarr.zarr.chunk;

/** Copies an N-dimensional box between two C-order arrays, one contiguous run at a time. */
public final class BoxCopy {
  private BoxCopy() {}

  /**
   * Copies the box of {@code box} elements per axis from {@code src} (shape {@code srcShape},
   * box corner {@code srcStart}) to {@code dst} (shape {@code dstShape}, corner {@code dstStart}).
   * {@code src} and {@code dst} are both byte[] (with {@code elementSize}) or both Object[] (with
   * elementSize 1).
   */
  public static void copy(
      Object src,
      int[] srcShape,
      int[] srcStart,
      Object dst,
      int[] dstShape,
      int[] dstStart,
      int[] box,
      int elementSize) {
    int rank = box.length;
    for (int b : box) {
      if (b == 0) {
        return;
      }
    }
    if (rank == 0) {
      System.arraycopy(src, 0, dst, 0, elementSize);
      return;
    }
    long[] srcStrides = strides(srcShape);
    long[] dstStrides = strides(dstShape);
    // Merge trailing axes that are whole in both arrays into one longer contiguous run.
    int inner = rank - 1;
    long run = box[inner];
    while (inner > 0
        && box[inner] == srcShape[inner]
        && box[inner] == dstShape[inner]
        && srcStart[inner] == 0
        && dstStart[inner] == 0) {
      inner--;
      run *= box[inner];
    }
    long srcPos = 0;
    long dstPos = 0;
    for (int i = 0; i < rank; i++) {
      srcPos += srcStart[i] * srcStrides[i];
      dstPos += dstStart[i] * dstStrides[i];
    }
    int runBytes = Math.toIntExact(run * elementSize);
    int[] idx = new int[inner];
    while (true) {
      System.arraycopy(
          src, (int) (srcPos * elementSize), dst, (int) (dstPos * elementSize), runBytes);
      int axis = inner - 1;
      while (axis >= 0) {
        idx[axis]++;
        srcPos += srcStrides[axis];
        dstPos += dstStrides[axis];
        if (idx[axis] < box[axis]) {
          break;
        }
        srcPos -= srcStrides[axis] * box[axis];
        dstPos -= dstStrides[axis] * box[axis];
        idx[axis] = 0;
        axis--;
      }
      if (axis < 0) {
        return;
      }
    }
  }

  /** C-order strides in elements. */
  public static long[] strides(int[] shape) {
    long[] s = new long[shape.length];
    long acc = 1;
    for (int i = shape.length - 1; i >= 0; i--) {
      s[i] = acc;
      acc *= shape[i];
    }
    return s;
  }
}
