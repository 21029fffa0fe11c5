package io.github.sparkzarr.spark.write;

import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.util.SerializableConfiguration;

/** Ships the layout and the Hadoop configuration to the tasks. */
final class ZarrDataWriterFactory implements DataWriterFactory {
  private final WriteLayout layout;
  private final Broadcast<SerializableConfiguration> conf;

  ZarrDataWriterFactory(WriteLayout layout, Broadcast<SerializableConfiguration> conf) {
    this.layout = layout;
    this.conf = conf;
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    return new ZarrDataWriter(layout, conf.value().value(), "part-" + partitionId + "-task-" + taskId);
  }
}
