package io.github.sparkzarr.spark.write;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.spark.options.ZarrWriteOptions;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import java.util.Map;

/**
 * A planned write: the layout the tasks get, and what the job commit needs besides.
 *
 * @param baseLengths the old length of each dimension when appending (arrays only grow), else 0
 * @param existingCoordinates per dimension index, the coordinate array already there (append)
 * @param coordinateAttributes per dimension index, the attributes of a new coordinate array
 * @param groupAttributes the group's attributes after the write
 */
public record WritePlan(WriteLayout layout, WriteMode mode, ArrayFormat format,
    ZarrWriteOptions options, long[] baseLengths, Map<Integer, ArrayMetadata> existingCoordinates,
    Map<Integer, ObjectNode> coordinateAttributes, ObjectNode groupAttributes) {}
