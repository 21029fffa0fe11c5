package io.github.sparkzarr.spark.read;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.plans.physical.Partitioning;
import org.apache.spark.sql.catalyst.plans.physical.SinglePartition$;
import org.apache.spark.sql.execution.SparkPlan;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;

/**
 * A plan whose few result rows the driver computes in {@link #executeCollect}, from its one
 * child's collected rows, with no job of its own. A parent that needs an RDD gets them as one
 * partition.
 */
abstract class DriverRowsExec extends SparkPlan {
  protected final SparkPlan child;

  DriverRowsExec(SparkPlan child) {
    this.child = child;
  }

  @Override
  public abstract InternalRow[] executeCollect();

  @Override
  public InternalRow[] executeTake(int n) {
    InternalRow[] all = executeCollect();
    return Arrays.copyOf(all, Math.min(Math.max(n, 0), all.length));
  }

  @Override
  public RDD<InternalRow> doExecute() {
    return sparkContext().parallelize(CollectionConverters.asScala(Arrays.asList(executeCollect())).toSeq(), 1,
        ClassTag$.MODULE$.apply(InternalRow.class));
  }

  /** One partition (doExecute), so a sort or a join above needs no exchange to gather it. */
  @Override
  public Partitioning outputPartitioning() {
    return SinglePartition$.MODULE$;
  }

  @Override
  public Seq<SparkPlan> children() {
    return CollectionConverters.asScala(List.of(child)).toList();
  }
}
