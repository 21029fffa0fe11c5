package io.github.sparkzarr.spark.write;

/** What a write does to an existing target. */
public enum WriteMode {
  /** The target must not exist (CREATE TABLE AS SELECT, errorifexists, ignore). */
  CREATE,
  /** Replace whatever is there (overwrite, INSERT OVERWRITE). */
  OVERWRITE,
  /** Add arrays to the group, write into existing arrays, or extend them along append_dim. */
  APPEND
}
