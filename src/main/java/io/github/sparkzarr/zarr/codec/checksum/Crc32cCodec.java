package io.github.sparkzarr.zarr.codec.checksum;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.codec.CodecException;
import java.util.zip.CRC32C;

/**
 * numcodecs "crc32c" (numcodecs ≥ 0.12): the data with its CRC32C ("location" defaults to "end").
 * With the checksum at the end it is also Zarr v3's core "crc32c" codec, see {@link #v3()}.
 */
public final class Crc32cCodec extends Checksum32Codec {
  public static final String ID = "crc32c";

  public Crc32cCodec(Location location) {
    super(location);
  }

  public static Crc32cCodec fromConfig(JsonNode config) throws CodecException {
    return new Crc32cCodec(location(config, Location.END));
  }

  /** Zarr v3's "crc32c" codec: the CRC32C appended as 4 little-endian bytes. */
  public static Crc32cCodec v3() {
    return new Crc32cCodec(Location.END);
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  protected Location defaultLocation() {
    return Location.END;
  }

  @Override
  protected int checksum(byte[] data, int offset, int length) {
    CRC32C checksum = new CRC32C();
    checksum.update(data, offset, length);
    return (int) checksum.getValue();
  }
}
