package io.github.sparkzarr.spark;

import io.github.sparkzarr.spark.options.ZarrReadOptions;
import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * {@code spark.read.format("zarr").load(path)}: the schema always comes from the store's
 * metadata, so a user-given schema is refused.
 */
public final class ZarrDataSource implements TableProvider, DataSourceRegister {
  /** Spark asks for the schema and then the table with the same options: open once. */
  private Map<String, String> lastOptions;
  private ZarrTable lastTable;

  @Override
  public String shortName() {
    return "zarr";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return table(options.asCaseSensitiveMap()).schema();
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return table(properties);
  }

  private synchronized ZarrTable table(Map<String, String> options) {
    if (lastTable == null || !options.equals(lastOptions)) {
      lastTable = ZarrTable.open(ZarrReadOptions.parse(options));
      lastOptions = Map.copyOf(options);
    }
    return lastTable;
  }

  @Override
  public boolean supportsExternalMetadata() {
    return false;
  }
}
