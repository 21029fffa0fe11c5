package io.github.sparkzarr.zarr.faults;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A small v2 array for fault tests: int32 0..7 in two raw chunks "0" and "1", fill value -1. */
public final class FaultFixtures {
  private FaultFixtures() {}

  /** Writes the store into {@code dir} and returns its "flaky:" URI. */
  public static String writeArray(Path dir) throws IOException {
    Files.writeString(dir.resolve(".zarray"), "{\"zarr_format\":2,\"shape\":[8],\"chunks\":[4],"
        + "\"dtype\":\"<i4\",\"compressor\":null,\"fill_value\":-1,\"order\":\"C\","
        + "\"filters\":null}", StandardCharsets.UTF_8);
    for (int c = 0; c < 2; c++) {
      ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < 4; i++) {
        b.putInt(c * 4 + i);
      }
      Files.write(dir.resolve(Integer.toString(c)), b.array());
    }
    return flaky(dir);
  }

  public static String flaky(Path dir) {
    return FlakyFileSystem.SCHEME + "://" + dir.toAbsolutePath().toUri().getPath();
  }

  /** The int32 values of little-endian bytes. */
  public static int[] ints(byte[] le) {
    int[] out = new int[le.length / 4];
    ByteBuffer.wrap(le).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
    return out;
  }
}
