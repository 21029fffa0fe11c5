package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.options.ZarrReadOptions;
import io.github.sparkzarr.spark.schema.DatasetView;
import io.github.sparkzarr.spark.schema.DatasetView.Dimension;
import io.github.sparkzarr.zarr.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Avg;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Narrows a read: only the columns a query needs, only the chunks its filters on dimension
 * columns can match (exact filters are evaluated by the scan alone, {@link PredicatePruner}),
 * only the rows its filters on variables' values accept ({@link ValueFilters}), at
 * most LIMIT rows per partition, COUNT/MIN/MAX of dimension columns answered from metadata when
 * the query has no filter, and other aggregates of numeric variables computed per partition in
 * the scan ({@link AggregatePlanner}), completely when the scan is one partition.
 */
public final class ZarrScanBuilder implements SupportsPushDownRequiredColumns,
    SupportsPushDownV2Filters, SupportsPushDownLimit, SupportsPushDownAggregates {
  private final DatasetView view;
  private final ZarrReadOptions options;
  private final ConfBroadcast confBroadcast;
  private final CoordinateAxes axes;
  /** The store as the driver opened it: small aggregates are computed here (DriverAggregateScan). */
  private final Store store;
  private StructType schema;
  private List<OutputColumn> columns;
  private Predicate[] pushed = new Predicate[0];
  /** The predicates on variables' values, ANDed: the scan evaluates them; null when none. */
  private ValueFilter valueFilter;
  /** Whether every predicate was exact: the scan returns only matching rows, none is left to Spark. */
  private boolean filtersComplete = true;
  /** The aggregation is computed completely in one partition: Spark skips its final aggregate. */
  private boolean completeAggregate;
  private IntervalSet[] selection;
  private long limit = -1;
  private InternalRow aggregateAnswer;
  private StructType aggregateSchema;
  private PushedAggregate partialAggregate;

  public ZarrScanBuilder(DatasetView view, Store store, ZarrReadOptions options,
      ConfBroadcast confBroadcast, StructType fullSchema) {
    this.view = view;
    this.options = options;
    this.confBroadcast = confBroadcast;
    this.axes = new CoordinateAxes(view, store);
    this.store = store;
    this.selection = new IntervalSet[view.rank()];
    for (int d = 0; d < view.rank(); d++) {
      selection[d] = IntervalSet.all(view.dims().get(d).length());
    }
    pruneColumns(fullSchema);
  }

  /** Columns by name: dimensions, the hidden position columns, variables. */
  private OutputColumn column(String name) {
    for (int d = 0; d < view.rank(); d++) {
      Dimension dim = view.dims().get(d);
      if (dim.column().equals(name)) {
        return new OutputColumn(OutputColumn.Kind.DIMENSION, d);
      }
      if (name.equals(dim.indexColumn())) {
        return new OutputColumn(OutputColumn.Kind.POSITION, d);
      }
    }
    for (int v = 0; v < view.variables().size(); v++) {
      if (view.variables().get(v).column().equals(name)) {
        return new OutputColumn(OutputColumn.Kind.VARIABLE, v);
      }
    }
    throw new IllegalArgumentException("no column " + name + " in " + view.location());
  }

  @Override
  public void pruneColumns(StructType required) {
    List<OutputColumn> out = new ArrayList<>();
    for (StructField f : required.fields()) {
      out.add(column(f.name()));
    }
    this.columns = out;
    this.schema = required;
  }

  @Override
  public Predicate[] pushPredicates(Predicate[] predicates) {
    PredicatePruner pruner = new PredicatePruner(this::axis, lengths());
    ValueFilters values = new ValueFilters(this::variableColumn);
    List<Predicate> used = new ArrayList<>();
    List<Predicate> postScan = new ArrayList<>();
    List<ValueFilter> onValues = new ArrayList<>();
    for (Predicate p : predicates) {
      PredicatePruner.Box box = pruner.box(p);
      if (box != null) {
        used.add(p);
        for (Map.Entry<Integer, IntervalSet> e : box.dims().entrySet()) {
          selection[e.getKey()] = selection[e.getKey()].intersect(e.getValue());
        }
        if (box.exact()) {
          continue;
        }
      }
      ValueFilter f = options.pushDownValueFilters() ? values.of(p) : null;
      if (f != null) {
        used.add(p);
        onValues.add(f);
      } else {
        postScan.add(p);
      }
    }
    pushed = used.toArray(new Predicate[0]);
    valueFilter = ValueFilter.allOf(onValues);
    filtersComplete = postScan.isEmpty();
    // The scan returns exactly the rows inside the selection that pass the filter on values, so an
    // exact predicate or one on values is fully evaluated by it; the others prune only (never
    // skipping a row that can match) and Spark evaluates them again after the scan. With no
    // predicate left to Spark, Spark may push aggregates and LIMIT too.
    return postScan.toArray(new Predicate[0]);
  }

  /** A variable column by name, for filters on values; null for any other column. */
  private ValueFilters.Column variableColumn(String name) {
    for (int v = 0; v < view.variables().size(); v++) {
      if (view.variables().get(v).column().equals(name)) {
        return new ValueFilters.Column(v, view.variables().get(v).type());
      }
    }
    return null;
  }

  private PredicatePruner.Axis axis(String column) {
    for (int d = 0; d < view.rank(); d++) {
      Dimension dim = view.dims().get(d);
      if (dim.column().equals(column)) {
        CoordinateAxes.Sorted s = axes.values(d);
        return s == null ? null : new PredicatePruner.Axis(d, s.axis(), dim.type());
      }
      if (column.equals(dim.indexColumn())) {
        return new PredicatePruner.Axis(d, axes.positions(d).axis(), DataTypes.LongType);
      }
    }
    return null;
  }

  private long[] lengths() {
    return view.dims().stream().mapToLong(Dimension::length).toArray();
  }

  @Override
  public Predicate[] pushedPredicates() {
    return pushed;
  }

  @Override
  public boolean pushLimit(int n) {
    limit = n;
    return true;
  }

  /**
   * Complete when answered from metadata, or when the scan computes it and no group spans two
   * partitions: a single partition (a small box), or partitions of whole tiles (ScanPlan) with
   * each key a dimension's position or a coordinate no two positions share. Each partition's rows
   * are then final, so Spark drops its aggregate and the shuffle before it. Not with AVG: Spark then splits it into SUM and COUNT, asks again, and divides the
   * scan's SUM by its COUNT. Nor with weighted sums, whose partial rows are per position
   * (PushedAggregate.weightDims). The answer depends on the plan only, so it is the same each time
   * it is asked, and build() then plans whole tiles.
   */
  @Override
  public boolean supportCompletePushDown(Aggregation aggregation) {
    if (answer(aggregation) != null) {
      return true;
    }
    for (AggregateFunc f : aggregation.aggregateExpressions()) {
      if (f instanceof Avg) {
        return false;
      }
    }
    PushedAggregate partial = partialPlan(aggregation);
    if (partial == null || partial.weightDims().length > 0) {
      return false;
    }
    ZarrScan scan = scanOf(partial, false);
    completeAggregate = scan.planInputPartitions().length == 1
        || (partial.groupBy().stream().allMatch(this::distinctPerPosition) && scan.keepsGroupsApart());
    return completeAggregate;
  }

  /** Whether no two positions share the key's value, so each group lies in one tile. */
  private boolean distinctPerPosition(GroupKey key) {
    if (key.function() != null) {
      return false;
    }
    if (key.isPosition(view)) {
      return true;
    }
    CoordinateAxes.Sorted values = axes.values(key.column().index());
    return values != null && values.distinct();
  }

  @Override
  public boolean pushAggregation(Aggregation aggregation) {
    Object[] values = answer(aggregation);
    if (values == null) {
      return pushPartial(aggregation);
    }
    aggregateAnswer = new GenericInternalRow(values);
    List<StructField> fields = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      fields.add(DataTypes.createStructField("agg_" + i, aggregateType(aggregation.aggregateExpressions()[i]), true));
    }
    aggregateSchema = DataTypes.createStructType(fields);
    return true;
  }

  /** Aggregates computed per partition in the scan, for Spark to merge; false if not possible. */
  private boolean pushPartial(Aggregation aggregation) {
    partialAggregate = partialPlan(aggregation);
    return partialAggregate != null;
  }

  /**
   * The aggregation computed in the scan, or null. Only when every filter is evaluated by the scan
   * (Spark pushes aggregates only then, and the scan must see exactly the matching elements), the
   * variables a filter on values reads are ones aggregates read, and the selection is one interval
   * per dimension (the aggregate reader adds one box per chunk).
   */
  private PushedAggregate partialPlan(Aggregation aggregation) {
    if (!options.pushDownAggregate() || !filtersComplete) {
      return null;
    }
    for (IntervalSet s : selection) {
      if (s.rangeCount() > 1) {
        return null;
      }
    }
    AggregatePlanner planner = new AggregatePlanner(view, this::column, SQLConf.get().ansiEnabled(),
        SQLConf.get().sessionLocalTimeZone());
    if (valueFilter != null && !IntStream.of(valueFilter.variables()).allMatch(planner::reads)) {
      return null;
    }
    return planner.plan(aggregation);
  }

  /** COUNT(*), COUNT and MIN/MAX of dimension columns, from metadata alone; null if not possible. */
  private Object[] answer(Aggregation aggregation) {
    if (pushed.length > 0 || aggregation.groupByExpressions().length > 0) {
      return null;
    }
    long rows = view.rowCount();
    AggregateFunc[] funcs = aggregation.aggregateExpressions();
    Object[] out = new Object[funcs.length];
    for (int i = 0; i < funcs.length; i++) {
      AggregateFunc f = funcs[i];
      if (f instanceof CountStar) {
        out[i] = rows;
      } else if (f instanceof Count c && !c.isDistinct() && sorted(c.column()) != null) {
        out[i] = rows;
      } else if (f instanceof Min m && sorted(m.column()) != null) {
        out[i] = rows == 0 ? null : sorted(m.column()).min();
      } else if (f instanceof Max m && sorted(m.column()) != null) {
        out[i] = rows == 0 ? null : sorted(m.column()).max();
      } else {
        return null;
      }
    }
    return out;
  }

  private DataType aggregateType(AggregateFunc f) {
    if (f instanceof Min m) {
      return schemaTypeOf(m.column());
    }
    if (f instanceof Max m) {
      return schemaTypeOf(m.column());
    }
    return DataTypes.LongType;
  }

  private DataType schemaTypeOf(org.apache.spark.sql.connector.expressions.Expression e) {
    OutputColumn c = column(((NamedReference) e).fieldNames()[0]);
    return c.kind() == OutputColumn.Kind.POSITION ? DataTypes.LongType : view.dims().get(c.index()).type();
  }

  /** The sorted values of a dimension or position column, or null for anything else. */
  private CoordinateAxes.Sorted sorted(org.apache.spark.sql.connector.expressions.Expression e) {
    if (!(e instanceof NamedReference r) || r.fieldNames().length != 1) {
      return null;
    }
    for (int d = 0; d < view.rank(); d++) {
      Dimension dim = view.dims().get(d);
      if (dim.column().equals(r.fieldNames()[0])) {
        return view.dims().get(d).length() == 0 ? axes.positions(d) : axes.values(d);
      }
      if (r.fieldNames()[0].equals(dim.indexColumn())) {
        return axes.positions(d);
      }
    }
    return null;
  }

  @Override
  public Scan build() {
    if (aggregateAnswer != null) {
      return new MetadataAnswerScan(aggregateSchema, aggregateAnswer, view.location());
    }
    if (partialAggregate != null) {
      ZarrScan scan = scanOf(partialAggregate, completeAggregate);
      return scan.answerableOnDriver() ? new DriverAggregateScan(scan, store) : scan;
    }
    ScanPlan plan = new ScanPlan(view, List.copyOf(columns), selection.clone(), chunks(), limit, valueFilter);
    return new ZarrScan(plan, schema, options, confBroadcast, pushed, null, false);
  }

  /** The scan computing {@code aggregate}; {@code complete}: each group in one partition. */
  private ZarrScan scanOf(PushedAggregate aggregate, boolean complete) {
    int[] groupDims = IntStream.concat(aggregate.groupBy().stream().mapToInt(k -> k.column().index()),
        IntStream.of(aggregate.weightDims())).toArray();
    ScanPlan plan = ScanPlan.grouped(view, selection.clone(), chunks(), groupDims, valueFilter);
    return new ZarrScan(plan, aggregate.schema(view), options, confBroadcast, pushed, aggregate, complete);
  }

  /** The selected chunk indices along each dimension. */
  private long[][] chunks() {
    long[][] chunks = new long[view.rank()][];
    for (int d = 0; d < view.rank(); d++) {
      chunks[d] = selection[d].chunks(view.planChunks()[d]);
    }
    return chunks;
  }
}
