package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.store.CountingStore;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.SerializableConfiguration;

/** Opens the store on an executor and reads a partition's chunks as columnar batches (rows or partial aggregates). */
final class ZarrReaderFactory implements PartitionReaderFactory {
  private final ScanPlan plan;
  private final PushedAggregate aggregate;
  private final StructType schema;
  private final Broadcast<SerializableConfiguration> conf;

  ZarrReaderFactory(ScanPlan plan, PushedAggregate aggregate, StructType schema,
      Broadcast<SerializableConfiguration> conf) {
    this.plan = plan;
    this.aggregate = aggregate;
    this.schema = schema;
    this.conf = conf;
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return true;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    throw new UnsupportedOperationException("zarr scans are columnar only");
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    ZarrInputPartition p = (ZarrInputPartition) partition;
    try {
      HadoopStore store = new HadoopStore(plan.view().storeUri(), conf.value().value());
      CountingStore counting = new CountingStore(store);
      return aggregate != null
          ? new PartialAggregateReader(plan, aggregate, schema, counting, p.start(), p.end())
          : new ChunkBatchReader(plan, counting, p.start(), p.end());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
