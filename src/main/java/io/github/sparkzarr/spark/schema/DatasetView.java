package io.github.sparkzarr.spark.schema;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * What a read sees as a table: the dimensions (one column each, holding positions or coordinate
 * values) and the variables (one column each, broadcast over the dimensions they lack), read on a
 * plan grid of chunks. Shipped to executors, so it holds array specs, not open arrays.
 *
 * @param location where the store is, safe to print
 * @param storeUri the store root to open (may hold credentials; never printed)
 * @param dims the table's dimensions, in row order (the last varies fastest)
 * @param variables the value columns
 * @param planChunks the chunk length of the plan grid along each dimension
 */
public record DatasetView(String location, String storeUri, List<Dimension> dims,
    List<Variable> variables, int[] planChunks) implements Serializable {

  /**
   * One dimension of the table.
   *
   * @param column the column name
   * @param coordinate the 1-D coordinate array whose values the column holds, or null for positions
   * @param indexColumn the hidden metadata column holding positions, or null when the column already does
   */
  public record Dimension(String name, long length, String column, ArraySpec coordinate,
      CfDecoding cf, DataType type, String indexColumn) implements Serializable {
    public boolean nullable() {
      return coordinate != null && (cf != null || SparkTypes.nullable(coordinate.metadata().dataType()));
    }
  }

  /**
   * One value column.
   *
   * @param dims the table dimension of each array dimension
   */
  public record Variable(String column, ArraySpec array, int[] dims, CfDecoding cf, DataType type)
      implements Serializable {
    public boolean nullable() {
      return cf != null || SparkTypes.nullable(array.metadata().dataType());
    }

    /** Whether the array has every table dimension in table order. */
    public boolean coversAll(int rank) {
      if (dims.length != rank) {
        return false;
      }
      for (int i = 0; i < rank; i++) {
        if (dims[i] != i) {
          return false;
        }
      }
      return true;
    }
  }

  public int rank() {
    return dims.size();
  }

  /** The data columns: dimensions, then variables. */
  public StructType schema() {
    List<StructField> fields = new ArrayList<>();
    for (Dimension d : dims) {
      fields.add(DataTypes.createStructField(d.column(), d.type(), d.nullable()));
    }
    for (Variable v : variables) {
      fields.add(DataTypes.createStructField(v.column(), v.type(), v.nullable()));
    }
    return DataTypes.createStructType(fields);
  }

  public long rowCount() {
    long n = 1;
    for (Dimension d : dims) {
      n = Math.multiplyExact(n, d.length());
    }
    return n;
  }

  /** Number of plan-grid chunks along each dimension. */
  public long[] gridShape() {
    long[] g = new long[dims.size()];
    for (int i = 0; i < g.length; i++) {
      g[i] = (dims.get(i).length() + planChunks[i] - 1) / planChunks[i];
    }
    return g;
  }
}
