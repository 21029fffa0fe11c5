package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.schema.DatasetView;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * An aggregation the scan computes partially, per partition: one row per group of dimension
 * values, holding each call's partial result. Spark merges the partitions' rows (a sum of sums, a
 * sum of counts, a min of mins), so the answer is the one Spark computes from every row.
 *
 * @param groupBy dimension or position columns or functions of one, in the order of the query's GROUP BY
 */
public record PushedAggregate(List<GroupKey> groupBy, List<AggregateCall> calls)
    implements Serializable {

  /** What the scan returns: the group columns, then one column per call. */
  public StructType schema(DatasetView view) {
    List<StructField> fields = new ArrayList<>();
    for (int k = 0; k < groupBy.size(); k++) {
      GroupKey key = groupBy.get(k);
      fields.add(DataTypes.createStructField("group_" + k, key.type(view), key.nullable(view)));
    }
    for (int i = 0; i < calls.size(); i++) {
      fields.add(DataTypes.createStructField("partial_" + i, calls.get(i).resultType(), true));
    }
    return DataTypes.createStructType(fields);
  }

  /**
   * The dimensions the weights of weighted sums vary along. The scan adds per position of each,
   * and returns a row per group and position, the weight applied, for Spark to merge: so such an
   * aggregation is never complete in the scan.
   */
  public int[] weightDims() {
    return calls.stream().filter(c -> c.weight() != null).mapToInt(c -> c.weight().column().index())
        .distinct().toArray();
  }

  public String describe(DatasetView view) {
    String calls = this.calls.stream().map(c -> c.describe(c.variable() < 0 ? "*"
        : view.variables().get(c.variable()).column())).collect(Collectors.joining(", "));
    String groups = groupBy.stream().map(GroupKey::name).collect(Collectors.joining(", "));
    return "partialAggregates=[" + calls + "]" + (groupBy.isEmpty() ? "" : " groupBy=[" + groups + "]");
  }
}
