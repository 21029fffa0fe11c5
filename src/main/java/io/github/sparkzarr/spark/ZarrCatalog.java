package io.github.sparkzarr.spark;

import io.github.sparkzarr.spark.options.ZarrReadOptions;
import io.github.sparkzarr.spark.write.ArrayFormat;
import io.github.sparkzarr.spark.write.WriteMode;
import io.github.sparkzarr.spark.write.WritePlanner;
import io.github.sparkzarr.spark.write.ZarrChunkFunction;
import io.github.sparkzarr.spark.write.ZarrTarget;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchFunctionException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.FunctionCatalog;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Zarr stores as a Spark catalog: {@code spark.sql.catalog.zarr=io.github.sparkzarr.spark.ZarrCatalog}.
 *
 * <ul>
 *   <li>Path identifiers, {@code zarr.`/data/out.zarr`}: the group or array at that path.
 *   <li>With {@code spark.sql.catalog.zarr.root=<uri>}: groups below the root are namespaces, and
 *       arrays and datasets (groups holding arrays) are tables: {@code zarr.grp.sub.ds}.
 *   <li>Function {@code zarr_chunk}, which writes cluster by.
 * </ul>
 *
 * Tables are created with the write options as table properties (dimensions, chunks, compressor,
 * ...). CTAS and RTAS are staged: nothing is visible until the write's job commit.
 */
public final class ZarrCatalog implements StagingTableCatalog, SupportsNamespaces, FunctionCatalog {
  public static final String ROOT = "root";
  /** Table properties Spark adds that are not write options. */
  private static final Set<String> RESERVED = Set.of(TableCatalog.PROP_PROVIDER,
      TableCatalog.PROP_LOCATION, TableCatalog.PROP_OWNER, TableCatalog.PROP_COMMENT,
      TableCatalog.PROP_EXTERNAL, TableCatalog.PROP_IS_MANAGED_LOCATION, "collation", "path");

  private String name;
  private String root;
  private Map<String, String> options = Map.of();

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    this.name = name;
    Map<String, String> o = new HashMap<>(options.asCaseSensitiveMap());
    this.root = o.remove(ROOT);
    this.options = Map.copyOf(o);
  }

  @Override
  public String name() {
    return name;
  }

  // ---- where identifiers point ----------------------------------------------------------

  /** A resolved identifier: the store root, the node inside it, and the table options. */
  private record Node(String storeUri, String path, Map<String, String> tableOptions, boolean lenient) {
    String fullPath() {
      return path.isEmpty() ? storeUri : storeUri.replaceAll("/+$", "") + "/" + path;
    }
  }

  private Node resolve(Identifier ident) {
    if (PathIdentifiers.isPath(ident)) {
      Map<String, String> o = new HashMap<>(options);
      o.putAll(PathIdentifiers.options(ident));
      return new Node(ident.name(), "", o, true);
    }
    if (ident.namespace().length == 0 && (root == null || looksLikePath(ident.name()))) {
      return new Node(ident.name(), "", options, false);
    }
    return new Node(requireRoot(ident.toString()), StoreKeys.join(String.join("/", ident.namespace()),
        ident.name()), options, false);
  }

  private static boolean looksLikePath(String name) {
    return name.contains("/") || name.contains(":");
  }

  private String requireRoot(String what) {
    if (root == null) {
      throw new IllegalArgumentException("catalog '" + name + "' has no root, so '" + what
          + "' cannot be resolved: set spark.sql.catalog." + name + ".root=<uri>, or use a path "
          + "identifier such as " + name + ".`/data/store.zarr`");
    }
    return root;
  }

  private Configuration conf(Map<String, String> tableOptions) {
    Configuration conf = SessionHadoopConf.create();
    ZarrReadOptions.parse(withPath(tableOptions, "unused")).applyTo(conf);
    return conf;
  }

  private static Map<String, String> withPath(Map<String, String> o, String path) {
    Map<String, String> out = new HashMap<>(o);
    out.put(ZarrReadOptions.PATH, path);
    return out;
  }

  private HadoopStore store(String uri, Map<String, String> tableOptions) {
    try {
      return new HadoopStore(uri, conf(tableOptions));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open " + uri + ": " + e.getMessage(), e);
    }
  }

  private ZarrHierarchy.NodeType nodeType(Node n) {
    try {
      return ZarrHierarchy.open(store(n.storeUri(), n.tableOptions())).nodeType(n.path()).orElse(null);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + n.fullPath() + ": " + e.getMessage(), e);
    }
  }

  private ZarrTarget target(Node n, Map<String, String> properties) {
    ZarrReadOptions read = ZarrReadOptions.parse(withPath(n.tableOptions(), n.fullPath()));
    HadoopStore s = store(n.storeUri(), n.tableOptions());
    Map<String, String> defaults = new LinkedHashMap<>();
    properties.forEach((k, v) -> {
      String key = k.startsWith(TableCatalog.OPTION_PREFIX) ? k.substring(TableCatalog.OPTION_PREFIX.length()) : k;
      if (!RESERVED.contains(key.toLowerCase(Locale.ROOT))) {
        defaults.put(key, v);
      }
    });
    return new ZarrTarget(s.location() + (n.path().isEmpty() ? "" : "/" + n.path()), n.storeUri(),
        n.path(), read.hadoopSettings(), defaults);
  }

  // ---- tables ----------------------------------------------------------------------------

  /**
   * A missing table is an error, except for a DataFrame API path being written: append and
   * overwrite create paths that do not exist yet, so there it is a new, empty table.
   */
  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    Node n = resolve(ident);
    boolean read = n.lenient() && PathIdentifiers.takeReadMark(ident);
    if (nodeType(n) == null) {
      if (!n.lenient()) {
        throw new NoSuchTableException(ident);
      }
      if (!read) {
        return new ZarrNewTable(ident.name(), new StructType(), target(n, Map.of()), WriteMode.APPEND);
      }
    }
    return ZarrTable.open(ZarrReadOptions.parse(withPath(n.tableOptions(), n.fullPath())));
  }

  @Override
  public boolean tableExists(Identifier ident) {
    return nodeType(resolve(ident)) != null;
  }

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    String group = group(namespace);
    List<Identifier> out = new ArrayList<>();
    try {
      ZarrHierarchy h = ZarrHierarchy.open(store(root, options));
      for (String child : h.children(group)) {
        String leaf = child.substring(child.lastIndexOf('/') + 1);
        boolean array = h.nodeType(child).orElse(null) == ZarrHierarchy.NodeType.ARRAY;
        boolean dataset = !array && h.children(child).stream().anyMatch(c -> isArray(h, c));
        if (array || dataset) {
          out.add(Identifier.of(namespace, leaf));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toArray(new Identifier[0]);
  }

  private static boolean isArray(ZarrHierarchy h, String path) {
    try {
      return h.nodeType(path).orElse(null) == ZarrHierarchy.NodeType.ARRAY;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** CREATE TABLE without data: writes the group and empty arrays (shape from 'shape', else 0). */
  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException {
    noPartitions(partitions);
    Node n = resolve(ident);
    if (nodeType(n) != null) {
      throw new TableAlreadyExistsException(ident);
    }
    ZarrTarget t = target(n, properties);
    var plan = WritePlanner.plan(t, schema, Map.of(), WriteMode.CREATE, "create-" + UUID.randomUUID());
    try {
      io.github.sparkzarr.spark.write.EmptyCommit.commit(plan, t.hadoopConf());
      return loadTable(ident);
    } catch (IOException | NoSuchTableException e) {
      throw new IllegalStateException("cannot create " + t.location() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Table createTable(Identifier ident, Column[] columns, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException {
    return createTable(ident, structOf(columns), partitions, properties);
  }

  @Override
  public StagedTable stageCreate(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException {
    noPartitions(partitions);
    Node n = resolve(ident);
    if (nodeType(n) != null) {
      throw new TableAlreadyExistsException(ident);
    }
    return new ZarrNewTable(ident.name(), schema, target(n, properties), WriteMode.CREATE);
  }

  @Override
  public StagedTable stageCreate(Identifier ident, Column[] columns, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException {
    return stageCreate(ident, structOf(columns), partitions, properties);
  }

  @Override
  public StagedTable stageReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws NoSuchTableException {
    noPartitions(partitions);
    Node n = resolve(ident);
    if (nodeType(n) == null) {
      throw new NoSuchTableException(ident);
    }
    return new ZarrNewTable(ident.name(), schema, target(n, properties), WriteMode.OVERWRITE);
  }

  @Override
  public StagedTable stageReplace(Identifier ident, Column[] columns, Transform[] partitions,
      Map<String, String> properties) throws NoSuchTableException {
    return stageReplace(ident, structOf(columns), partitions, properties);
  }

  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) {
    noPartitions(partitions);
    return new ZarrNewTable(ident.name(), schema, target(resolve(ident), properties), WriteMode.OVERWRITE);
  }

  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, Column[] columns, Transform[] partitions,
      Map<String, String> properties) {
    return stageCreateOrReplace(ident, structOf(columns), partitions, properties);
  }

  private static StructType structOf(Column[] columns) {
    List<StructField> fields = new ArrayList<>();
    for (Column c : columns) {
      fields.add(DataTypes.createStructField(c.name(), c.dataType(), c.nullable()));
    }
    return DataTypes.createStructType(fields);
  }

  private static void noPartitions(Transform[] partitions) {
    if (partitions != null && partitions.length > 0) {
      throw new IllegalArgumentException("zarr tables are not partitioned (a chunk grid replaces "
          + "partitioning; give 'chunks' instead): " + Arrays.toString(partitions));
    }
  }

  @Override
  public boolean dropTable(Identifier ident) {
    Node n = resolve(ident);
    if (nodeType(n) == null) {
      return false;
    }
    try {
      HadoopStore s = store(n.storeUri(), n.tableOptions());
      if (n.path().isEmpty()) {
        s.fileSystem().delete(s.root(), true);
      } else {
        s.deletePrefix(StoreKeys.dir(n.path()));
        reconsolidate(s);
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot drop " + n.fullPath() + ": " + e.getMessage(), e);
    }
  }

  /** Keeps a consolidated root in step after a node was added or removed. */
  private static void reconsolidate(HadoopStore s) throws IOException {
    if (s.exists(V2Metadata.CONSOLIDATED_KEY)) {
      ArrayFormat.of(2).consolidate(s);
    }
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) {
    throw new UnsupportedOperationException("ALTER TABLE is not supported by zarr tables; "
        + "rewrite the table instead");
  }

  @Override
  public void renameTable(Identifier oldIdent, Identifier newIdent) {
    throw new UnsupportedOperationException("RENAME TABLE is not supported by zarr tables");
  }

  // ---- namespaces: the groups below the root ----------------------------------------------

  private String group(String[] namespace) throws NoSuchNamespaceException {
    requireRoot(String.join(".", namespace));
    String g = String.join("/", namespace);
    if (!groupExists(g)) {
      throw new NoSuchNamespaceException(namespace);
    }
    return g;
  }

  private boolean groupExists(String g) {
    try {
      return ZarrHierarchy.open(store(root, options)).nodeType(g).orElse(null)
          == ZarrHierarchy.NodeType.GROUP;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String[][] listNamespaces() throws NoSuchNamespaceException {
    return listNamespaces(new String[0]);
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    String group = group(namespace);
    List<String[]> out = new ArrayList<>();
    try {
      ZarrHierarchy h = ZarrHierarchy.open(store(root, options));
      for (String child : h.children(group)) {
        if (h.nodeType(child).orElse(null) == ZarrHierarchy.NodeType.GROUP) {
          String[] ns = Arrays.copyOf(namespace, namespace.length + 1);
          ns[namespace.length] = child.substring(child.lastIndexOf('/') + 1);
          out.add(ns);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toArray(new String[0][]);
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    return root != null && groupExists(String.join("/", namespace));
  }

  /** The group's attributes, JSON values as text. */
  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace) throws NoSuchNamespaceException {
    String group = group(namespace);
    Map<String, String> out = new LinkedHashMap<>();
    try {
      ZarrHierarchy.open(store(root, options)).openGroup(group).attributes().fields()
          .forEachRemaining(e -> out.put(e.getKey(),
              e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** Writes the group (and missing parents); namespace properties become string attributes. */
  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata)
      throws NamespaceAlreadyExistsException {
    requireRoot(String.join(".", namespace));
    if (groupExists(String.join("/", namespace))) {
      throw new NamespaceAlreadyExistsException(namespace);
    }
    try {
      HadoopStore s = store(root, options);
      ArrayFormat format = ArrayFormat.of(2);
      for (int i = 0; i <= namespace.length; i++) {
        String g = String.join("/", Arrays.copyOf(namespace, i));
        if (!groupExists(g)) {
          var attrs = Json.object();
          if (i == namespace.length) {
            metadata.forEach((k, v) -> {
              if (!RESERVED.contains(k)) {
                attrs.put(k, v);
              }
            });
          }
          format.writeGroup(s, g, attrs);
        }
      }
      reconsolidate(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) {
    throw new UnsupportedOperationException("ALTER NAMESPACE is not supported by zarr groups");
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade)
      throws NoSuchNamespaceException, NonEmptyNamespaceException {
    String group = group(namespace);
    try {
      HadoopStore s = store(root, options);
      if (!cascade && !ZarrHierarchy.open(s).children(group).isEmpty()) {
        throw new NonEmptyNamespaceException(namespace);
      }
      if (group.isEmpty()) {
        throw new IllegalArgumentException("the root group of catalog '" + name + "' cannot be dropped");
      }
      s.deletePrefix(StoreKeys.dir(group));
      reconsolidate(s);
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- functions ---------------------------------------------------------------------------

  @Override
  public Identifier[] listFunctions(String[] namespace) {
    return new Identifier[] {Identifier.of(namespace, ZarrChunkFunction.NAME)};
  }

  @Override
  public UnboundFunction loadFunction(Identifier ident) throws NoSuchFunctionException {
    if (ident.name().equalsIgnoreCase(ZarrChunkFunction.NAME)) {
      return new ZarrChunkFunction();
    }
    throw new NoSuchFunctionException(ident);
  }
}
