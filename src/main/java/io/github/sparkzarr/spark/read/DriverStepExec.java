package io.github.sparkzarr.spark.read;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.execution.SparkPlan;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A projection, filter, global sort or limit ({@link RowStep}) over a {@link DriverRowsExec},
 * evaluated on the driver: {@code ORDER BY}, {@code HAVING} or {@code LIMIT} over an aggregate
 * that {@link DriverMergeExec} finishes would otherwise run a second job of one task. Planned by
 * {@link DriverMergeStrategy}; {@code EXPLAIN} shows it as {@code DriverSort}, {@code
 * DriverFilter}, {@code DriverProject} or {@code DriverLimit}.
 */
public final class DriverStepExec extends DriverRowsExec {
  private final RowStep step;

  public DriverStepExec(RowStep step, SparkPlan child) {
    super(child);
    this.step = step;
  }

  @Override
  public InternalRow[] executeCollect() {
    return step.apply(Arrays.asList(child.executeCollect()), child.output()).toArray(new InternalRow[0]);
  }

  @Override
  public Seq<Attribute> output() {
    return step.output(child.output());
  }

  /** A sort's order; a filter or limit keeps its child's. */
  @Override
  public Seq<SortOrder> outputOrdering() {
    return switch (step.kind()) {
      case SORT -> step.sortOrder();
      case FILTER, LIMIT -> child.outputOrdering();
      case PROJECT -> CollectionConverters.asScala(List.<SortOrder>of()).toList();
    };
  }

  @Override
  public String nodeName() {
    String kind = step.kind().name();
    return "Driver" + kind.charAt(0) + kind.substring(1).toLowerCase(java.util.Locale.ROOT);
  }

  @Override
  public SparkPlan withNewChildrenInternal(IndexedSeq<SparkPlan> newChildren) {
    return new DriverStepExec(step, newChildren.head());
  }

  @Override
  public int productArity() {
    return 2;
  }

  @Override
  public Object productElement(int n) {
    return switch (n) {
      case 0 -> step;
      case 1 -> child;
      default -> throw new IndexOutOfBoundsException(n);
    };
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof DriverStepExec;
  }
}
