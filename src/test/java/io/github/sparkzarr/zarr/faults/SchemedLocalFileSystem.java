package io.github.sparkzarr.zarr.faults;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.RawLocalFileSystem;

/** The local file system under a scheme of its own, so a test can inject faults into it alone. */
abstract class SchemedLocalFileSystem extends RawLocalFileSystem {
  private final String scheme;

  SchemedLocalFileSystem(String scheme) {
    this.scheme = scheme;
  }

  @Override
  public URI getUri() {
    return URI.create(scheme + ":///");
  }

  @Override
  public String getScheme() {
    return scheme;
  }

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    super.initialize(uri, conf);
    setConf(conf);
  }
}
