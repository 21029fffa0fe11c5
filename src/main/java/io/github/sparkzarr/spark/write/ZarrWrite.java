package io.github.sparkzarr.spark.write;

import io.github.sparkzarr.spark.write.metrics.BytesWrittenMetric;
import io.github.sparkzarr.spark.write.metrics.ChunksWrittenMetric;
import io.github.sparkzarr.spark.write.metrics.EncodeTimeMetric;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;

/**
 * Asks Spark to cluster rows by chunk ({@code zarr_chunk(position, chunk_length[, offset])} per
 * dimension, resolved through the zarr catalog's functions), so a chunk is assembled by one task.
 * No sort is asked for: sorting every row by chunk cost far more than the write itself, and the
 * task assembles chunks in any order within a bounded buffer ({@link ZarrDataWriter}). The
 * distribution is strictly required and no advisory size is set: adaptive execution may coalesce
 * tasks, never split one chunk across two. No distribution is asked for when the rows come from a
 * Zarr read whose chunks the write's tile, or with option shuffle=false ({@link
 * WriteLayout.RowGrouping}).
 */
final class ZarrWrite implements RequiresDistributionAndOrdering {
  private final WritePlan plan;
  private final Configuration conf;

  ZarrWrite(WritePlan plan, Configuration conf) {
    this.plan = plan;
    this.conf = conf;
  }

  private Expression[] chunkExpressions() {
    Expression[] out = new Expression[plan.layout().dims().size()];
    for (int d = 0; d < out.length; d++) {
      WriteLayout.Dim dim = plan.layout().dims().get(d);
      Expression position = Expressions.column(dim.positionColumn());
      out[d] = dim.offset() == 0
          ? Expressions.apply(ZarrChunkFunction.NAME, position, Expressions.literal(dim.chunk()))
          : Expressions.apply(ZarrChunkFunction.NAME, position, Expressions.literal(dim.chunk()),
              Expressions.literal(dim.offset()));
    }
    return out;
  }

  @Override
  public Distribution requiredDistribution() {
    if (!plan.layout().grouping().shuffled()) {
      return Distributions.unspecified();
    }
    return Distributions.clustered(chunkExpressions());
  }

  @Override
  public SortOrder[] requiredOrdering() {
    return new SortOrder[0];
  }

  @Override
  public boolean distributionStrictlyRequired() {
    return true;
  }

  @Override
  public String description() {
    return "zarr write to " + plan.layout().location() + " (" + plan.mode().name().toLowerCase()
        + ", zarr_format " + plan.format().version() + ")";
  }

  @Override
  public BatchWrite toBatch() {
    return new ZarrBatchWrite(plan, conf);
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return new CustomMetric[] {new ChunksWrittenMetric(), new BytesWrittenMetric(), new EncodeTimeMetric()};
  }
}
