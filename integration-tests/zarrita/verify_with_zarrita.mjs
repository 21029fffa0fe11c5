// Reads every array of a manifest (stores written by spark-zarr) with zarrita and compares the
// metadata it lists and every value. Prints "ok"/"FAIL" per array, then "N passed, M failed";
// exits 1 if anything failed. Usage: node verify_with_zarrita.mjs MANIFEST
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { rawBytes, registerEncoders, sha256 } from "./common.mjs";

const manifestPath = process.argv[2];
if (!manifestPath) {
  console.error("usage: node verify_with_zarrita.mjs MANIFEST");
  process.exit(2);
}
registerEncoders();
const base = dirname(manifestPath);
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
let passed = 0;
let failed = 0;

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function check(entry) {
  const store = new FileSystemStore(join(base, entry.store));
  let root = zarr.root(store);
  if (entry.consolidated) {
    const consolidated = await zarr.withConsolidatedMetadata(store, { format: "v3" });
    root = zarr.root(consolidated);
  }
  const arr = await zarr.open.v3(root.resolve(entry.path), { kind: "array" });
  if (!same(arr.shape, entry.shape)) throw new Error(`shape ${arr.shape} != ${entry.shape}`);
  // zarrita reports a sharded array's inner chunk shape as its chunks
  const chunks = entry.inner_chunks ?? entry.chunks;
  if (!same(arr.chunks, chunks)) throw new Error(`chunks ${arr.chunks} != ${chunks}`);
  if (entry.data_type !== undefined && !same(arr.dtype, entry.data_type)) {
    throw new Error(`data_type ${JSON.stringify(arr.dtype)} != ${JSON.stringify(entry.data_type)}`);
  }
  if (entry.attributes && !same(arr.attrs, entry.attributes)) {
    throw new Error(`attributes ${JSON.stringify(arr.attrs)} != ${JSON.stringify(entry.attributes)}`);
  }
  const chunk = await zarr.get(arr);
  const expectedBytes = readFileSync(join(base, entry.expected.file));
  if (entry.expected.sha256 && sha256(expectedBytes) !== entry.expected.sha256) {
    throw new Error("the expected file does not match its sha256");
  }
  if (entry.expected.format === "json") {
    const expected = JSON.parse(expectedBytes.toString("utf8"));
    const actual = Array.from(chunk.data);
    if (!same(actual, expected)) throw new Error(`values ${JSON.stringify(actual).slice(0, 200)} != ${JSON.stringify(expected).slice(0, 200)}`);
  } else {
    const actual = rawBytes(chunk);
    if (!actual.equals(expectedBytes)) {
      let i = 0;
      while (i < actual.length && actual[i] === expectedBytes[i]) i++;
      throw new Error(`values differ from byte ${i} (${actual.length} vs ${expectedBytes.length} bytes)`);
    }
  }
}

for (const entry of manifest.arrays) {
  const name = `${entry.store}/${entry.path}`;
  try {
    await check(entry);
    console.log(`ok   ${name}`);
    passed++;
  } catch (e) {
    console.log(`FAIL ${name}: ${e.message}`);
    failed++;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
