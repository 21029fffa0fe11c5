package io.github.sparkzarr.zarr.codec;

/**
 * The most bytes a decoder produces when the metadata does not fix a chunk's decoded size (object
 * and variable-length chunks). Fixed-size chunks are bounded by their exact size instead; this
 * bound keeps a decompression bomb in a variable-length chunk from exhausting the heap.
 *
 * <p>Default 128 MiB; the JVM system property {@value #PROPERTY} changes it (on Spark executors
 * through {@code spark.executor.extraJavaOptions}).
 */
public final class DecodeLimit {
  public static final String PROPERTY = "sparkzarr.maxUnknownDecodedBytes";
  private static final int DEFAULT = 128 << 20;
  private static final int MAX = Integer.getInteger(PROPERTY, DEFAULT);

  private DecodeLimit() {}

  /** The limit in bytes. */
  public static int maxUnknownDecodedBytes() {
    return MAX;
  }

  /** Fails when a header declares more than the limit for output of unknown expected size. */
  public static void checkDeclared(String codec, long declared) throws CodecException {
    if (declared > MAX) {
      throw tooLarge(codec, declared);
    }
  }

  public static CodecException tooLarge(String codec, long bytes) {
    return new CodecException(codec + ": data decodes to " + (bytes < 0 ? "more than " + MAX : bytes)
        + " bytes, over the limit of " + MAX + " for chunks of unknown decoded size (system property "
        + PROPERTY + ")");
  }
}
