package io.github.sparkzarr.spark;

import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.SupportsCatalogOptions;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * {@code spark.read.format("zarr").load(path)} and {@code df.write.format("zarr").save(path)}.
 * Both go through a {@link ZarrCatalog} ({@link SupportsCatalogOptions}): a write can only be
 * clustered by the catalog's {@code zarr_chunk} function when its relation has a function catalog.
 * The catalog is the session's {@code zarr} catalog when configured, else one registered under
 * {@value #FALLBACK_CATALOG}. The schema always comes from the store, so a user schema is refused.
 */
public final class ZarrDataSource implements SupportsCatalogOptions, DataSourceRegister {
  static final String FALLBACK_CATALOG = "spark_zarr";
  private static final String CATALOG_CONF = "spark.sql.catalog.";

  @Override
  public String shortName() {
    return "zarr";
  }

  @Override
  public Identifier extractIdentifier(CaseInsensitiveStringMap options) {
    return PathIdentifiers.of(options.asCaseSensitiveMap());
  }

  @Override
  public String extractCatalog(CaseInsensitiveStringMap options) {
    var conf = SparkSession.active().conf();
    String configured = conf.getOption(CATALOG_CONF + "zarr").getOrElse(() -> null);
    if (ZarrCatalog.class.getName().equals(configured)) {
      return "zarr";
    }
    if (conf.getOption(CATALOG_CONF + FALLBACK_CATALOG).isEmpty()) {
      conf.set(CATALOG_CONF + FALLBACK_CATALOG, ZarrCatalog.class.getName());
    }
    return FALLBACK_CATALOG;
  }

  /** Called only by reads, just before the table is loaded: see {@link PathIdentifiers#markRead}. */
  @Override
  public java.util.Optional<String> extractTimeTravelVersion(CaseInsensitiveStringMap options) {
    PathIdentifiers.markRead(extractIdentifier(options));
    return java.util.Optional.empty();
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return table(options.asCaseSensitiveMap()).schema();
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return table(properties);
  }

  private static ZarrTable table(Map<String, String> options) {
    return ZarrTable.open(io.github.sparkzarr.spark.options.ZarrReadOptions.parse(options));
  }

  @Override
  public boolean supportsExternalMetadata() {
    return false;
  }
}
