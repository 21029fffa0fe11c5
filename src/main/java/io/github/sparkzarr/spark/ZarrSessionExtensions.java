package io.github.sparkzarr.spark;

import io.github.sparkzarr.spark.read.DriverAnswerStrategy;
import io.github.sparkzarr.spark.read.DriverMergeStrategy;
import io.github.sparkzarr.spark.read.ShuffleMergeStrategy;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.SparkSessionExtensionsProvider;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * What the connector adds to every Spark session that has it on its class path: Spark finds it
 * through {@code META-INF/services} (Spark 3.2 and later), with no {@code spark.sql.extensions}
 * setting. It only plans the connector's own small answers without a job
 * ({@link DriverAnswerStrategy}) and finishes aggregates of few partial rows on the driver
 * ({@link DriverMergeStrategy}), and merges many of them after the shuffle in one step
 * ({@link ShuffleMergeStrategy}); every other plan is left as Spark makes it.
 */
public final class ZarrSessionExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit>
    implements SparkSessionExtensionsProvider {
  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectPlannerStrategy(session -> new DriverAnswerStrategy());
    extensions.injectPlannerStrategy(session -> new DriverMergeStrategy());
    extensions.injectPlannerStrategy(session -> new ShuffleMergeStrategy());
    return BoxedUnit.UNIT;
  }
}
