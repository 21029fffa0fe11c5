package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.store.Store;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * A small aggregate computed in the scan, computed on the driver when Spark plans
 * the query (ZarrScan#answerableOnDriver): the partitions' readers run here, on the driver's
 * cores, so the query needs no task, and with {@link DriverAnswerStrategy} no job. Such a scan is
 * at most {@code driverAggregateMaxBytes} of decoded data (by default what one task reads alone),
 * and a job costs more than that on a small box (docs/benchmarks-history.md, sessions 32 to 34). Up to
 * 32 MiB it is one partition, whose rows are the answer; above, a partition per core, whose
 * partial rows {@link DriverMergeStrategy} merges. The answer is computed
 * once per plan: executing the same plan again returns it unchanged, as for any {@code LocalScan}.
 */
final class DriverAggregateScan implements DriverAnswer {
  private final ZarrScan scan;
  private final Store store;
  private InternalRow[] rows;

  DriverAggregateScan(ZarrScan scan, Store store) {
    this.scan = scan;
    this.store = store;
  }

  @Override
  public synchronized InternalRow[] rows() {
    if (rows == null) {
      rows = scan.readOnDriver(store);
    }
    return rows.clone();
  }

  /** Whether the rows are partial aggregates (of several partitions) that Spark's aggregate above merges. */
  boolean mergeable() {
    return scan.mergeableOnDriver();
  }

  @Override
  public StructType readSchema() {
    return scan.readSchema();
  }

  @Override
  public String description() {
    return scan.description() + " on the driver";
  }
}
