package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.ChunkCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.util.Arrays;
import java.util.List;

/**
 * One array's metadata in a format-independent form: every format's reader produces this, so
 * nothing downstream knows which format it came from.
 *
 * @param zarrFormat 1, 2 or 3
 * @param shape the array shape (rank 0 for a scalar)
 * @param chunkShape the regular chunk shape, same rank, every length positive
 * @param dataType the element type as stored (decoded chunks are in its little-endian form)
 * @param fillValue what missing chunks read as
 * @param codec the chunk codec chain
 * @param chunkKeyEncoding how chunk coordinates become keys
 * @param dimensionNames one name (or null) per dimension, or null when the metadata has none
 * @param attributes the user attributes (never null)
 */
public record ArrayMetadata(
    int zarrFormat,
    long[] shape,
    int[] chunkShape,
    DataType dataType,
    FillValue fillValue,
    ChunkCodec codec,
    ChunkKeyEncoding chunkKeyEncoding,
    List<String> dimensionNames,
    ObjectNode attributes) {

  public ArrayMetadata {
    shape = shape.clone();
    chunkShape = chunkShape.clone();
    if (shape.length != chunkShape.length) {
      throw new IllegalArgumentException(
          "shape " + Arrays.toString(shape) + " and chunks " + Arrays.toString(chunkShape)
              + " have different ranks");
    }
    long chunkElements = 1;
    for (int i = 0; i < shape.length; i++) {
      if (shape[i] < 0) {
        throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has a negative length");
      }
      if (chunkShape[i] <= 0) {
        throw new IllegalArgumentException(
            "chunks " + Arrays.toString(chunkShape) + " must all be positive");
      }
      chunkElements = Math.multiplyExact(chunkElements, chunkShape[i]);
    }
    if (countElements(shape) < 0) {
      throw new IllegalArgumentException("shape " + Arrays.toString(shape)
          + " has more elements than a 64-bit count can hold");
    }
    long chunkBytes =
        dataType.isVariableLength() ? chunkElements : Math.multiplyExact(chunkElements, dataType.size());
    if (chunkBytes > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException(
          "chunks " + Arrays.toString(chunkShape) + " of " + dataType
              + " would need more than 2 GiB each, which a JVM array cannot hold");
    }
    if (dimensionNames != null) {
      if (dimensionNames.size() != shape.length) {
        throw new IllegalArgumentException(
            "dimension names " + dimensionNames + " do not match the rank " + shape.length);
      }
      dimensionNames = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(dimensionNames));
    }
  }

  public int rank() {
    return shape.length;
  }

  @Override
  public long[] shape() {
    return shape.clone();
  }

  @Override
  public int[] chunkShape() {
    return chunkShape.clone();
  }

  /** Number of chunks along each dimension (0 along an empty dimension). */
  public long[] gridShape() {
    long[] g = new long[shape.length];
    for (int i = 0; i < shape.length; i++) {
      g[i] = shape[i] / chunkShape[i] + (shape[i] % chunkShape[i] == 0 ? 0 : 1); // no overflow near 2^63
    }
    return g;
  }

  /** Number of elements in the array (the constructor checks it fits a long). */
  public long elementCount() {
    return countElements(shape);
  }

  /** The product of {@code shape}, or -1 if it does not fit a long. */
  private static long countElements(long[] shape) {
    long n = 1;
    for (long d : shape) {
      if (d == 0) {
        return 0;
      }
    }
    for (long d : shape) {
      if (n > Long.MAX_VALUE / d) {
        return -1;
      }
      n *= d;
    }
    return n;
  }

  /** Number of elements in one (full) chunk. */
  public int chunkElementCount() {
    int n = 1;
    for (int d : chunkShape) {
      n *= d;
    }
    return n;
  }

  /** The same metadata with other attributes. */
  public ArrayMetadata withAttributes(ObjectNode newAttributes) {
    return new ArrayMetadata(zarrFormat, shape, chunkShape, dataType, fillValue, codec,
        chunkKeyEncoding, dimensionNames, newAttributes);
  }

  /** The same metadata with another shape (appending along a dimension). */
  public ArrayMetadata withShape(long[] newShape) {
    return new ArrayMetadata(zarrFormat, newShape, chunkShape, dataType, fillValue, codec,
        chunkKeyEncoding, dimensionNames, attributes);
  }
}
