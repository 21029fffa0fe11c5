package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.schema.DatasetView;
import io.github.sparkzarr.spark.schema.DatasetView.Dimension;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * The searchable values of each dimension column, read on the driver once per scan: positions for
 * dimensions without a coordinate; a monotonic coordinate's decoded values; null when a coordinate
 * is not monotonic, holds nulls or NaN, or is not a number or timestamp.
 */
final class CoordinateAxes {
  /**
   * A searchable axis and its smallest and largest values in Spark's internal form.
   *
   * @param distinct whether no two positions hold equal values (as Spark compares them: 0.0 and
   *     -0.0 are equal)
   */
  record Sorted(SortedAxis axis, Object min, Object max, boolean distinct) {}

  private final DatasetView view;
  private final Store store;
  private final Map<Integer, Sorted> cache = new HashMap<>();

  CoordinateAxes(DatasetView view, Store store) {
    this.view = view;
    this.store = store;
  }

  /** The dimension's positions. */
  Sorted positions(int d) {
    long n = view.dims().get(d).length();
    return new Sorted(SortedAxis.positions(n), 0L, n - 1, true);
  }

  /** The dimension column's values (positions or coordinate values), or null if not searchable. */
  Sorted values(int d) {
    Dimension dim = view.dims().get(d);
    if (dim.coordinate() == null) {
      return positions(d);
    }
    return cache.computeIfAbsent(d, k -> {
      try {
        return read(dim);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  private Sorted read(Dimension dim) throws IOException {
    DataType t = dim.type();
    boolean integral = t == DataTypes.LongType || t == DataTypes.IntegerType
        || t == DataTypes.ShortType || t == DataTypes.ByteType || t == DataTypes.TimestampNTZType;
    boolean floating = t == DataTypes.DoubleType || t == DataTypes.FloatType;
    if ((!integral && !floating) || dim.length() == 0 || dim.length() > Integer.MAX_VALUE) {
      return null;
    }
    int n = (int) dim.length();
    ZarrArray array = dim.coordinate().open(store);
    ChunkData all = array.readAll();
    try (OnHeapColumnVector v = new OnHeapColumnVector(n, t)) {
      ValueWriters.of(array.memoryType(), dim.cf()).write(all, 0, v, 0, n);
      long[] longs = integral ? new long[n] : null;
      double[] doubles = floating ? new double[n] : null;
      for (int i = 0; i < n; i++) {
        if (v.isNullAt(i)) {
          return null;
        }
        if (integral) {
          longs[i] = t == DataTypes.LongType || t == DataTypes.TimestampNTZType ? v.getLong(i)
              : t == DataTypes.IntegerType ? v.getInt(i) : t == DataTypes.ShortType ? v.getShort(i) : v.getByte(i);
        } else {
          doubles[i] = t == DataTypes.DoubleType ? v.getDouble(i) : v.getFloat(i);
          if (Double.isNaN(doubles[i])) {
            return null;
          }
        }
      }
      int direction = 0;
      boolean distinct = true;
      for (int i = 1; i < n; i++) {
        int cmp = integral ? Long.compare(longs[i], longs[i - 1]) : Double.compare(doubles[i], doubles[i - 1]);
        distinct &= integral ? cmp != 0 : doubles[i] != doubles[i - 1];
        if (cmp != 0) {
          if (direction != 0 && direction != cmp) {
            return null;
          }
          direction = cmp;
        }
      }
      boolean reversed = direction < 0;
      if (reversed) {
        reverse(longs, doubles);
      }
      Object min = internal(t, longs, doubles, 0);
      Object max = internal(t, longs, doubles, n - 1);
      return new Sorted(integral ? SortedAxis.ofLongs(longs, reversed) : SortedAxis.ofDoubles(doubles, reversed),
          min, max, distinct);
    }
  }

  private static void reverse(long[] longs, double[] doubles) {
    int n = longs != null ? longs.length : doubles.length;
    for (int i = 0, j = n - 1; i < j; i++, j--) {
      if (longs != null) {
        long t = longs[i];
        longs[i] = longs[j];
        longs[j] = t;
      } else {
        double t = doubles[i];
        doubles[i] = doubles[j];
        doubles[j] = t;
      }
    }
  }

  private static Object internal(DataType t, long[] longs, double[] doubles, int i) {
    if (t == DataTypes.DoubleType) {
      return doubles[i];
    }
    if (t == DataTypes.FloatType) {
      return (float) doubles[i];
    }
    if (t == DataTypes.IntegerType) {
      return (int) longs[i];
    }
    if (t == DataTypes.ShortType) {
      return (short) longs[i];
    }
    if (t == DataTypes.ByteType) {
      return (byte) longs[i];
    }
    return longs[i];
  }
}
