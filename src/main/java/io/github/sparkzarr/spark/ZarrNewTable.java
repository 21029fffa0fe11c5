package io.github.sparkzarr.spark;

import io.github.sparkzarr.spark.write.WriteMode;
import io.github.sparkzarr.spark.write.ZarrTarget;
import io.github.sparkzarr.spark.write.ZarrWriteBuilder;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * A table that does not exist yet: a path the DataFrame API writes to, or a table being created
 * or replaced (CTAS, RTAS). Nothing is written until the write's job commit, which publishes data
 * and metadata together, so staging needs no commit of its own.
 */
final class ZarrNewTable implements SupportsWrite, StagedTable {
  private final String name;
  private final StructType schema;
  private final ZarrTarget target;
  private final WriteMode mode;

  ZarrNewTable(String name, StructType schema, ZarrTarget target, WriteMode mode) {
    this.name = name;
    this.schema = schema;
    this.target = target;
    this.mode = mode;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Map<String, String> properties() {
    return target.defaults();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_WRITE, TableCapability.TRUNCATE,
        TableCapability.ACCEPT_ANY_SCHEMA);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new ZarrWriteBuilder(target, info, mode);
  }

  @Override
  public void commitStagedChanges() {}

  @Override
  public void abortStagedChanges() {}

  @Override
  public String toString() {
    return name;
  }
}
