package io.github.sparkzarr.zarr.chunk;

import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.metadata.FillValue;
import java.util.Arrays;
import java.util.Objects;

/** Chunks of the fill value, and the test whether a chunk holds nothing else. */
public final class FillChunks {
  private FillChunks() {}

  /** A little-endian chunk of {@code shape} holding {@code fill} everywhere. */
  public static ChunkData filled(DataType type, int[] shape, FillValue fill) {
    int n = Math.toIntExact(ChunkData.count(shape));
    if (type.isVariableLength()) {
      Object[] objects = new Object[n];
      Arrays.fill(objects, fill.object());
      return ChunkData.ofObjects(type, shape, objects);
    }
    byte[] data = new byte[Math.multiplyExact(n, type.size())];
    byte[] element = fill.element();
    if (!isZero(element) && data.length > 0) {
      System.arraycopy(element, 0, data, 0, element.length);
      for (int done = element.length; done < data.length; done *= 2) {
        System.arraycopy(data, 0, data, done, Math.min(done, data.length - done));
      }
    }
    return ChunkData.ofBytes(type, shape, data);
  }

  /** True if every element of {@code chunk} equals the fill value (bit for bit). */
  public static boolean isAllFill(ChunkData chunk, FillValue fill) {
    if (chunk.holdsObjects()) {
      Object f = fill.object();
      for (Object o : chunk.objects()) {
        if (!(o instanceof byte[] b && f instanceof byte[] fb ? Arrays.equals(b, fb) : Objects.equals(o, f))) {
          return false;
        }
      }
      return true;
    }
    byte[] data = chunk.bytes();
    byte[] element = fill.element();
    for (int i = 0; i < data.length; i++) {
      if (data[i] != element[i % element.length]) {
        return false;
      }
    }
    return true;
  }

  private static boolean isZero(byte[] element) {
    for (byte b : element) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }
}
