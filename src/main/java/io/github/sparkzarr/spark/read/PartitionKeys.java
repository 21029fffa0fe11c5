package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.schema.DatasetView;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.store.CountingStore;
import java.io.IOException;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;

/**
 * The values of GROUP BY keys and weights over the positions a partition (planned chunks
 * {@code [start, end)}) reads along their dimension: positions, or coordinate values read once,
 * then the key's function applied.
 */
final class PartitionKeys {
  private final ScanPlan plan;
  private final DatasetView view;
  private final CountingStore store;
  private final long start;
  private final long end;

  PartitionKeys(ScanPlan plan, CountingStore store, long start, long end) {
    this.plan = plan;
    this.view = plan.view();
    this.store = store;
    this.start = start;
    this.end = end;
  }

  /**
   * A GROUP BY key's values, when positions may share a key: a function of the dimension, or
   * coordinate values Spark compares as Java's equals does; else null (each position its own group).
   */
  GroupKeyValues grouping(GroupKey key) throws IOException {
    DataType type = key.baseType(view);
    boolean comparable = key.function() != null || GroupKeyFunctions.KEY_TYPES.contains(type)
        || type == DataTypes.StringType || type instanceof DecimalType;
    if (key.isPosition(view) || !comparable || start >= end) {
      return null;
    }
    return values(key);
  }

  /** The key's values over the positions of its dimension the partition reads; null when it reads none. */
  GroupKeyValues values(GroupKey key) throws IOException {
    long[] range = positionRange(key.column().index());
    if (range == null) {
      return null;
    }
    long lo = range[0];
    int n = Math.toIntExact(range[1] - lo + 1);
    WritableColumnVector base = new OnHeapColumnVector(n, key.baseType(view));
    baseValues(key, lo, n, base);
    return new GroupKeyValues(lo, base, n, key.baseType(view), key.function());
  }

  /** The lowest and highest positions of dimension {@code d} the partition reads; null if none. */
  long[] positionRange(int d) {
    long lo = Long.MAX_VALUE;
    long hi = -1;
    for (long i = start; i < end; i++) {
      long[] p = plan.positions(d, plan.chunkCoords(i)[d]);
      if (p.length > 0) {
        lo = Math.min(lo, p[0]);
        hi = Math.max(hi, p[p.length - 1]);
      }
    }
    return hi < lo ? null : new long[] {lo, hi};
  }

  /** The key column's values at positions {@code [first, first + n)}: positions, or coordinate values. */
  private void baseValues(GroupKey key, long first, int n, WritableColumnVector out) throws IOException {
    DatasetView.Dimension dim = view.dims().get(key.column().index());
    if (key.column().kind() == OutputColumn.Kind.POSITION || dim.coordinate() == null) {
      for (int i = 0; i < n; i++) {
        out.putLong(i, first + i);
      }
      return;
    }
    ZarrArray coordinate = dim.coordinate().open(store);
    ChunkData values = coordinate.read(new long[] {first}, new int[] {n});
    ValueWriters.of(coordinate.memoryType(), dim.cf()).write(values, 0, out, 0, n);
  }
}
