package io.github.sparkzarr.spark.read;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.execution.ColumnarToRowExec;
import org.apache.spark.sql.execution.InputAdapter;
import org.apache.spark.sql.execution.ProjectExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.collection.Iterator;
import scala.collection.immutable.Seq;
import scala.runtime.AbstractFunction2;

/**
 * The few rows of a columnar DSv2 scan under Spark's row conversion (whole-stage code over a
 * projection of {@code ColumnarToRow}), collected from the scan's batches by a job of their own
 * and projected on the driver. Collecting the plan itself costs every query about 4 ms of the
 * driver's time for rows that fit in one batch: generating the whole-stage code, and cleaning
 * the closures of the conversion's {@code RDD.map} and {@code mapPartitionsWithIndex} (Spark reads
 * and parses a class file for each). Any other plan shape is not handled ({@link #of} is null).
 */
final class ScanBatchRows {
  private final BatchScanExec scan;
  private final Seq<Expression> projection;

  private ScanBatchRows(BatchScanExec scan, Seq<Expression> projection) {
    this.scan = scan;
    this.projection = projection;
  }

  /** The scan below {@code plan} and the projection above it, or null for any other plan. */
  static ScanBatchRows of(SparkPlan plan) {
    SparkPlan p = plan instanceof WholeStageCodegenExec w ? w.child() : plan;
    Seq<Expression> projection = Interpreted.expressions(p.output());
    if (p instanceof ProjectExec project) {
      projection = Interpreted.expressions(project.projectList());
      p = project.child();
    }
    if (!(p instanceof ColumnarToRowExec toRows)) {
      return null;
    }
    p = toRows.child() instanceof InputAdapter a ? a.child() : toRows.child();
    return p instanceof BatchScanExec scan && scan.supportsColumnar() ? new ScanBatchRows(scan, projection) : null;
  }

  /** The rows, as the plan would collect them (unsafe rows of its output). */
  InternalRow[] collect() {
    InternalRow[] scanned = DriverRowsExec.runJob(scan.inputRDD(), new BatchRows(scan.longMetric("numOutputRows")));
    UnsafeProjection project = Interpreted.unsafeProjection(projection, attributes(scan.output()));
    InternalRow[] rows = new InternalRow[scanned.length];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = project.apply(scanned[i]).copy();
    }
    return rows;
  }

  @SuppressWarnings("unchecked")
  private static Seq<Attribute> attributes(Seq<? extends Attribute> output) {
    return (Seq<Attribute>) output;
  }

  /**
   * A task's rows from its batches, copied (a reader reuses its batch), counted in the scan's
   * output-rows metric as Spark's conversion counts them. A named class: no closure to clean.
   */
  private static final class BatchRows extends AbstractFunction2<TaskContext, Iterator<InternalRow>, InternalRow[]>
      implements Serializable {
    private static final long serialVersionUID = 1L;
    private final SQLMetric outputRows;

    BatchRows(SQLMetric outputRows) {
      this.outputRows = outputRows;
    }

    @Override
    public InternalRow[] apply(TaskContext context, Iterator<InternalRow> batches) {
      List<InternalRow> rows = new ArrayList<>();
      while (batches.hasNext()) {
        // A columnar scan's RDD holds batches under Spark's row type (BatchScanExec.inputRDD).
        ColumnarBatch batch = (ColumnarBatch) (Object) batches.next();
        outputRows.add(batch.numRows());
        java.util.Iterator<InternalRow> it = batch.rowIterator();
        while (it.hasNext()) {
          rows.add(it.next().copy());
        }
      }
      return rows.toArray(new InternalRow[0]);
    }
  }
}
