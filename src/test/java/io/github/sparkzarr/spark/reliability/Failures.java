package io.github.sparkzarr.spark.reliability;

/** The text of an exception and all its causes and suppressed exceptions, as a user would see. */
final class Failures {
  private Failures() {}

  static String fullText(Throwable t) {
    StringBuilder out = new StringBuilder();
    append(t, out, 0);
    return out.toString();
  }

  private static void append(Throwable t, StringBuilder out, int depth) {
    if (t == null || depth > 20) {
      return;
    }
    out.append(t).append('\n');
    for (StackTraceElement e : t.getStackTrace()) {
      out.append("  at ").append(e).append('\n');
    }
    for (Throwable s : t.getSuppressed()) {
      append(s, out, depth + 1);
    }
    append(t.getCause(), out, depth + 1);
  }
}
