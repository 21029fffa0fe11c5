package io.github.sparkzarr.zarr.chunk;

import io.github.sparkzarr.zarr.dtype.DataType;
import java.util.Arrays;

/**
 * A chunk's elements with their type and shape, in C order.
 *
 * <p>Fixed-size types are held in {@link #bytes()}, {@code type.size()} bytes per element in the
 * byte order of {@link #type()}. Chunks handed out by the array layer always have a little-endian
 * type, so column vectors can wrap them without another copy. Variable-length types are held in
 * {@link #objects()}: {@code String} for STRING and JSON, {@code byte[]} for VLEN_BYTES, null
 * allowed.
 *
 * <p>Codec filters also pass flat intermediate arrays around as ChunkData (shape {@code [n]}).
 */
public final class ChunkData {
  private final DataType type;
  private final int[] shape;
  private final byte[] bytes;
  private final Object[] objects;

  private ChunkData(DataType type, int[] shape, byte[] bytes, Object[] objects) {
    this.type = type;
    this.shape = shape;
    this.bytes = bytes;
    this.objects = objects;
  }

  /** Fixed-size elements; {@code bytes.length} must be the element count times the type size. */
  public static ChunkData ofBytes(DataType type, int[] shape, byte[] bytes) {
    if (type.isVariableLength()) {
      throw new IllegalArgumentException(type + " needs objects, not bytes");
    }
    long expected = count(shape) * type.size();
    if (bytes.length != expected) {
      throw new IllegalArgumentException(
          "a chunk of shape "
              + Arrays.toString(shape)
              + " and type "
              + type
              + " needs "
              + expected
              + " bytes, got "
              + bytes.length);
    }
    return new ChunkData(type, shape.clone(), bytes, null);
  }

  /** A flat (1-D) array of raw bytes, for codecs whose output has no element structure. */
  public static ChunkData ofRawBytes(byte[] bytes) {
    return new ChunkData(
        DataType.fixedLength(DataType.Kind.RAW, 1, null), new int[] {bytes.length}, bytes, null);
  }

  /** Variable-length elements, one object per element. */
  public static ChunkData ofObjects(DataType type, int[] shape, Object[] objects) {
    if (!type.isVariableLength()) {
      throw new IllegalArgumentException(type + " needs bytes, not objects");
    }
    if (objects.length != count(shape)) {
      throw new IllegalArgumentException(
          "a chunk of shape " + Arrays.toString(shape) + " needs " + count(shape) + " objects");
    }
    return new ChunkData(type, shape.clone(), null, objects);
  }

  public static long count(int[] shape) {
    long n = 1;
    for (int d : shape) {
      n *= d;
    }
    return n;
  }

  public DataType type() {
    return type;
  }

  public int[] shape() {
    return shape.clone();
  }

  public int elementCount() {
    return (int) count(shape);
  }

  /** The element bytes (fixed-size types), not copied. */
  public byte[] bytes() {
    if (bytes == null) {
      throw new IllegalStateException(type + " chunk holds objects");
    }
    return bytes;
  }

  /** The elements (variable-length types), not copied. */
  public Object[] objects() {
    if (objects == null) {
      throw new IllegalStateException(type + " chunk holds bytes");
    }
    return objects;
  }

  public boolean holdsObjects() {
    return objects != null;
  }

  /** The same elements viewed with another shape of the same element count. */
  public ChunkData reshape(int[] newShape) {
    if (count(newShape) != count(shape)) {
      throw new IllegalArgumentException(
          "cannot reshape " + Arrays.toString(shape) + " to " + Arrays.toString(newShape));
    }
    return new ChunkData(type, newShape.clone(), bytes, objects);
  }
}
