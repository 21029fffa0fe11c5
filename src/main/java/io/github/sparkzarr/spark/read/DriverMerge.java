package io.github.sparkzarr.spark.read;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.InterpretedMutableProjection;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.DeclarativeAggregate;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark's final aggregate, evaluated on the driver over the rows the scan's tasks computed: each
 * group's buffer starts at the functions' initial values, takes every row through their update
 * expressions and ends as their evaluated results, then the query's result expressions. These
 * are Spark's own expressions (Complete mode, as its partial and final steps together), so
 * nulls, overflow checks (ANSI) and types are Spark's. Only declarative functions, without
 * DISTINCT or FILTER, qualify ({@link #supports}).
 */
final class DriverMerge {
  private final Seq<NamedExpression> grouping;
  private final Seq<AggregateExpression> aggregates;
  private final Seq<NamedExpression> results;
  private final Seq<Attribute> input;

  DriverMerge(Seq<NamedExpression> grouping, Seq<AggregateExpression> aggregates, Seq<NamedExpression> results,
      Seq<Attribute> input) {
    this.grouping = grouping;
    this.aggregates = aggregates;
    this.results = results;
    this.input = input;
  }

  /** Whether every function is one this evaluates: declarative, not DISTINCT, no FILTER clause. */
  static boolean supports(Seq<AggregateExpression> aggregates) {
    return CollectionConverters.asJava(aggregates).stream().allMatch(a -> !a.isDistinct() && a.filter().isEmpty()
        && a.aggregateFunction() instanceof DeclarativeAggregate && a.deterministic());
  }

  /** The query's result rows (unsafe, as Spark's operators return them) from the tasks' rows. */
  InternalRow[] merge(InternalRow[] rows) {
    List<DeclarativeAggregate> functions = CollectionConverters.asJava(aggregates).stream()
        .map(a -> (DeclarativeAggregate) a.aggregateFunction()).toList();
    List<Attribute> buffer = new ArrayList<>();
    List<Expression> initial = new ArrayList<>();
    List<Expression> update = new ArrayList<>();
    List<Expression> evaluate = new ArrayList<>();
    for (DeclarativeAggregate f : functions) {
      buffer.addAll(CollectionConverters.asJava(f.aggBufferAttributes()));
      initial.addAll(CollectionConverters.asJava(f.initialValues()));
      update.addAll(CollectionConverters.asJava(f.updateExpressions()));
      evaluate.add(f.evaluateExpression());
    }
    List<Attribute> bufferAndInput = new ArrayList<>(buffer);
    bufferAndInput.addAll(CollectionConverters.asJava(input));
    InterpretedMutableProjection start = projection(initial, List.of());
    InterpretedMutableProjection step = projection(update, bufferAndInput);
    UnsafeProjection key = Interpreted.unsafeProjection(Interpreted.expressions(grouping), input);

    // Groups in the order they first come, as a hash aggregate of one partition would meet them.
    Map<UnsafeRow, InternalRow> groups = new LinkedHashMap<>();
    JoinedRow joined = new JoinedRow();
    for (InternalRow row : rows) {
      UnsafeRow k = key.apply(row).copy();
      InternalRow state = groups.computeIfAbsent(k, x -> start.apply(null).copy());
      groups.put(k, step.apply(joined.apply(state, row)).copy());
    }
    if (groups.isEmpty() && grouping.isEmpty()) {
      // A global aggregate has one row even over no input (SUM null, COUNT 0).
      groups.put(key.apply(InternalRow.empty()).copy(), start.apply(null).copy());
    }

    InterpretedMutableProjection finish = projection(evaluate, buffer);
    List<Attribute> keysAndResults = new ArrayList<>();
    for (NamedExpression g : CollectionConverters.asJava(grouping)) {
      keysAndResults.add(g.toAttribute());
    }
    for (AggregateExpression a : CollectionConverters.asJava(aggregates)) {
      keysAndResults.add(a.resultAttribute());
    }
    UnsafeProjection result = Interpreted.unsafeProjection(Interpreted.expressions(results), seq(keysAndResults));
    List<InternalRow> out = new ArrayList<>(groups.size());
    for (Map.Entry<UnsafeRow, InternalRow> group : groups.entrySet()) {
      InternalRow values = finish.apply(group.getValue()).copy();
      out.add(result.apply(joined.apply(group.getKey(), values)).copy());
    }
    return out.toArray(new InternalRow[0]);
  }

  private static InterpretedMutableProjection projection(List<Expression> expressions, List<Attribute> input) {
    return Interpreted.projection(seq(expressions), seq(input));
  }

  private static <T> Seq<T> seq(List<T> list) {
    return CollectionConverters.asScala(list).toList();
  }
}
