package io.github.sparkzarr.spark.read;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.plans.physical.Partitioning;
import org.apache.spark.sql.catalyst.plans.physical.SinglePartition$;
import org.apache.spark.sql.execution.LocalTableScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import scala.collection.Iterator;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction2;

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

  /**
   * The child's rows, as its {@code executeCollect} would return them. Spark's collect cleans the
   * closures of its job first, and each cleaning reads and parses the class file of the class
   * that wrote the closure (RDD's, SparkContext's): about 5 ms of the driver's time in every query
   * on the machines of docs/benchmarks.md. The jobs here run named functions, which the cleaner
   * has nothing to inspect in; a columnar scan's rows come from its batches ({@link ScanBatchRows}).
   * A local table scan has its rows already and needs no job.
   */
  protected InternalRow[] collectChild() {
    if (child instanceof LocalTableScanExec) {
      return child.executeCollect();
    }
    ScanBatchRows scan = ScanBatchRows.of(child);
    return scan != null ? scan.collect() : runJob(child.execute(), new CopiedRows());
  }

  /** The rows {@code rowsOfTask} returns for each partition of {@code rdd}, in partition order. */
  static InternalRow[] runJob(RDD<InternalRow> rdd,
      AbstractFunction2<TaskContext, Iterator<InternalRow>, InternalRow[]> rowsOfTask) {
    Seq<Object> partitions = CollectionConverters.asScala(
        IntStream.range(0, rdd.partitions().length).<Object>mapToObj(i -> i).toList()).toList();
    InternalRow[][] parts = (InternalRow[][]) rdd.sparkContext().runJob(rdd, rowsOfTask, partitions,
        ClassTag$.MODULE$.apply(InternalRow[].class));
    List<InternalRow> all = new ArrayList<>();
    for (InternalRow[] part : parts) {
      all.addAll(Arrays.asList(part));
    }
    return all.toArray(new InternalRow[0]);
  }

  /** A task's rows, copied: a plan may reuse one row object for all its rows. A named class: no closure to clean. */
  private static final class CopiedRows extends AbstractFunction2<TaskContext, Iterator<InternalRow>, InternalRow[]>
      implements Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public InternalRow[] apply(TaskContext context, Iterator<InternalRow> rows) {
      List<InternalRow> copies = new ArrayList<>();
      while (rows.hasNext()) {
        copies.add(rows.next().copy());
      }
      return copies.toArray(new InternalRow[0]);
    }
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
