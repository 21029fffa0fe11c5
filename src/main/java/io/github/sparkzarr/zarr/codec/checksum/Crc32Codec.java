package io.github.sparkzarr.zarr.codec.checksum;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.codec.CodecException;
import java.util.zip.CRC32;

/** numcodecs "crc32": the data with its CRC32 ("location" defaults to "start"). */
public final class Crc32Codec extends Checksum32Codec {
  public static final String ID = "crc32";

  public Crc32Codec(Location location) {
    super(location);
  }

  public static Crc32Codec fromConfig(JsonNode config) throws CodecException {
    return new Crc32Codec(location(config, Location.START));
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  protected Location defaultLocation() {
    return Location.START;
  }

  @Override
  protected int checksum(byte[] data, int offset, int length) {
    CRC32 checksum = new CRC32();
    checksum.update(data, offset, length);
    return (int) checksum.getValue();
  }
}
