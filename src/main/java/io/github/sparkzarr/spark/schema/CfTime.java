package io.github.sparkzarr.spark.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.Serializable;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CF time units ({@code "<unit> since <reference date>"}): value × unit + reference, in
 * microseconds since 1970-01-01T00:00 (no time zone, as timestamp_ntz).
 */
public record CfTime(long unitMicros, long referenceMicros) implements Serializable {
  private static final Pattern UNITS = Pattern.compile(
      "\\s*(\\w+)\\s+since\\s+(\\d{1,4})-(\\d{1,2})-(\\d{1,2})"
          + "(?:[T\\s]+(\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,9}))?)?)?"
          + "\\s*(Z|UTC|[+-]\\d{1,2}(?::?\\d{2})?)?\\s*",
      Pattern.CASE_INSENSITIVE);
  private static final Set<String> CALENDARS = Set.of("standard", "gregorian", "proleptic_gregorian");

  /** The time units of a variable, or null if its units are not CF time units. */
  public static CfTime parse(String name, ObjectNode attrs) {
    JsonNode units = attrs.get("units");
    if (units == null || !units.isTextual()) {
      return null;
    }
    Matcher m = UNITS.matcher(units.asText());
    if (!m.matches()) {
      return null;
    }
    long unit = unitMicros(m.group(1));
    if (unit == 0) {
      return null;
    }
    JsonNode cal = attrs.get("calendar");
    if (cal != null && !CALENDARS.contains(cal.asText().toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException("variable '" + name + "' uses the calendar '" + cal.asText()
          + "'; only standard, gregorian and proleptic_gregorian times can be decoded. "
          + "Read it undecoded with option decodeCF=false.");
    }
    LocalDate date = LocalDate.of(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
        Integer.parseInt(m.group(4)));
    LocalTime time = LocalTime.MIDNIGHT;
    if (m.group(5) != null) {
      int seconds = m.group(7) == null ? 0 : Integer.parseInt(m.group(7));
      int nanos = m.group(8) == null ? 0 : Integer.parseInt((m.group(8) + "00000000").substring(0, 9));
      time = LocalTime.of(Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)), seconds, nanos);
    }
    long ref = ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0),
        LocalDateTime.of(date, time));
    String zone = m.group(9);
    if (zone != null && !zone.equalsIgnoreCase("Z") && !zone.equalsIgnoreCase("UTC")) {
      // Like pandas: an offset reference date is converted to UTC.
      ref -= ZoneOffset.of(zone.length() <= 3 ? zone.charAt(0) + String.format("%02d",
          Integer.parseInt(zone.substring(1))) : zone).getTotalSeconds() * 1_000_000L;
    }
    return new CfTime(unit, ref);
  }

  private static long unitMicros(String unit) {
    return switch (unit.toLowerCase(Locale.ROOT)) {
      case "days", "day", "d" -> 86_400_000_000L;
      case "hours", "hour", "hr", "hrs", "h" -> 3_600_000_000L;
      case "minutes", "minute", "min", "mins" -> 60_000_000L;
      case "seconds", "second", "sec", "secs", "s" -> 1_000_000L;
      case "milliseconds", "millisecond", "msec", "msecs", "ms" -> 1_000L;
      case "microseconds", "microsecond", "usec", "usecs", "us" -> 1L;
      default -> 0L;
    };
  }

  /** An integer count of units as microseconds since the epoch. */
  public long fromLong(long value) {
    return Math.addExact(Math.multiplyExact(value, unitMicros), referenceMicros);
  }

  /** A fractional count of units as microseconds since the epoch (rounded, as pandas does). */
  public long fromDouble(double value) {
    return Math.round(value * unitMicros) + referenceMicros;
  }
}
