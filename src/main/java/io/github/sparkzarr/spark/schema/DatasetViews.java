package io.github.sparkzarr.spark.schema;

import io.github.sparkzarr.spark.schema.DatasetView.Dimension;
import io.github.sparkzarr.spark.schema.DatasetView.Variable;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/** Builds the table of one array, or the xarray-style dataset view of a group. */
public final class DatasetViews {
  private DatasetViews() {}

  /**
   * One array: a position column per dimension, then one value column named {@code name}. A
   * dimension named like the array becomes {@code <name>_index}, so names stay unique.
   */
  public static DatasetView ofArray(String location, String storeUri, ZarrArray array, String name,
      boolean decodeCF) {
    ArrayMetadata md = array.metadata();
    ArraySpec spec = new ArraySpec(array);
    Set<String> used = new HashSet<>();
    used.add(name);
    List<Dimension> dims = new ArrayList<>();
    List<String> names = md.dimensionNames();
    int[] order = new int[md.rank()];
    for (int i = 0; i < md.rank(); i++) {
      String dim = names == null || names.get(i) == null ? "dim_" + i : names.get(i);
      String column = unique(dim.equals(name) ? dim + "_index" : dim, used);
      dims.add(new Dimension(dim, md.shape()[i], column, null, null, DataTypes.LongType, null));
      order[i] = i;
    }
    CfDecoding cf = decodeCF ? CfDecoding.of(name, md, false) : null;
    Variable v = new Variable(name, spec, order, cf, valueType(md, cf));
    return new DatasetView(location, storeUri, dims, List.of(v), md.chunkShape());
  }

  private static String unique(String name, Set<String> used) {
    String out = name;
    for (int i = 1; !used.add(out); i++) {
      out = name + "_" + i;
    }
    return out;
  }

  private static DataType valueType(ArrayMetadata md, CfDecoding cf) {
    DataType raw = SparkTypes.of(md.dataType());
    return cf == null ? raw : cf.sparkType(raw);
  }

  /**
   * The dataset view of the group at {@code group}: 1-D arrays named like their dimension are
   * coordinates; the other arrays are data variables over the dimensions of the one with the most.
   */
  public static DatasetView ofGroup(String location, String storeUri, ZarrHierarchy h, String group,
      List<String> variables, boolean decodeCF) throws IOException {
    Map<String, ZarrArray> arrays = new TreeMap<>();
    for (String child : h.children(group)) {
      if (h.nodeType(child).orElse(null) == ZarrHierarchy.NodeType.ARRAY) {
        ZarrArray a = h.openArray(child);
        arrays.put(a.path().substring(a.path().lastIndexOf('/') + 1), a);
      }
    }
    Map<String, ZarrArray> coords = new TreeMap<>();
    Map<String, ZarrArray> data = new LinkedHashMap<>();
    for (Map.Entry<String, ZarrArray> e : arrays.entrySet()) {
      List<String> dn = e.getValue().metadata().dimensionNames();
      if (dn != null && dn.size() == 1 && e.getKey().equals(dn.get(0))) {
        coords.put(e.getKey(), e.getValue());
      } else {
        data.put(e.getKey(), e.getValue());
      }
    }
    if (variables != null) {
      Map<String, ZarrArray> chosen = new LinkedHashMap<>();
      for (String v : variables) {
        ZarrArray a = data.get(v);
        if (a == null) {
          throw new IllegalArgumentException("option 'variables' names '" + v
              + "', which is not a data variable of " + location + " (data variables: "
              + String.join(", ", data.keySet()) + ")");
        }
        chosen.put(v, a);
      }
      data = chosen;
    }
    if (data.isEmpty()) {
      throw new IllegalArgumentException("the group at " + location + " has no data variables "
          + "(arrays: " + String.join(", ", arrays.keySet())
          + "); read one array with option(\"array\", name)");
    }
    List<String> tableDims = tableDimensions(location, data);
    List<String> misfits = new ArrayList<>();
    for (Map.Entry<String, ZarrArray> e : data.entrySet()) {
      List<String> dn = e.getValue().metadata().dimensionNames();
      if (dn == null || !tableDims.containsAll(dn) || new HashSet<>(dn).size() != dn.size()) {
        misfits.add(e.getKey() + dimsText(dn));
      }
    }
    if (!misfits.isEmpty()) {
      throw new IllegalArgumentException("the arrays " + misfits + " of " + location
          + " do not share the dimensions " + tableDims + " of the other data variables. Select "
          + "the data variables to read together with option(\"variables\", \"a,b\"), or read one "
          + "array with option(\"array\", name).");
    }
    List<Dimension> dims = new ArrayList<>();
    int[] plan = new int[tableDims.size()];
    ZarrArray main = data.values().stream()
        .filter(a -> a.metadata().dimensionNames().equals(tableDims)).findFirst().orElseThrow();
    long[] mainShape = main.metadata().shape();
    for (int i = 0; i < tableDims.size(); i++) {
      String d = tableDims.get(i);
      ZarrArray coord = coords.get(d);
      plan[i] = main.metadata().chunkShape()[i];
      if (coord == null || coord.metadata().shape()[0] != mainShape[i]) {
        dims.add(new Dimension(d, mainShape[i], d, null, null, DataTypes.LongType, null));
      } else {
        CfDecoding cf = decodeCF ? CfDecoding.of(d, coord.metadata(), true) : null;
        String index = data.containsKey(d + "_index") ? null : d + "_index";
        dims.add(new Dimension(d, mainShape[i], d, new ArraySpec(coord), cf,
            valueType(coord.metadata(), cf), index));
      }
    }
    List<Variable> vars = new ArrayList<>();
    for (Map.Entry<String, ZarrArray> e : data.entrySet()) {
      ArrayMetadata md = e.getValue().metadata();
      List<String> dn = md.dimensionNames();
      int[] map = new int[dn.size()];
      for (int k = 0; k < map.length; k++) {
        map[k] = tableDims.indexOf(dn.get(k));
        if (md.shape()[k] != mainShape[map[k]]) {
          throw new IllegalArgumentException("array '" + e.getKey() + "' has length "
              + md.shape()[k] + " along '" + dn.get(k) + "', other variables " + mainShape[map[k]]
              + "; read it alone with option(\"array\", \"" + e.getKey() + "\")");
        }
      }
      CfDecoding cf = decodeCF ? CfDecoding.of(e.getKey(), md, true) : null;
      vars.add(new Variable(e.getKey(), new ArraySpec(e.getValue()), map, cf, valueType(md, cf)));
    }
    return new DatasetView(location, storeUri, dims, vars, plan);
  }

  /** The dimensions of the data variable with the most (the first such, by name). */
  private static List<String> tableDimensions(String location, Map<String, ZarrArray> data) {
    List<String> best = null;
    for (ZarrArray a : data.values()) {
      List<String> dn = a.metadata().dimensionNames();
      if (dn != null && !dn.contains(null) && (best == null || dn.size() > best.size())) {
        best = dn;
      }
    }
    if (best == null) {
      throw new IllegalArgumentException("the arrays of " + location + " have no dimension names "
          + "(_ARRAY_DIMENSIONS); read one array with option(\"array\", name)");
    }
    return best;
  }

  private static String dimsText(List<String> dn) {
    return dn == null ? " (no dimension names)" : dn.toString();
  }
}
