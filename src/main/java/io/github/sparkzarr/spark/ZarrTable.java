package io.github.sparkzarr.spark;

import io.github.sparkzarr.spark.options.ZarrReadOptions;
import io.github.sparkzarr.spark.read.ConfBroadcast;
import io.github.sparkzarr.spark.read.ZarrScanBuilder;
import io.github.sparkzarr.spark.schema.DatasetView;
import io.github.sparkzarr.spark.schema.DatasetViews;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.github.sparkzarr.spark.write.WriteMode;
import io.github.sparkzarr.spark.write.ZarrTarget;
import io.github.sparkzarr.spark.write.ZarrWriteBuilder;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.connector.catalog.SupportsMetadataColumns;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Zarr array or group as a table: one array (position columns and a value column) or a group's
 * dataset view. Metadata is read here, once, on the driver.
 */
public final class ZarrTable implements SupportsRead, SupportsWrite, SupportsMetadataColumns {
  private final ZarrReadOptions options;
  private final Configuration conf;
  private final HadoopStore store;
  private final DatasetView view;
  private final String name;
  private final ZarrTarget target;
  private final ConfBroadcast confBroadcast;

  private ZarrTable(ZarrReadOptions options, Configuration conf, HadoopStore store, DatasetView view,
      String name, ZarrTarget target) {
    this.options = options;
    this.conf = conf;
    this.store = store;
    this.view = view;
    this.name = name;
    this.target = target;
    this.confBroadcast = new ConfBroadcast(conf);
  }

  /** Opens what {@code options} point at; errors name the location, never credentials. */
  public static ZarrTable open(ZarrReadOptions options) {
    Configuration conf = SessionHadoopConf.create();
    options.applyTo(conf);
    try {
      Path loaded = new Path(options.path());
      FileSystem fs = loaded.getFileSystem(conf);
      // Climb to the store root while the parent is a group, so consolidated metadata is used
      // and an array keeps its name when loaded by its own path.
      Path root = fs.makeQualified(loaded);
      String inside = "";
      while (root.getParent() != null && isGroup(fs, root.getParent())) {
        inside = StoreKeys.join(root.getName(), inside);
        root = root.getParent();
      }
      HadoopStore store = new HadoopStore(root, conf);
      ZarrHierarchy h = ZarrHierarchy.open(store, options.zarrFormat());
      String location = new HadoopStore(fs.makeQualified(loaded), conf).location();
      String target = options.array() == null ? inside : StoreKeys.join(inside, options.array());
      ZarrHierarchy.NodeType type = h.nodeType(target).orElseThrow(() -> new IllegalArgumentException(
          "no Zarr array or group at " + location
              + (options.array() == null ? "" : " (option array = '" + options.array() + "')")));
      String uri = root.toString();
      DatasetView view;
      if (type == ZarrHierarchy.NodeType.ARRAY) {
        String column = target.isEmpty() ? "value" : target.substring(target.lastIndexOf('/') + 1);
        view = DatasetViews.ofArray(location, uri, h.openArray(target), column, options.decodeCF());
      } else if (options.array() != null) {
        throw new IllegalArgumentException("option array = '" + options.array() + "' names a group in "
            + location + ", not an array");
      } else {
        view = DatasetViews.ofGroup(location, uri, h, target, options.variables(), options.decodeCF());
      }
      String name = "zarr." + location + (options.array() == null ? "" : "[" + options.array() + "]");
      ZarrTarget writeTarget = new ZarrTarget(location, uri, target, options.hadoopSettings(), Map.of());
      return new ZarrTable(options, conf, store, view, name, writeTarget);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Zarr metadata at " + options.path() + ": "
          + e.getMessage(), e);
    }
  }

  public DatasetView view() {
    return view;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public StructType schema() {
    return view.schema();
  }

  @Override
  public Column[] columns() {
    List<Column> out = new ArrayList<>();
    for (StructField f : schema().fields()) {
      // Field metadata (dimension marks, attributes) travels as JSON in a v2 column.
      out.add(Column.create(f.name(), f.dataType(), f.nullable(), null, f.metadata().json()));
    }
    return out.toArray(new Column[0]);
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE,
        TableCapability.TRUNCATE, TableCapability.ACCEPT_ANY_SCHEMA);
  }

  /** Appends (INSERT INTO, mode append) by default; truncate makes it an overwrite. */
  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new ZarrWriteBuilder(target, info, WriteMode.APPEND);
  }

  /** What DESCRIBE TABLE EXTENDED shows: the grid, codecs and attributes of the arrays. */
  @Override
  public Map<String, String> properties() {
    return TableProperties.of(view);
  }

  @Override
  public MetadataColumn[] metadataColumns() {
    List<MetadataColumn> out = new ArrayList<>();
    for (DatasetView.Dimension d : view.dims()) {
      if (d.indexColumn() != null) {
        out.add(new PositionColumn(d.indexColumn()));
      }
    }
    return out.toArray(new MetadataColumn[0]);
  }

  /** The hidden {@code <dim>_index} column: a position along a dimension that has coordinates. */
  private record PositionColumn(String name) implements MetadataColumn {
    @Override
    public DataType dataType() {
      return DataTypes.LongType;
    }

    @Override
    public boolean isNullable() {
      return false;
    }

    @Override
    public String comment() {
      return "position along the dimension";
    }
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
    StructType full = schema();
    for (MetadataColumn m : metadataColumns()) {
      full = full.add(m.name(), m.dataType(), m.isNullable());
    }
    return new ZarrScanBuilder(view, store, options, confBroadcast, full);
  }

  @Override
  public String toString() {
    return name;
  }

  /**
   * A v2 group (.zgroup) or a v3 node (zarr.json; only groups have children). Sizes, not exists:
   * over HTTP every path "exists".
   */
  private static boolean isGroup(FileSystem fs, Path dir) throws IOException {
    return HadoopStore.fileSize(fs, new Path(dir, ".zgroup")).isPresent()
        || HadoopStore.fileSize(fs, new Path(dir, "zarr.json")).isPresent();
  }
}
