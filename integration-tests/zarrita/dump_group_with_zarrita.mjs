// Prints, as JSON, what zarrita reads from a Zarr v3 group (a dataset spark-zarr wrote), for the
// Java test to compare with what it wrote:
//   {"attributes": {...}, "nodes": [{"path": "/t2m", "kind": "array"}, ...],
//    "arrays": {"t2m": {"shape", "chunks", "data_type", "fill_value", "dimension_names",
//                       "attributes", "values": [... C order ...],
//                       "consolidated": {the same fields as the consolidated metadata has them}}}}
// The group and each array are opened from their own zarr.json; "nodes" and each array's
// "consolidated" come from the consolidated metadata in the root zarr.json. JSON has no NaN,
// infinities or 64-bit integers: those values are written as the strings "NaN", "Infinity",
// "-Infinity" and decimal digits (int64 only when beyond 2^53).
// Usage: node dump_group_with_zarrita.mjs STORE
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { registerEncoders } from "./common.mjs";

const storePath = process.argv[2];
if (!storePath) {
  console.error("usage: node dump_group_with_zarrita.mjs STORE");
  process.exit(2);
}
registerEncoders();

function jsonValue(v) {
  if (typeof v === "bigint") {
    return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  }
  if (typeof v === "number" && !Number.isFinite(v)) {
    return Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
  }
  return v;
}

function metadataOf(arr) {
  return {
    shape: arr.shape,
    chunks: arr.chunks,
    data_type: arr.dtype,
    fill_value: jsonValue(arr.fillValue),
    dimension_names: arr.dimensionNames ?? null,
    attributes: arr.attrs,
  };
}

const store = new FileSystemStore(storePath);
const group = await zarr.open.v3(zarr.root(store), { kind: "group" });
const consolidated = await zarr.withConsolidatedMetadata(store, { format: "v3" });
const nodes = consolidated.contents().sort((a, b) => a.path.localeCompare(b.path));
const arrays = {};
for (const { path, kind } of nodes) {
  if (kind !== "array") continue;
  const arr = await zarr.open.v3(zarr.root(store).resolve(path), { kind: "array" });
  const chunk = await zarr.get(arr);
  const listed = await zarr.open.v3(zarr.root(consolidated).resolve(path), { kind: "array" });
  arrays[path.replace(/^\//, "")] = {
    ...metadataOf(arr),
    values: Array.from(chunk.data, jsonValue),
    consolidated: metadataOf(listed),
  };
}
console.log(JSON.stringify({ attributes: group.attrs, nodes, arrays }));
