// Helpers shared by the zarrita generator and verifier: codecs zarrita can only decode get encoders
// here (gzip via node:zlib, crc32c from its definition, vlen-utf8 from the v3 codec text).
import * as zarr from "zarrita";
import { gunzipSync, gzipSync } from "node:zlib";
import { createHash } from "node:crypto";

const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32c(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC32C_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

class GzipCodec {
  kind = "bytes_to_bytes";
  constructor(level) { this.level = level; }
  static fromConfig(config) { return new GzipCodec(config?.level ?? 5); }
  encode(bytes) { return new Uint8Array(gzipSync(bytes, { level: this.level })); }
  decode(bytes) { return new Uint8Array(gunzipSync(bytes)); }
}

class Crc32cCodec {
  kind = "bytes_to_bytes";
  static fromConfig() { return new Crc32cCodec(); }
  encode(bytes) {
    const out = new Uint8Array(bytes.length + 4);
    out.set(bytes, 0);
    new DataView(out.buffer).setUint32(bytes.length, crc32c(bytes), true);
    return out;
  }
  decode(bytes) {
    const n = bytes.length - 4;
    const stored = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(n, true);
    const data = bytes.subarray(0, n);
    if (stored !== crc32c(data)) throw new Error("crc32c checksum mismatch");
    return data;
  }
  computeEncodedSize(n) { return n + 4; }
}

export function registerEncoders() {
  zarr.registry.set("gzip", () => GzipCodec);
  zarr.registry.set("crc32c", () => Crc32cCodec);
}

/**
 * The value bytes of a zarrita chunk as raw little-endian C order (bools as one byte). zarrita
 * hands back chunks in the stored axis order (its `stride`), so reorder them to C order.
 */
export function rawBytes(chunk) {
  const { data, shape, stride } = chunk;
  const size = data.BYTES_PER_ELEMENT ?? 1;
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const n = shape.reduce((a, b) => a * b, 1);
  const out = Buffer.alloc(n * size);
  const index = new Array(shape.length).fill(0);
  for (let i = 0; i < n; i++) {
    let src = 0;
    for (let d = 0; d < shape.length; d++) src += index[d] * stride[d];
    out.set(bytes.subarray(src * size, src * size + size), i * size);
    for (let d = shape.length - 1; d >= 0 && ++index[d] === shape[d]; d--) index[d] = 0;
  }
  return out;
}

export function sha256(buf) {
  return createHash("sha256").update(buf).digest("hex");
}

/** A reproducible pseudo-random generator (mulberry32) seeded from a name. */
export function rng(name) {
  let a = 0;
  for (const ch of name) a = (Math.imul(a, 31) + ch.charCodeAt(0)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
