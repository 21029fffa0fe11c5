package io.github.sparkzarr.spark;

import io.github.sparkzarr.spark.options.ZarrReadOptions;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Lets SQL query a store by path: with {@code spark.sql.catalog.zarr=io.github.sparkzarr.spark.ZarrCatalog},
 * {@code SELECT ... FROM zarr.`/data/store.zarr`} reads it (a group as its dataset view, an array
 * as one table). Spark's {@code format.`path`} shortcut works only for file sources, so a
 * catalog is needed. Read-only for now; catalog options ({@code spark.sql.catalog.zarr.<option>})
 * apply to every read.
 */
public final class ZarrCatalog implements TableCatalog {
  private String name;
  private Map<String, String> options = Map.of();

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    this.name = name;
    this.options = Map.copyOf(options.asCaseSensitiveMap());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Table loadTable(Identifier ident) {
    Map<String, String> read = new HashMap<>(options);
    String path = ident.namespace().length == 0 ? ident.name()
        : String.join("/", ident.namespace()) + "/" + ident.name();
    read.put(ZarrReadOptions.PATH, path);
    return ZarrTable.open(ZarrReadOptions.parse(read));
  }

  @Override
  public Identifier[] listTables(String[] namespace) {
    return new Identifier[0];
  }

  /** Abstract in Spark 3.5 (4.x routes its Column[] variant here). */
  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) {
    throw new UnsupportedOperationException("the zarr catalog is read-only");
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) {
    throw new UnsupportedOperationException("the zarr catalog is read-only");
  }

  @Override
  public boolean dropTable(Identifier ident) {
    throw new UnsupportedOperationException("the zarr catalog is read-only");
  }

  @Override
  public void renameTable(Identifier oldIdent, Identifier newIdent) {
    throw new UnsupportedOperationException("the zarr catalog is read-only");
  }
}
