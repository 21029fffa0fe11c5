package io.github.sparkzarr.spark.schema;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
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

  /**
   * The data columns: dimensions, then variables. Field metadata marks dimension columns
   * ({@value #DIMENSION_METADATA}) and carries each array's attributes ({@value
   * #ATTRIBUTES_METADATA}, without those CF decoding consumed), so a write of what was read needs
   * no options and keeps the attributes; dimension columns also carry the plan chunk length
   * ({@value #READ_CHUNK_METADATA}), so such a write keeps the chunks and needs no shuffle.
   */
  public StructType schema() {
    List<StructField> fields = new ArrayList<>();
    for (int i = 0; i < dims.size(); i++) {
      Dimension d = dims.get(i);
      MetadataBuilder m = new MetadataBuilder().putBoolean(DIMENSION_METADATA, true)
          .putLong(READ_CHUNK_METADATA, planChunks[i]);
      if (d.coordinate() != null) {
        m.putString(ATTRIBUTES_METADATA, attributes(d.coordinate().metadata().attributes(), d.cf()));
      }
      fields.add(DataTypes.createStructField(d.column(), d.type(), d.nullable(), m.build()));
    }
    for (Variable v : variables) {
      Metadata m = new MetadataBuilder()
          .putString(ATTRIBUTES_METADATA, attributes(v.array().metadata().attributes(), v.cf())).build();
      fields.add(DataTypes.createStructField(v.column(), v.type(), v.nullable(), m));
    }
    return DataTypes.createStructType(fields);
  }

  public static final String DIMENSION_METADATA = "zarr.dimension";
  public static final String ATTRIBUTES_METADATA = "zarr.attributes";
  /**
   * On dimension columns: the plan grid's chunk length along the dimension. A read partition
   * never splits a plan chunk, so a write whose chunks tile it needs no shuffle (WritePlanner).
   */
  public static final String READ_CHUNK_METADATA = "zarr.readChunk";

  /** Attributes as JSON, minus dimension names and what CF decoding already applied. */
  private static String attributes(ObjectNode attrs, CfDecoding cf) {
    ObjectNode out = attrs.deepCopy();
    out.remove(V2Metadata.DIMENSIONS_ATTR);
    if (cf != null) {
      out.remove(List.of("_FillValue", "missing_value", "scale_factor", "add_offset"));
      if (cf.time() != null) {
        out.remove(List.of("units", "calendar"));
      }
    }
    return out.toString();
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
