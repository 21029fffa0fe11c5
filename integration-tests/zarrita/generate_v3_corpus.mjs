// Writes Zarr v3 stores with zarrita (an implementation independent of ours) and the values
// zarrita reads back, as a manifest (see integration-tests/README.md).
// Usage: node generate_v3_corpus.mjs OUTDIR
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { rawBytes, registerEncoders, rng, sha256 } from "./common.mjs";

const out = process.argv[2];
if (!out) {
  console.error("usage: node generate_v3_corpus.mjs OUTDIR");
  process.exit(2);
}
registerEncoders();
const STORE = "v3.zarr";
rmSync(join(out, STORE), { recursive: true, force: true });
rmSync(join(out, "expected"), { recursive: true, force: true });
const storePath = join(out, STORE);
mkdirSync(storePath, { recursive: true });
const store = new FileSystemStore(storePath);
const root = zarr.root(store);
const manifest = {
  manifest_version: 1,
  generator: "integration-tests/zarrita/generate_v3_corpus.mjs",
  zarrita: JSON.parse(readFileSync(new URL("./node_modules/zarrita/package.json", import.meta.url))).version,
  stores: [{ store: STORE, consolidated: false }],
  groups: [],
  arrays: [],
};

const CTR = {
  bool: Uint8Array, int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array,
  uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array,
  float32: Float32Array, float64: Float64Array,
};
const RANGE = {
  int8: [-128, 127], int16: [-32768, 32767], int32: [-2147483648, 2147483647],
  uint8: [0, 255], uint16: [0, 65535], uint32: [0, 4294967295],
};

function values(dtype, n, name) {
  const r = rng(name);
  const a = new CTR[dtype](n);
  for (let i = 0; i < n; i++) {
    if (dtype === "bool") a[i] = r() < 0.5 ? 1 : 0;
    else if (dtype === "int64") a[i] = BigInt(Math.floor((r() - 0.5) * 2 ** 53)) * 1024n + BigInt(i);
    else if (dtype === "uint64") a[i] = BigInt(Math.floor(r() * 2 ** 53)) * 2048n + BigInt(i);
    else if (dtype.startsWith("float")) a[i] = (r() - 0.5) * 1e6;
    else a[i] = RANGE[dtype][0] + Math.floor(r() * (RANGE[dtype][1] - RANGE[dtype][0] + 1));
  }
  // extremes, where they exist
  if (dtype === "int64") { a[0] = -(2n ** 63n); a[n - 1] = 2n ** 63n - 1n; }
  if (dtype === "uint64") { a[n - 1] = 2n ** 64n - 1n; }
  if (dtype.startsWith("float") && n > 4) { a[0] = NaN; a[1] = -0; a[2] = Infinity; a[3] = -Infinity; }
  return a;
}

function view(dtype, data) {
  return dtype === "bool" ? new zarr.BoolArray(data.buffer) : data;
}

/** Rewrites fields of an array's zarr.json (for what zarrita's create() has no option for). */
function patchMetadata(path, patch, rawFill) {
  const file = join(storePath, path, "zarr.json");
  let doc = JSON.parse(readFileSync(file, "utf8"));
  Object.assign(doc, patch);
  let text = JSON.stringify(doc, null, 2);
  if (rawFill !== undefined) text = text.replace('"fill_value": "__RAW__"', `"fill_value": ${rawFill}`);
  writeFileSync(file, text);
}

async function record(path, note, dataFormat = "raw") {
  const arr = await zarr.open(root.resolve(path), { kind: "array" });
  const doc = JSON.parse(readFileSync(join(storePath, path, "zarr.json"), "utf8"));
  const chunk = await zarr.get(arr);
  const file = join("expected", path + (dataFormat === "raw" ? ".bin" : ".json"));
  mkdirSync(dirname(join(out, file)), { recursive: true });
  const bytes = dataFormat === "raw" ? rawBytes(chunk) : Buffer.from(JSON.stringify(Array.from(chunk.data)));
  writeFileSync(join(out, file), bytes);
  const entry = {
    store: STORE, path, zarr_format: 3, shape: doc.shape,
    chunks: doc.chunk_grid.configuration.chunk_shape, data_type: doc.data_type,
    fill_value: doc.fill_value, codecs: doc.codecs, chunk_key_encoding: doc.chunk_key_encoding,
    expected: { file, format: dataFormat, sha256: sha256(bytes) }, note,
  };
  if (doc.dimension_names) entry.dimension_names = doc.dimension_names;
  if (doc.attributes && Object.keys(doc.attributes).length) entry.attributes = doc.attributes;
  manifest.arrays.push(entry);
}

/** Creates an array, writes `data` over the region `region` (all of it by default), records it. */
async function array(path, opts, { note, fill, region, patch, rawFill } = {}) {
  const shape = opts.shape;
  const n = shape.reduce((x, y) => x * y, 1);
  const arr = await zarr.create(root.resolve(path), { fillValue: fill ?? (opts.dtype === "bool" ? false : 0), ...opts });
  if (patch || rawFill !== undefined) {
    patchMetadata(path, patch ?? {}, rawFill);
  }
  const reopened = await zarr.open(root.resolve(path), { kind: "array" });
  const sel = region ?? shape.map(() => null);
  const regionShape = shape.map((d, i) => (sel[i] === null ? d : sel[i][1] - sel[i][0]));
  const count = regionShape.reduce((x, y) => x * y, 1);
  const data = values(opts.dtype, count, path);
  await zarr.set(reopened, sel.map((s) => (s === null ? null : zarr.slice(s[0], s[1]))), {
    data: view(opts.dtype, data), shape: regionShape, stride: strides(regionShape),
  });
  await record(path, note ?? `${opts.dtype} ${JSON.stringify(opts.codecs)}`);
  void n;
}

function strides(shape) {
  const s = new Array(shape.length);
  let step = 1;
  for (let i = shape.length - 1; i >= 0; i--) { s[i] = step; step *= shape[i]; }
  return s;
}

const bytesLE = { name: "bytes", configuration: { endian: "little" } };
const bytesBE = { name: "bytes", configuration: { endian: "big" } };
const CODECS = {
  bytes_le: [bytesLE],
  bytes_be: [bytesBE],
  gzip: [bytesLE, { name: "gzip", configuration: { level: 5 } }],
  zstd: [bytesLE, { name: "zstd", configuration: { level: 3, checksum: false } }],
  blosc: [bytesLE, { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 } }],
  transpose_crc32c: [{ name: "transpose", configuration: { order: [1, 0] } }, bytesBE, { name: "crc32c" }],
};

await zarr.create(root, { attributes: { title: "zarrita v3 corpus", answer: 42 } });
manifest.groups.push({ store: STORE, path: "", attributes: { title: "zarrita v3 corpus", answer: 42 } });
await zarr.create(root.resolve("dtypes"), { attributes: {} });
manifest.groups.push({ store: STORE, path: "dtypes", attributes: {} });

for (const dtype of Object.keys(CTR)) {
  for (const [cname, codecs] of Object.entries(CODECS)) {
    if (dtype === "bool" && (cname === "blosc" || cname === "bytes_be")) continue;
    // zarrita byte-swaps bools in 4-byte groups under endian "big" (bool has no byte order)
    const chain = dtype === "bool" ? codecs.map((c) => (c === bytesBE ? bytesLE : c)) : codecs;
    await array(`dtypes/${dtype}_${cname}`, { shape: [5, 7], chunkShape: [3, 4], dtype, codecs: chain });
  }
}

// fill values: missing chunks (only part of the array written) read as the fill value
await zarr.create(root.resolve("fill"), { attributes: { kind: "fill values" } });
manifest.groups.push({ store: STORE, path: "fill", attributes: { kind: "fill values" } });
const part = [[0, 3], [0, 4]];
const fillCases = [
  ["float64_nan", "float64", "NaN"], ["float64_inf", "float64", "Infinity"],
  ["float32_neginf", "float32", "-Infinity"], ["float64_frac", "float64", 0.5],
  ["int16_neg", "int16", -7], ["uint8_max", "uint8", 255], ["bool_true", "bool", true],
];
for (const [name, dtype, fill] of fillCases) {
  await array(`fill/${name}`, { shape: [5, 7], chunkShape: [3, 4], dtype, codecs: [bytesLE] },
    { fill, region: part, note: `${dtype} fill ${fill}, chunks outside [0:3,0:4] missing` });
}
await array("fill/int64_min", { shape: [5, 7], chunkShape: [3, 4], dtype: "int64", codecs: [bytesLE] },
  { region: part, fill: 0, rawFill: "-9223372036854775808", patch: { fill_value: "__RAW__" }, note: "int64 fill -2^63" });
// (no uint64 fill near 2^64: zarrita parses the JSON number as a double and reads 0 for it)

// chunk key encodings, both separators
await zarr.create(root.resolve("keys"), { attributes: {} });
manifest.groups.push({ store: STORE, path: "keys", attributes: {} });
for (const [name, enc] of [
  ["default_slash", { name: "default", configuration: { separator: "/" } }],
  ["default_dot", { name: "default", configuration: { separator: "." } }],
  ["v2_dot", { name: "v2", configuration: { separator: "." } }],
  ["v2_slash", { name: "v2", configuration: { separator: "/" } }],
]) {
  await array(`keys/${name}`, { shape: [4, 6, 5], chunkShape: [2, 3, 2], dtype: "int32", codecs: [bytesLE] },
    { patch: { chunk_key_encoding: enc }, note: `chunk_key_encoding ${JSON.stringify(enc)}` });
}

// layout: dimension names, attributes, transpose in 3-d, rank 1, chunks larger than the array
await array("layout/dims", { shape: [6, 4], chunkShape: [4, 4], dtype: "float32", codecs: [bytesLE],
  dimensionNames: ["lat", "lon"], attributes: { units: "K", scale: [1, 2] } }, { note: "dimension names and attributes" });
await array("layout/dims_null", { shape: [3, 5], chunkShape: [2, 2], dtype: "int8", codecs: [bytesLE],
  dimensionNames: [null, "x"] }, { note: "a null dimension name" });
await array("layout/transpose_3d", { shape: [5, 6, 7], chunkShape: [2, 3, 4], dtype: "uint16",
  codecs: [{ name: "transpose", configuration: { order: [2, 0, 1] } }, bytesLE, { name: "zstd", configuration: { level: 1, checksum: false } }] },
  { note: "transpose [2,0,1] then zstd" });
await array("layout/rank1", { shape: [23], chunkShape: [5], dtype: "float64", codecs: [bytesLE, { name: "gzip", configuration: { level: 1 } }] });
await array("layout/big_chunks", { shape: [3, 2], chunkShape: [10, 10], dtype: "int32", codecs: [bytesLE] },
  { note: "one chunk larger than the array" });

// implicit groups: no zarr.json at implicit/ or implicit/a/
await array("implicit/a/arr", { shape: [4], chunkShape: [2], dtype: "int32", codecs: [bytesLE] },
  { note: "array below two implicit groups" });
manifest.implicit_groups = [{ store: STORE, path: "implicit" }, { store: STORE, path: "implicit/a" }];

writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n");
console.log(`wrote ${manifest.arrays.length} arrays and ${manifest.groups.length} groups to ${out}`);
