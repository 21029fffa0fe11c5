package io.github.sparkzarr.spark.write;

import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;

/** Builds the write of one query; {@link #truncate()} (overwrite) replaces the target. */
public final class ZarrWriteBuilder implements WriteBuilder, SupportsTruncate {
  private final ZarrTarget target;
  private final LogicalWriteInfo info;
  private WriteMode mode;

  /** @param mode CREATE for a table being created, APPEND for one that exists or may */
  public ZarrWriteBuilder(ZarrTarget target, LogicalWriteInfo info, WriteMode mode) {
    this.target = target;
    this.info = info;
    this.mode = mode;
  }

  @Override
  public WriteBuilder truncate() {
    mode = WriteMode.OVERWRITE;
    return this;
  }

  @Override
  public Write build() {
    WritePlan plan = WritePlanner.plan(target, info.schema(), info.options().asCaseSensitiveMap(),
        mode, info.queryId());
    org.apache.hadoop.conf.Configuration conf = target.hadoopConf();
    plan.options().hadoopSettings().forEach(conf::set);
    return new ZarrWrite(plan, conf);
  }
}
