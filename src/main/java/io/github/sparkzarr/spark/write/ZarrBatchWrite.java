package io.github.sparkzarr.spark.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Tasks stage chunks; the job commit ({@link JobCommitter}) publishes them, metadata last; abort
 * restores the target as it was and removes the staging directory.
 */
final class ZarrBatchWrite implements BatchWrite {
  private final WritePlan plan;
  private final Configuration conf;
  private JobCommitter committer;

  ZarrBatchWrite(WritePlan plan, Configuration conf) {
    this.plan = plan;
    this.conf = conf;
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(SparkSession.active().sparkContext());
    return new ZarrDataWriterFactory(plan.layout(), sc.broadcast(new SerializableConfiguration(conf)));
  }

  /** Only one attempt per task may commit, so a chunk is never published twice. */
  @Override
  public boolean useCommitCoordinator() {
    return true;
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    List<ZarrCommitMessage> ours = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      if (m != null) {
        ours.add((ZarrCommitMessage) m);
      }
    }
    try {
      committer().commit(ours);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot commit the write to " + plan.layout().location() + ": "
          + e.getMessage(), e);
    }
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    try {
      committer().abort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot clean up after the failed write to "
          + plan.layout().location() + ": " + e.getMessage(), e);
    }
  }

  private JobCommitter committer() throws IOException {
    if (committer == null) {
      committer = new JobCommitter(plan, conf);
    }
    return committer;
  }
}
