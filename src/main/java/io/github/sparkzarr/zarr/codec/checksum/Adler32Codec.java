package io.github.sparkzarr.zarr.codec.checksum;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.codec.CodecException;
import java.util.zip.Adler32;

/** numcodecs "adler32": the data with its Adler32 ("location" defaults to "start"). */
public final class Adler32Codec extends Checksum32Codec {
  public static final String ID = "adler32";

  public Adler32Codec(Location location) {
    super(location);
  }

  public static Adler32Codec fromConfig(JsonNode config) throws CodecException {
    return new Adler32Codec(location(config, Location.START));
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
    Adler32 checksum = new Adler32();
    checksum.update(data, offset, length);
    return (int) checksum.getValue();
  }
}
