package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.connector.read.LocalScan;

/**
 * A scan whose rows the driver already holds when Spark plans the query: an aggregate answered
 * from metadata or computed on the driver. {@link DriverAnswerStrategy} evaluates the projection
 * Spark puts above it there too, so such a query runs no job.
 */
interface DriverAnswer extends LocalScan {
}
