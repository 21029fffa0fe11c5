package io.github.sparkzarr.zarr.codec.checksum;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Locale;

/**
 * numcodecs' 32-bit checksum codecs: the data plus its checksum as 4 little-endian bytes, before
 * or after the data. Decoding verifies the checksum and strips it.
 */
public abstract class Checksum32Codec implements BytesCodec {

  /** Where the checksum sits; numcodecs' "location" parameter. */
  public enum Location {
    START,
    END;

    String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int SIZE = 4;

  private final Location location;

  protected Checksum32Codec(Location location) {
    this.location = location;
  }

  public final Location location() {
    return location;
  }

  /** The location numcodecs uses when the configuration has none. */
  protected abstract Location defaultLocation();

  protected abstract int checksum(byte[] data, int offset, int length);

  /** The "location" of a configuration, or {@code fallback} when absent. */
  protected static Location location(JsonNode config, Location fallback) throws CodecException {
    String name = CodecConfig.optionalText(config, "location", fallback.configName());
    for (Location l : Location.values()) {
      if (l.configName().equals(name)) {
        return l;
      }
    }
    throw new CodecException(
        CodecConfig.describe(config) + ": \"location\" must be \"start\" or \"end\", got " + name);
  }

  /** The location only when it differs from the default, as numcodecs' get_config() does. */
  @Override
  public ObjectNode toConfig() {
    ObjectNode config = CodecConfig.withId(id());
    if (location != defaultLocation()) {
      config.put("location", location.configName());
    }
    return config;
  }

  @Override
  public final byte[] encode(byte[] input, int itemSize) {
    byte[] out = new byte[input.length + SIZE];
    int data = location == Location.START ? SIZE : 0;
    System.arraycopy(input, 0, out, data, input.length);
    INT_LE.set(out, location == Location.START ? 0 : input.length, checksum(input, 0, input.length));
    return out;
  }

  @Override
  public final byte[] decode(byte[] input, int decodedSize) throws CodecException {
    int length = verify(input, input.length);
    if (decodedSize >= 0 && length != decodedSize) {
      throw new CodecException(id() + ": data decodes to " + length + " bytes, expected " + decodedSize);
    }
    int data = location == Location.START ? SIZE : 0;
    return Arrays.copyOfRange(input, data, data + length);
  }

  /**
   * Checks the checksum of {@code input[0, inputLength)} where it lies, without copying the data.
   *
   * @return the length of the data (after the checksum with {@link Location#START})
   * @throws CodecException when the checksum does not match, or the input cannot hold one
   */
  public final int verify(byte[] input, int inputLength) throws CodecException {
    if (inputLength < SIZE) {
      throw new CodecException(
          id() + ": " + inputLength + " bytes are too few to hold a 4-byte checksum");
    }
    int length = inputLength - SIZE;
    int data = location == Location.START ? SIZE : 0;
    int expected = (int) INT_LE.get(input, location == Location.START ? 0 : length);
    int actual = checksum(input, data, length);
    if (expected != actual) {
      throw new CodecException(
          String.format(
              "%s checksum mismatch: expected 0x%08x, actual 0x%08x", id(), expected, actual));
    }
    return length;
  }

  @Override
  public boolean equals(Object o) {
    return o != null && o.getClass() == getClass() && ((Checksum32Codec) o).location == location;
  }

  @Override
  public int hashCode() {
    return getClass().hashCode() * 31 + location.hashCode();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[location=" + location.configName() + "]";
  }
}
