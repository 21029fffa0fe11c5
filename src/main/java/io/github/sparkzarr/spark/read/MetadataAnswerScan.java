package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/** An aggregate answered from metadata: one row, no task reads a chunk. */
final class MetadataAnswerScan implements DriverAnswer {
  private final StructType schema;
  private final InternalRow row;
  private final String location;

  MetadataAnswerScan(StructType schema, InternalRow row, String location) {
    this.schema = schema;
    this.row = row;
    this.location = location;
  }

  @Override
  public InternalRow[] rows() {
    return new InternalRow[] {row};
  }

  @Override
  public StructType readSchema() {
    return schema;
  }

  @Override
  public String description() {
    return "ZarrMetadataAnswer[" + location + "]";
  }
}
