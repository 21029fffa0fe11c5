package io.github.sparkzarr.spark.write;

import io.github.sparkzarr.spark.schema.ArraySpec;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.sql.types.DataType;

/**
 * What the tasks of one write need, decided once on the driver: where each dimension's positions
 * (and coordinate values) are in the input row, and which array each value column becomes.
 *
 * @param location the target, safe to print
 * @param storeUri the root of the store written (may hold credentials; never printed)
 * @param groupPath the group written, inside the store ("" for the root)
 * @param stagingUri where tasks stage their chunks until the job commits
 * @param dims the dimensions, in array order
 * @param vars the value columns
 * @param grouping how rows reach the tasks: grouped by chunk by Spark, or as they come
 */
public record WriteLayout(String location, String storeUri, String groupPath, String stagingUri,
    List<Dim> dims, List<Var> vars, RowGrouping grouping) implements Serializable {

  /** How the rows of one chunk reach the write tasks. */
  public enum RowGrouping {
    /** Spark repartitions rows by chunk: every row of a chunk comes to one task. */
    SHUFFLED,
    /**
     * No shuffle, because the rows come from a Zarr read whose chunks the write's chunks tile
     * (option shuffle=auto); a task that finds many chunks split fails, advising shuffle=true.
     */
    READ_CHUNKS,
    /** No shuffle (option shuffle=false): chunks split across tasks are merged by the job commit. */
    AS_GIVEN;

    public boolean shuffled() {
      return this == SHUFFLED;
    }
  }

  /**
   * One dimension.
   *
   * @param positionColumn the input column holding positions
   * @param positionOrdinal its ordinal; {@code positionType} its (integral) type
   * @param chunk the chunk length
   * @param offset added to every position (the old length along {@code append_dim})
   * @param limit positions must be below it, or -1 when the shape grows to fit
   * @param coordinateOrdinal the ordinal of the coordinate values, or -1 when there are none
   * @param coordinateType their element type, or null
   */
  public record Dim(String name, String positionColumn, int positionOrdinal, DataType positionType,
      int chunk, long offset, long limit, int coordinateOrdinal, ElementType coordinateType)
      implements Serializable {
    public boolean hasCoordinates() {
      return coordinateOrdinal >= 0;
    }
  }

  /**
   * One value column and its array.
   *
   * @param path the array's path in the store
   * @param array its metadata (shape provisional until the commit)
   * @param merge whether the array exists and chunks only partly written keep their old elements
   */
  public record Var(String column, int ordinal, ElementType type, String path, ArraySpec array,
      boolean merge) implements Serializable {}

  public int[] chunks() {
    int[] c = new int[dims.size()];
    for (int i = 0; i < c.length; i++) {
      c[i] = dims.get(i).chunk();
    }
    return c;
  }
}
