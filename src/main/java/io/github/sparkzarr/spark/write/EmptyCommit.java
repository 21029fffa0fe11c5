package io.github.sparkzarr.spark.write;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/** Commits a plan no task ran: CREATE TABLE writes the group and its empty arrays. */
public final class EmptyCommit {
  private EmptyCommit() {}

  public static void commit(WritePlan plan, Configuration conf) throws IOException {
    new JobCommitter(plan, conf).commit(List.of());
  }
}
