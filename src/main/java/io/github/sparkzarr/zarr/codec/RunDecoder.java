package io.github.sparkzarr.zarr.codec;

/**
 * Decodes a filter's elements a run at a time, in order, for one chunk: a scan then hands each run
 * on while it is still in the CPU's caches, and never writes the decoded chunk whole. It carries
 * what a filter needs from one run to the next (Delta's running sum), so a new one serves each
 * chunk.
 */
public interface RunDecoder {

  /**
   * Decodes {@code count} encoded elements at {@code in[inOffset...]} into {@code out[outOffset...]},
   * the bytes {@link ArrayFilter#decode} gives for them. Runs come in order and without gaps.
   */
  void decode(byte[] in, int inOffset, byte[] out, int outOffset, int count);
}
