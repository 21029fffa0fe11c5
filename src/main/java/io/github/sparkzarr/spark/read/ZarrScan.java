package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.options.ZarrReadOptions;
import io.github.sparkzarr.spark.read.metrics.BytesFetchedMetric;
import io.github.sparkzarr.spark.read.metrics.ChunksMissingMetric;
import io.github.sparkzarr.spark.read.metrics.ChunksPlannedMetric;
import io.github.sparkzarr.spark.read.metrics.ChunksReadMetric;
import io.github.sparkzarr.spark.read.metrics.ChunksSkippedMetric;
import io.github.sparkzarr.spark.read.metrics.DecodeTimeMetric;
import io.github.sparkzarr.spark.read.metrics.MetricValue;
import io.github.sparkzarr.spark.schema.DatasetView;
import io.github.sparkzarr.zarr.store.CountingStore;
import io.github.sparkzarr.zarr.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.network.util.JavaUtils;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * A planned read: partitions are runs of whole chunks of the plan grid, packed up to the target
 * partition size; statistics and metrics describe the chunks.
 */
final class ZarrScan implements SupportsReportStatistics, Batch {
  private final ScanPlan plan;
  private final StructType schema;
  private final ZarrReadOptions options;
  private final Predicate[] pushed;
  /** The aggregation computed per partition, or null for a scan returning rows. */
  private final PushedAggregate aggregate;
  private final ConfBroadcast confBroadcast;
  /** Partitions of whole tiles, whose partial aggregates are then the final ones. */
  private final boolean complete;

  ZarrScan(ScanPlan plan, StructType schema, ZarrReadOptions options,
      ConfBroadcast confBroadcast, Predicate[] pushed, PushedAggregate aggregate, boolean complete) {
    this.plan = plan;
    this.schema = schema;
    this.options = options;
    this.confBroadcast = confBroadcast;
    this.pushed = pushed;
    this.aggregate = aggregate;
    this.complete = complete;
  }

  @Override
  public StructType readSchema() {
    return schema;
  }

  @Override
  public String description() {
    DatasetView v = plan.view();
    return "ZarrScan[" + v.location() + "] columns=" + Arrays.stream(schema.fields())
        .map(StructField::name).collect(Collectors.joining(","))
        + " selection=" + Arrays.toString(plan.selection())
        + " chunks=" + plan.chunkCount() + "/" + totalChunks()
        + (pushed.length == 0 ? "" : " pushedFilters=" + Arrays.toString(pushed))
        + (plan.limit() < 0 ? "" : " limit=" + plan.limit())
        + (aggregate == null ? "" : " " + aggregate.describe(v) + (complete ? " complete" : ""));
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  private long totalChunks() {
    return Arrays.stream(plan.view().gridShape()).reduce(1, Math::multiplyExact);
  }

  /** Bytes one planned chunk yields (its elements times the row width), at least 1. */
  private long chunkBytes() {
    return Math.max(1, chunkElements() * rowBytes());
  }

  private long chunkElements() {
    long elements = 1;
    for (int c : plan.view().planChunks()) {
      elements *= c;
    }
    return elements;
  }

  /**
   * What one planned chunk of the aggregated (and filtered) variables decodes to, at their Zarr
   * element sizes, at least 1: what {@code driverAggregateMaxBytes} counts. Spark's types may be
   * wider (uint8 is a short, packed int16 a double), but decoding costs what is stored.
   */
  private long decodedChunkBytes() {
    return Math.max(1, chunkElements() * aggregatedVariables()
        .mapToLong(v -> plan.view().variables().get(v).array().metadata().dataType().size()).sum());
  }

  /** The variables an aggregation and its filter read. */
  private IntStream aggregatedVariables() {
    IntStream filtered = plan.filter() == null ? IntStream.empty() : IntStream.of(plan.filter().variables());
    return IntStream.concat(aggregate.calls().stream().mapToInt(AggregateCall::variable), filtered)
        .distinct().filter(v -> v >= 0);
  }

  /** The bytes a row takes: of the output, or of the variables an aggregation and its filter read. */
  private long rowBytes() {
    if (aggregate != null) {
      return Math.max(1, aggregatedVariables().mapToLong(v -> plan.view().variables().get(v).type().defaultSize()).sum());
    }
    long width = 0;
    for (StructField f : schema.fields()) {
      width += f.dataType().defaultSize();
    }
    return Math.max(1, width);
  }

  /**
   * A partition's most decoded bytes, as Spark's file sources size their splits:
   * {@code maxPartitionBytes} (the option, else {@code spark.sql.files.maxPartitionBytes}), lowered
   * so that a small selection still spreads over the session's cores ({@code
   * spark.sql.files.minPartitionNum}, else the default parallelism), never below {@code
   * spark.sql.files.openCostInBytes}. An aggregate the driver computes (up to {@code
   * driverAggregateMaxBytes}) is one partition up to {@link #SMALL_AGGREGATE_BYTES}, and above it
   * one per core, read at once on the driver. Any other aggregate computed in the scan is not split
   * below {@link #SMALL_AGGREGATE_BYTES}: in one partition it is complete, and Spark then runs no
   * second stage, which costs more than a second core saves on so little.
   */
  private long splitBytes(long chunks) {
    SparkSession session = SparkSession.active();
    long max = maxPartitionBytes(session);
    long floor = bytesSetting(session, "spark.sql.files.openCostInBytes", "4m");
    long total = chunks > Long.MAX_VALUE / chunkBytes() ? Long.MAX_VALUE : chunks * chunkBytes();
    if (aggregate != null) {
      if (withinDriverLimit(chunks)) {
        if (total > SMALL_AGGREGATE_BYTES && groupCells() <= DRIVER_ROWS / minPartitions(session)) {
          // The driver reads the partitions on its cores and merges their few rows (no job).
          return Math.min(max, ceilDiv(total, minPartitions(session)));
        }
        // One complete partition, which the driver then computes without a job (answerableOnDriver).
        return Math.min(max, total);
      }
      floor = Math.max(floor, SMALL_AGGREGATE_BYTES);
    }
    return Math.min(max, Math.max(floor, total / minPartitions(session)));
  }

  private long maxPartitionBytes(SparkSession session) {
    return options.maxPartitionBytes() != null ? options.maxPartitionBytes()
        : bytesSetting(session, "spark.sql.files.maxPartitionBytes", "128m");
  }

  /** Pushed aggregates over at most this many decoded bytes stay in one partition. */
  static final long SMALL_AGGREGATE_BYTES = 32L << 20;

  private static long bytesSetting(SparkSession session, String key, String fallback) {
    return JavaUtils.byteStringAsBytes(session.conf().get(key, fallback));
  }

  private static long minPartitions(SparkSession session) {
    for (String key : new String[] {"spark.sql.files.minPartitionNum", "spark.sql.leafNodeDefaultParallelism"}) {
      String value = session.conf().get(key, null);
      if (value != null) {
        return Math.max(1, Long.parseLong(value.trim()));
      }
    }
    return Math.max(1, session.sparkContext().defaultParallelism());
  }

  @Override
  public InputPartition[] planInputPartitions() {
    long chunks = plan.chunkCount();
    if (plan.limit() >= 0 && !plan.columns().isEmpty() && plan.filter() == null) {
      chunks = chunksForLimit(chunks);
    }
    long unit = partitionUnit(chunks);
    long perPartition = unit * unitsPerPartition(ceilDiv(chunks, unit), Math.max(1, splitChunks(chunks) / unit),
        minPartitions(SparkSession.active()));
    List<InputPartition> out = new ArrayList<>();
    for (long start = 0; start < chunks; start += perPartition) {
      out.add(new ZarrInputPartition(start, Math.min(chunks, start + perPartition)));
    }
    if (out.isEmpty() && aggregate != null && aggregate.groupBy().isEmpty()) {
      out.add(new ZarrInputPartition(0, 0)); // one row of partial results, so COUNT says 0
    }
    return out.toArray(new InputPartition[0]);
  }

  /**
   * The chunks partitions are made of whole: a tile for an aggregate whose tile fits the split
   * size (then no group is in two partitions, and with no GROUP BY the scan is one partition), and
   * always for a complete aggregate; else one chunk.
   */
  private long partitionUnit(long chunks) {
    long tile = Math.max(1, plan.chunksPerTile());
    return aggregate != null && (complete || tile <= splitChunks(chunks)) ? tile : 1;
  }

  /**
   * Units (chunks or tiles) per partition, from {@code perPartition} at most: fewer when the
   * partitions outnumber the cores ({@link #minPartitions}) and their last wave would leave cores
   * idle for long, so that the same number of waves runs with partitions at least a quarter
   * smaller. Spark's file sources do not do this: a 300 MB selection is 128 + 128 + 44 MB, two
   * waves of 128 MB on two cores; here it is four partitions of 75 MB. A 1 GiB zstd scan in three
   * partitions took 12-20% less wall time in four (docs/benchmarks-history.md, session 19); nine
   * partitions made ten (a tenth smaller) took 5-15% more, one more task costing more than the
   * idle core in the last wave, which the JIT uses. Fewer partitions than cores are left alone:
   * the split size was then set by its floor.
   */
  static long unitsPerPartition(long units, long perPartition, long cores) {
    long parts = ceilDiv(units, perPartition);
    if (parts < cores) {
      return perPartition;
    }
    long balanced = ceilDiv(units, ceilDiv(parts, cores) * cores);
    return balanced * 4 <= perPartition * 3 ? balanced : perPartition;
  }

  /** Math.ceilDiv of Java 18, for non-negative a and positive b. */
  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  /** Whether every group's elements fall in one partition: an aggregate over whole tiles. */
  boolean keepsGroupsApart() {
    return aggregate != null && plan.chunksPerTile() <= splitChunks(plan.chunkCount());
  }

  /**
   * Elements per group cell up to which a tile larger than the split size is still read whole:
   * Spark's merge of a partial row (shuffled, hashed) costs about as much CPU as the connector's
   * decoding and adding of a thousand elements (a time-mean map over 256 time steps, one per
   * chunk: 0.88-0.99 s in two partitions, 0.54-0.59 s in one; docs/benchmarks-history.md, session 13).
   */
  static final long FEW_ELEMENTS_PER_CELL = 1024;

  /**
   * Chunks a partition may hold: what the split size holds, and for a grouped aggregate whole tiles
   * of at most {@link #MAX_GROUP_CELLS} group cells; for a grouped aggregate whose tile does
   * not fit, the whole tile when each of its group cells has few elements (splitting it would make
   * Spark merge a partial row per cell and partition) and the tile is at most twice {@code
   * maxPartitionBytes}.
   */
  private long splitChunks(long chunks) {
    long n = Math.max(1, splitBytes(chunks) / chunkBytes());
    long tile = plan.chunksPerTile();
    if (aggregate != null && plan.tileDims() > 0 && tile > n) {
      long max = maxPartitionBytes(SparkSession.active());
      if (plan.elementsPerCell() <= FEW_ELEMENTS_PER_CELL && tile <= 2 * max / chunkBytes()) {
        return tile;
      }
      return Math.max(n, tilePartChunks(tile, max));
    }
    return Math.min(n, groupCellsCap());
  }

  /**
   * Decoded bytes per group cell of its tile that a partition of a tile grows to: each partition
   * of a tile returns a partial row per cell, and Spark's merge of one (hashed, shuffled, hashed
   * again) costs about as much as reading 500 decoded bytes (RGB images' mean over 4,096 images:
   * 2.29 s in six partitions of 128 MiB, 1.55 s in two; docs/benchmarks-history.md, session 25), so
   * the merge then costs about an eighth of the reading.
   */
  static final long BYTES_PER_PARTIAL_ROW = 4096;

  /**
   * Chunks of a partition of a tile too large for one: what reads {@link #BYTES_PER_PARTIAL_ROW}
   * per cell, but no more than spread the tiles over the cores, nor than 8 times {@code
   * maxPartitionBytes} hold.
   */
  private long tilePartChunks(long tile, long maxPartitionBytes) {
    long tiles = Math.max(1, plan.chunkCount() / tile);
    long spread = ceilDiv(tile, ceilDiv(minPartitions(SparkSession.active()), tiles));
    double rows = (double) BYTES_PER_PARTIAL_ROW * plan.cellsPerTile() / chunkBytes();
    long cap = maxPartitionBytes > Long.MAX_VALUE / 8 ? Long.MAX_VALUE : 8 * maxPartitionBytes / chunkBytes();
    return Math.min(Math.min(spread, (long) Math.min(rows, Long.MAX_VALUE / 2) + 1), cap);
  }

  /**
   * Group cells a partition of a grouped aggregate may hold, unless one tile has more: each cell
   * costs a slot in every accumulator (8 to 72 bytes) and a partial row, so a partition of many
   * small-celled tiles (a mean over a dimension of length 1 groups every element apart) would
   * need far more memory than its chunks.
   */
  static final long MAX_GROUP_CELLS = 1L << 20;

  /** The chunks of as many whole tiles as keep a partition within {@link #MAX_GROUP_CELLS}. */
  private long groupCellsCap() {
    if (aggregate == null || plan.tileDims() == 0) {
      return Long.MAX_VALUE;
    }
    long tiles = Math.max(1, MAX_GROUP_CELLS / Math.max(1, plan.cellsPerTile()));
    long tile = plan.chunksPerTile();
    return tiles > Long.MAX_VALUE / tile ? Long.MAX_VALUE : tiles * tile;
  }

  /** The leading chunks that hold at least LIMIT selected rows (with no filter on values, which may drop any). */
  private long chunksForLimit(long chunks) {
    long rows = 0;
    for (long i = 0; i < chunks; i++) {
      rows += plan.rowsOf(i);
      if (rows >= plan.limit()) {
        return i + 1;
      }
    }
    return chunks;
  }

  /**
   * Whether the driver computes this aggregate itself ({@link DriverAggregateScan}), over at most
   * {@code driverAggregateMaxBytes} of decoded data, with at most {@link #DRIVER_ROWS} result rows:
   * one the scan computes completely, or whose partitions' partial rows the driver then merges
   * ({@link DriverMergeStrategy}). Above {@link #SMALL_AGGREGATE_BYTES} the partitions are read on
   * the driver's cores at once.
   */
  boolean answerableOnDriver() {
    return aggregate != null && withinDriverLimit(plan.chunkCount()) && (complete || mergeableOnDriver());
  }

  /** Whether an aggregate over {@code chunks} is small enough for the driver: bytes and result rows. */
  private boolean withinDriverLimit(long chunks) {
    long maxBytes = options.driverAggregateMaxBytes();
    return maxBytes > 0 && chunks <= maxBytes / decodedChunkBytes() && groupCells() <= DRIVER_ROWS;
  }

  /** Whether the scan returns partial aggregates, which an aggregate of Spark's finishes. */
  boolean returnsPartialRows() {
    return aggregate != null && !complete;
  }

  /**
   * Whether Spark's final aggregate over this scan's partial rows may be finished on the driver
   * ({@link DriverMergeStrategy}): the partitions return at most {@link #DRIVER_ROWS} rows in all.
   */
  boolean mergeableOnDriver() {
    if (!returnsPartialRows()) {
      return false;
    }
    long cells = groupCells();
    return cells <= DRIVER_ROWS && planInputPartitions().length <= DRIVER_ROWS / cells;
  }

  /** Result rows a driver answer may have: a map of a small box, not one of every element. */
  static final long DRIVER_ROWS = 1L << 16;

  /** The most groups the aggregate can meet: the selected positions along its keys' dimensions. */
  private long groupCells() {
    return aggregate.groupBy().stream().mapToInt(k -> k.column().index()).distinct()
        .mapToLong(d -> plan.selection()[d].size()).reduce(1, (a, b) -> a > Long.MAX_VALUE / Math.max(1, b)
            ? Long.MAX_VALUE : a * b);
  }

  /** The aggregate's rows, computed here on the driver by the readers a task would run. */
  InternalRow[] readOnDriver(Store store) {
    CountingStore counting = new CountingStore(store);
    InputPartition[] partitions = planInputPartitions();
    // The partitions on the driver's cores; their rows in partition order, as tasks' would come.
    List<List<InternalRow>> parts = DriverThreads.map(partitions.length,
        i -> readOnDriver(counting, (ZarrInputPartition) partitions[i]));
    return parts.stream().flatMap(List::stream).toArray(InternalRow[]::new);
  }

  private List<InternalRow> readOnDriver(CountingStore store, ZarrInputPartition p) {
    List<InternalRow> rows = new ArrayList<>();
    try (PartialAggregateReader reader = new PartialAggregateReader(plan, aggregate, schema, store, p.start(), p.end())) {
      while (reader.next()) {
        ColumnarBatch batch = reader.get();
        for (int i = 0; i < batch.numRows(); i++) {
          rows.add(batch.getRow(i).copy());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new ZarrReaderFactory(plan, aggregate, schema, confBroadcast.get(SparkSession.active().sparkContext()));
  }

  @Override
  public Statistics estimateStatistics() {
    long rows = 1;
    for (IntervalSet s : plan.selection()) {
      rows = Math.multiplyExact(rows, s.size());
    }
    if (plan.limit() >= 0) {
      rows = Math.min(rows, plan.limit());
    }
    long finalRows = rows;
    return new Statistics() {
      @Override
      public OptionalLong sizeInBytes() {
        return OptionalLong.of(finalRows * rowBytes());
      }

      @Override
      public OptionalLong numRows() {
        return OptionalLong.of(finalRows);
      }
    };
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return new CustomMetric[] {new ChunksPlannedMetric(), new ChunksSkippedMetric(),
        new ChunksReadMetric(), new ChunksMissingMetric(), new BytesFetchedMetric(),
        new DecodeTimeMetric()};
  }

  @Override
  public CustomTaskMetric[] reportDriverMetrics() {
    long planned = plan.chunkCount();
    return new CustomTaskMetric[] {new MetricValue(ChunksPlannedMetric.NAME, planned),
        new MetricValue(ChunksSkippedMetric.NAME, totalChunks() - planned)};
  }
}
