package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.CodecException;

/** The shuffle filter blosc applies to each block before compressing it. */
public enum BloscShuffle {
  NOSHUFFLE(0, "noshuffle"),
  SHUFFLE(1, "shuffle"),
  BITSHUFFLE(2, "bitshuffle"),
  /** numcodecs' -1: bit shuffle for 1-byte elements, byte shuffle otherwise. */
  AUTOSHUFFLE(-1, null);

  private final int numcodecsValue;
  private final String v3Name;

  BloscShuffle(int numcodecsValue, String v3Name) {
    this.numcodecsValue = numcodecsValue;
    this.v3Name = v3Name;
  }

  /** The integer numcodecs writes in v2 metadata. */
  public int numcodecsValue() {
    return numcodecsValue;
  }

  public static BloscShuffle fromNumcodecs(int value) throws CodecException {
    for (BloscShuffle s : values()) {
      if (s.numcodecsValue == value) {
        return s;
      }
    }
    throw new CodecException(
        "blosc: shuffle must be -1 (auto), 0 (none), 1 (byte) or 2 (bit), got " + value);
  }

  public static BloscShuffle fromV3Name(String name) throws CodecException {
    for (BloscShuffle s : values()) {
      if (name.equals(s.v3Name)) {
        return s;
      }
    }
    throw new CodecException(
        "blosc: shuffle must be \"noshuffle\", \"shuffle\" or \"bitshuffle\", got \"" + name + "\"");
  }

  /** The filter in effect for elements of itemSize bytes. */
  BloscShuffle resolve(int itemSize) {
    return this == AUTOSHUFFLE ? (itemSize == 1 ? BITSHUFFLE : SHUFFLE) : this;
  }

  /** The header flag of a resolved (not auto) filter. */
  int headerFlag() {
    return switch (this) {
      case SHUFFLE -> BloscHeader.FLAG_BYTE_SHUFFLE;
      case BITSHUFFLE -> BloscHeader.FLAG_BIT_SHUFFLE;
      default -> 0;
    };
  }

  /**
   * Shuffles a block into dst with a resolved filter when libblosc would (same conditions as
   * {@link BloscHeader}'s).
   *
   * @return whether dst now holds the block
   */
  boolean apply(int typeSize, int blockBytes, byte[] src, int srcOff, byte[] dst) {
    if (this == SHUFFLE && typeSize > 1) {
      ByteShuffle.shuffle(typeSize, blockBytes, src, srcOff, dst, 0);
      return true;
    }
    if (this == BITSHUFFLE && blockBytes >= typeSize) {
      BitShuffle.shuffle(typeSize, blockBytes, src, srcOff, dst, 0);
      return true;
    }
    return false;
  }
}
