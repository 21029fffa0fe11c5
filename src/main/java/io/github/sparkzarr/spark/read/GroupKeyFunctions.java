package io.github.sparkzarr.spark.read;

import java.util.Set;
import org.apache.spark.sql.catalyst.expressions.Abs;
import org.apache.spark.sql.catalyst.expressions.Add;
import org.apache.spark.sql.catalyst.expressions.BoundReference;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.Ceil;
import org.apache.spark.sql.catalyst.expressions.Cos;
import org.apache.spark.sql.catalyst.expressions.DayOfMonth;
import org.apache.spark.sql.catalyst.expressions.DayOfYear;
import org.apache.spark.sql.catalyst.expressions.Divide;
import org.apache.spark.sql.catalyst.expressions.EvalMode;
import org.apache.spark.sql.catalyst.expressions.Exp;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Floor;
import org.apache.spark.sql.catalyst.expressions.Hour;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Log;
import org.apache.spark.sql.catalyst.expressions.Log10;
import org.apache.spark.sql.catalyst.expressions.Minute;
import org.apache.spark.sql.catalyst.expressions.Month;
import org.apache.spark.sql.catalyst.expressions.Multiply;
import org.apache.spark.sql.catalyst.expressions.Pow;
import org.apache.spark.sql.catalyst.expressions.Quarter;
import org.apache.spark.sql.catalyst.expressions.Remainder;
import org.apache.spark.sql.catalyst.expressions.Round;
import org.apache.spark.sql.catalyst.expressions.Second;
import org.apache.spark.sql.catalyst.expressions.Signum;
import org.apache.spark.sql.catalyst.expressions.Sin;
import org.apache.spark.sql.catalyst.expressions.Sqrt;
import org.apache.spark.sql.catalyst.expressions.Subtract;
import org.apache.spark.sql.catalyst.expressions.Tan;
import org.apache.spark.sql.catalyst.expressions.ToDegrees;
import org.apache.spark.sql.catalyst.expressions.ToRadians;
import org.apache.spark.sql.catalyst.expressions.TruncDate;
import org.apache.spark.sql.catalyst.expressions.UnaryMinus;
import org.apache.spark.sql.catalyst.expressions.WeekDay;
import org.apache.spark.sql.catalyst.expressions.WeekOfYear;
import org.apache.spark.sql.catalyst.expressions.Year;
import org.apache.spark.sql.catalyst.expressions.YearOfWeek;
import org.apache.spark.sql.connector.expressions.Extract;
import org.apache.spark.sql.connector.expressions.GeneralScalarExpression;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import scala.Option;

/**
 * Turns a GROUP BY expression Spark hands the scan (its connector form, such as {@code
 * EXTRACT(MONTH FROM CAST(time AS DATE))}) back into Spark's own expression over one column, so the
 * scan computes each key with Spark's code and gets what Spark would. Only the calendar fields,
 * arithmetic, rounding, casts and elementary functions Spark translates are taken; anything else
 * declines the pushdown. Also the weights of weighted sums ({@code cos(radians(lat))}).
 */
final class GroupKeyFunctions {
  /** Key types the reader writes into its result batch ({@link GroupKeyValues#write}). */
  static final Set<DataType> KEY_TYPES = Set.of(DataTypes.ByteType, DataTypes.ShortType,
      DataTypes.IntegerType, DataTypes.LongType, DataTypes.FloatType, DataTypes.DoubleType,
      DataTypes.BooleanType, DataTypes.DateType, DataTypes.TimestampType, DataTypes.TimestampNTZType);

  private final String column;
  private final BoundReference input;
  private final Option<String> zone;

  /**
   * @param column the one column the expression may read
   * @param type that column's type
   * @param zone the session time zone (calendar fields of TIMESTAMP values depend on it)
   */
  GroupKeyFunctions(String column, DataType type, boolean nullable, String zone) {
    this.column = column;
    this.input = new BoundReference(0, type, nullable);
    this.zone = Option.apply(zone);
  }

  /** Spark's expression for {@code e} over the column, or null when the scan cannot compute it. */
  Expression convert(org.apache.spark.sql.connector.expressions.Expression e) {
    Expression out;
    try {
      out = toCatalyst(e);
    } catch (RuntimeException unsupported) {
      return null; // a constructor rejected its arguments
    }
    return out != null && out.resolved() && out.deterministic() && KEY_TYPES.contains(out.dataType()) ? out : null;
  }

  private Expression toCatalyst(org.apache.spark.sql.connector.expressions.Expression e) {
    if (e instanceof NamedReference r) {
      return r.fieldNames().length == 1 && r.fieldNames()[0].equals(column) ? input : null;
    }
    if (e instanceof LiteralValue<?> l) {
      return new Literal(l.value(), l.dataType());
    }
    if (e instanceof org.apache.spark.sql.connector.expressions.Cast c) {
      Expression child = toCatalyst(c.expression());
      return child == null ? null : new Cast(child, c.dataType(), zone, EvalMode.ANSI());
    }
    if (e instanceof Extract x) {
      Expression child = toCatalyst(x.source());
      return child == null ? null : field(x.field(), child);
    }
    if (e instanceof GeneralScalarExpression g) {
      Expression[] args = new Expression[g.children().length];
      for (int i = 0; i < args.length; i++) {
        args[i] = toCatalyst(g.children()[i]);
        if (args[i] == null) {
          return null;
        }
      }
      return function(g.name(), args);
    }
    return null;
  }

  /** EXTRACT's fields, as Spark translates its date-time functions to them. */
  private Expression field(String field, Expression child) {
    return switch (field) {
      case "YEAR" -> new Year(child);
      case "QUARTER" -> new Quarter(child);
      case "MONTH" -> new Month(child);
      case "WEEK" -> new WeekOfYear(child);
      case "YEAR_OF_WEEK" -> new YearOfWeek(child);
      case "DAY" -> new DayOfMonth(child);
      case "DAY_OF_YEAR" -> new DayOfYear(child);
      // ISO numbering, Monday = 1: Spark's weekday() counts from Monday = 0.
      case "DAY_OF_WEEK" -> new Add(new WeekDay(child), Literal.create(1, DataTypes.IntegerType), EvalMode.ANSI());
      case "HOUR" -> new Hour(child, zone);
      case "MINUTE" -> new Minute(child, zone);
      case "SECOND" -> new Second(child, zone);
      default -> null;
    };
  }

  /** Spark translates arithmetic only under ANSI rules, so it is evaluated under them. */
  private static Expression function(String name, Expression[] a) {
    return switch (name + "/" + a.length) {
      case "+/2" -> new Add(a[0], a[1], EvalMode.ANSI());
      case "-/2" -> new Subtract(a[0], a[1], EvalMode.ANSI());
      case "*/2" -> new Multiply(a[0], a[1], EvalMode.ANSI());
      case "//2" -> new Divide(a[0], a[1], EvalMode.ANSI());
      case "%/2" -> new Remainder(a[0], a[1], EvalMode.ANSI());
      case "-/1" -> new UnaryMinus(a[0], true);
      case "ABS/1" -> new Abs(a[0], true);
      case "FLOOR/1" -> new Floor(a[0]);
      case "CEIL/1" -> new Ceil(a[0]);
      case "ROUND/2" -> new Round(a[0], a[1], true);
      case "TRUNC/2" -> new TruncDate(a[0], a[1]);
      case "COS/1" -> new Cos(a[0]);
      case "SIN/1" -> new Sin(a[0]);
      case "TAN/1" -> new Tan(a[0]);
      case "RADIANS/1" -> new ToRadians(a[0]);
      case "DEGREES/1" -> new ToDegrees(a[0]);
      case "SQRT/1" -> new Sqrt(a[0]);
      case "EXP/1" -> new Exp(a[0]);
      case "LN/1" -> new Log(a[0]);
      case "LOG10/1" -> new Log10(a[0]);
      case "POWER/2" -> new Pow(a[0], a[1]);
      case "SIGN/1" -> new Signum(a[0]);
      default -> null;
    };
  }
}
