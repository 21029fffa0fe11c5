package io.github.sparkzarr.zarr.codec.compress;

import com.github.luben.zstd.ZstdDecompressCtx;

/**
 * A zstd decompression context per thread. zstd-jni's static one-shot calls make and free a
 * context (about 100 KiB) on every call, which cost 13% of a scan of blosc-zstd chunks (one call
 * per blosc block). Tasks run on long-lived executor threads, so one context serves many chunks;
 * each one-shot call on it starts a new frame, whatever the last call left.
 */
public final class ZstdContexts {
  private static final ThreadLocal<ZstdDecompressCtx> DECOMPRESS =
      ThreadLocal.withInitial(ZstdDecompressCtx::new);

  private ZstdContexts() {}

  /** This thread's context; use it only for one-shot calls. */
  public static ZstdDecompressCtx decompressor() {
    return DECOMPRESS.get();
  }
}
