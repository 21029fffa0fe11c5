#!/usr/bin/env bash
# The suite's queries on any Zarr store, yours included: a group (xarray-style dataset, v2 or v3)
# or an array, against xarray+dask on the same store. See docs/benchmarks.md, "Your own stores".
#
#   bench/store.sh [--var NAME] [--reps N] [--warmup N] [--out DIR] STORE...
#
#   --var      the variable of a group to query (default: the data variable with the most
#              elements, as xarray sees the group; for a v3 group, which zarr-python 2.13 cannot
#              open, the dataset view's last column)
#   --reps     timed repetitions per query (default 5), after --warmup untimed rounds (default 3)
#   --out      where results.md and xarray.properties go (default target/bench-store)
#   STORE      a local path to a Zarr group or array
set -euo pipefail
cd "$(dirname "$0")/.."

VAR=- REPS=5 WARMUP=3 OUT=target/bench-store
STORES=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --var) VAR=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --*) echo "unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    *) STORES+=("$(cd "$1" && pwd)"); shift ;;
  esac
done
[[ ${#STORES[@]} -gt 0 ]] || { echo "usage: $0 [--var NAME] [--reps N] [--warmup N] [--out DIR] STORE..." >&2; exit 2; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

echo "=== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "=== build"
source bench/build.sh

echo "=== xarray+dask, 2 threads"
/usr/bin/python3 bench/xarray_store.py "$OUT/xarray.properties" "$REPS" "$VAR" "${STORES[@]}"

echo "=== Spark local[2]"
"${JAVA[@]}" -Xmx3g io.github.sparkzarr.bench.StoreBench "$OUT/xarray.properties" "$OUT/results.md" \
  "$REPS" "$WARMUP" "$VAR" "${STORES[@]}"
echo "=== done: $OUT/results.md"
