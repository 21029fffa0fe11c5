package io.github.sparkzarr.spark.read;

import java.lang.reflect.Constructor;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.ReturnAnswer;
import org.apache.spark.sql.execution.LocalTableScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Plans a {@link DriverAnswer} under projections, filters, global sorts and limits as the local
 * rows they evaluate to. Spark plans a {@code LocalScan} as a local table scan, but the projection
 * that aggregate push-down puts above it (names, casts, AVG's division), and any {@code HAVING},
 * {@code ORDER BY} or {@code LIMIT} over it, as a job of one task: about 30 ms of scheduling for
 * a few rows. Spark collects a local table scan without a job, as it does for a projection of
 * {@code VALUES} (its optimizer's ConvertToLocalRelation), which this mirrors with Spark's own
 * interpreted projections and orderings. Registered by
 * {@link io.github.sparkzarr.spark.ZarrSessionExtensions}; any other plan, or an expression that
 * is not deterministic or needs more than a row (a subquery), is left to Spark's strategies.
 */
public final class DriverAnswerStrategy extends SparkStrategy {
  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    // ReturnAnswer marks the root of a collect(); Spark plans its limits there (SpecialLimits).
    LogicalPlan answer = plan instanceof ReturnAnswer r ? r.child() : plan;
    // A bare driver answer is planned by Spark itself as the same local table scan.
    List<InternalRow> rows = answer instanceof DataSourceV2ScanRelation ? null : rowsOf(answer);
    if (rows == null) {
      return CollectionConverters.asScala(List.<SparkPlan>of()).toList();
    }
    return CollectionConverters.asScala(List.of(localTableScan(plan.output(), rows))).toList();
  }

  /** The rows of a driver answer under the operators this evaluates; null for any other plan. */
  private static List<InternalRow> rowsOf(LogicalPlan plan) {
    if (plan instanceof DataSourceV2ScanRelation r) {
      return r.scan() instanceof DriverAnswer answer ? Arrays.asList(answer.rows()) : null;
    }
    RowStep step = RowStep.of(plan);
    if (step == null) {
      return null;
    }
    LogicalPlan child = plan.children().head();
    List<InternalRow> in = rowsOf(child);
    return in == null ? null : step.apply(in, child.output());
  }

  /** LocalTableScanExec takes (output, rows) in Spark 3.5 and (output, rows, stream) in Spark 4. */
  private static final Constructor<?> LOCAL_TABLE_SCAN = LocalTableScanExec.class.getConstructors()[0];

  private static SparkPlan localTableScan(Seq<Attribute> output, List<InternalRow> rows) {
    Object[] args = LOCAL_TABLE_SCAN.getParameterCount() == 2
        ? new Object[] {output, CollectionConverters.asScala(rows).toList()}
        : new Object[] {output, CollectionConverters.asScala(rows).toList(), scala.Option.empty()};
    try {
      return (SparkPlan) LOCAL_TABLE_SCAN.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make Spark's LocalTableScanExec", e);
    }
  }
}
