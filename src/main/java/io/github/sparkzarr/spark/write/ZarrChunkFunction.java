package io.github.sparkzarr.spark.write;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.functions.BoundFunction;
import org.apache.spark.sql.connector.catalog.functions.ScalarFunction;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code zarr_chunk(position, chunk_length[, offset])}: the chunk index along one dimension,
 * {@code floor((position + offset) / chunk_length)}. Writes cluster and sort rows by it, so each
 * chunk is assembled by exactly one task; SQL can call it too ({@code SELECT zarr.zarr_chunk(..)}).
 */
public final class ZarrChunkFunction implements UnboundFunction {
  public static final String NAME = "zarr_chunk";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return NAME + "(position, chunk_length[, offset]): the chunk index floor((position + offset) / "
        + "chunk_length) of an integral position";
  }

  @Override
  public BoundFunction bind(StructType inputType) {
    StructField[] fields = inputType.fields();
    if (fields.length != 2 && fields.length != 3) {
      throw new UnsupportedOperationException(description() + "; got " + fields.length + " arguments");
    }
    DataType[] types = new DataType[fields.length];
    for (int i = 0; i < fields.length; i++) {
      types[i] = fields[i].dataType();
      if (!integral(types[i])) {
        throw new UnsupportedOperationException(NAME + " needs integral arguments; argument "
            + (i + 1) + " is " + types[i].simpleString());
      }
    }
    return new Bound(types);
  }

  static boolean integral(DataType t) {
    return t.equals(DataTypes.LongType) || t.equals(DataTypes.IntegerType)
        || t.equals(DataTypes.ShortType) || t.equals(DataTypes.ByteType);
  }

  /** Reads an integral value of any width as a long. */
  static long longAt(InternalRow row, int i, DataType t) {
    if (t.equals(DataTypes.LongType)) {
      return row.getLong(i);
    } else if (t.equals(DataTypes.IntegerType)) {
      return row.getInt(i);
    } else if (t.equals(DataTypes.ShortType)) {
      return row.getShort(i);
    }
    return row.getByte(i);
  }

  /** Bound to the argument types Spark passes, so no casts are needed; public for generated code. */
  public static final class Bound implements ScalarFunction<Long> {
    private final DataType[] types;

    Bound(DataType[] types) {
      this.types = types;
    }

    @Override
    public DataType[] inputTypes() {
      return types;
    }

    @Override
    public DataType resultType() {
      return DataTypes.LongType;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String canonicalName() {
      return "spark_zarr." + NAME;
    }

    @Override
    public Long produceResult(InternalRow row) {
      for (int i = 0; i < types.length; i++) {
        if (row.isNullAt(i)) {
          return null;
        }
      }
      long length = longAt(row, 1, types[1]);
      long offset = types.length == 3 ? longAt(row, 2, types[2]) : 0;
      return chunk(longAt(row, 0, types[0]), length, offset);
    }

    // Spark calls a public method named invoke whose parameters match inputTypes() in generated
    // code (no boxing, no row per call): the common argument types each have one. A null
    // position reaches them as 0; the write task refuses null positions anyway.

    public long invoke(long position, int length) {
      return chunk(position, length, 0);
    }

    public long invoke(int position, int length) {
      return chunk(position, length, 0);
    }

    public long invoke(long position, int length, long offset) {
      return chunk(position, length, offset);
    }

    public long invoke(int position, int length, long offset) {
      return chunk(position, length, offset);
    }
  }

  static long chunk(long position, long length, long offset) {
    return Math.floorDiv(position + offset, length);
  }
}
