package io.github.sparkzarr.spark.write;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * What one committed task attempt staged. Only the winning attempt's message reaches the job
 * commit, so only its chunks are published.
 *
 * @param attemptDir the attempt's directory below the staging directory
 * @param keys the store keys of the chunks it staged
 * @param partial those of {@code keys} whose chunk this attempt left partial when rows were not
 *     shuffled by chunk: other attempts may hold the rest, and a mask of the elements written is
 *     staged beside (see {@link PartialChunks})
 * @param maxPositions the largest position seen along each dimension (offset applied), -1 if none
 * @param coordinates per dimension index, the coordinate value at each position seen
 */
public record ZarrCommitMessage(String attemptDir, List<String> keys, List<String> partial, long[] maxPositions,
    Map<Integer, TreeMap<Long, Object>> coordinates) implements WriterCommitMessage {}
