package io.github.sparkzarr.spark.read;

import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.InterpretedMutableProjection;
import org.apache.spark.sql.catalyst.expressions.Unevaluable;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.execution.LocalTableScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Plans a projection of a {@link DriverAnswer} as the local rows it evaluates to. Spark plans a
 * {@code LocalScan} as a local table scan, but the projection that aggregate push-down puts
 * above it (names, casts, AVG's division) as a whole-stage job of one task: about 30 ms of
 * scheduling for a few rows. Spark collects a local table scan without a job, as it does for a
 * projection of {@code VALUES} (its optimizer's ConvertToLocalRelation), which this mirrors.
 * Registered by {@link io.github.sparkzarr.spark.ZarrSessionExtensions}; any other plan is left to
 * Spark's strategies.
 */
public final class DriverAnswerStrategy extends SparkStrategy {
  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    List<InternalRow> rows = plan instanceof Project ? rowsOf(plan) : null;
    if (rows == null) {
      return CollectionConverters.asScala(List.<SparkPlan>of()).toList();
    }
    return CollectionConverters.asScala(List.of(localTableScan(plan.output(), rows))).toList();
  }

  /** The rows of a driver answer or of projections of one; null for any other plan. */
  private static List<InternalRow> rowsOf(LogicalPlan plan) {
    if (plan instanceof DataSourceV2ScanRelation r && r.scan() instanceof DriverAnswer answer) {
      return Arrays.asList(answer.rows());
    }
    if (!(plan instanceof Project p)) {
      return null;
    }
    // Each NamedExpression is an Expression; Java does not see Scala's trait as a subtype.
    @SuppressWarnings("unchecked")
    Seq<Expression> expressions = (Seq<Expression>) (Seq<?>) p.projectList();
    List<InternalRow> in = CollectionConverters.asJava(expressions).stream().allMatch(DriverAnswerStrategy::evaluable)
        ? rowsOf(p.child()) : null;
    if (in == null) {
      return null;
    }
    InterpretedMutableProjection projection = new InterpretedMutableProjection(expressions, p.child().output());
    projection.initialize(0);
    List<InternalRow> out = new ArrayList<>(in.size());
    for (InternalRow row : in) {
      out.add(projection.apply(row).copy());
    }
    return out;
  }

  /** Deterministic, and computable from a row alone (no subquery, no aggregate left). */
  private static boolean evaluable(Expression e) {
    if (!e.deterministic() || (e instanceof Unevaluable && !(e instanceof AttributeReference))) {
      return false;
    }
    return CollectionConverters.asJava(e.children()).stream().allMatch(DriverAnswerStrategy::evaluable);
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
