#!/usr/bin/env bash
# The suite's queries and the issue's ratios on any Zarr store, yours included: a group
# (xarray-style dataset, v2 or v3) or an array, against xarray+dask, a Parquet copy and the
# decode limit of the same store. See docs/benchmarks-history.md, "Your own stores".
#
#   bench/store.sh [--var NAME] [--reps N] [--warmup N] [--write-reps N] [--heap-mib N] [--out DIR] STORE...
#
#   --var      the variable of a group to query (default: the data variable with the most
#              elements, as xarray sees the group; for a v3 group, which zarr-python 2.13 cannot
#              open, the dataset view's last column)
#   --reps     timed repetitions per query (default 5), after --warmup untimed rounds (default 3)
#   --write-reps  writes of the variable's rows timed as Parquet and as Zarr (default 2; 0 also
#              skips the Parquet copy and the decode limit, for the queries alone)
#   --heap-mib the -Xmx of the small-heap scan that bounds executor memory per task (default 512;
#              0 skips it)
#   --out      where results.md and the other steps' figures go (default target/bench-store);
#              the Parquet copies and the writes go in OUT/copies, deleted at the end
#   STORE      a local path to a Zarr group or array
set -euo pipefail
cd "$(dirname "$0")/.."

VAR=- REPS=5 WARMUP=3 WRITE_REPS=2 HEAP_MIB=512 OUT=target/bench-store
STORES=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --var) VAR=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --write-reps) WRITE_REPS=$2; shift 2 ;;
    --heap-mib) HEAP_MIB=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --*) echo "unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    *) STORES+=("$(cd "$1" && pwd)"); shift ;;
  esac
done
[[ ${#STORES[@]} -gt 0 ]] || { echo "usage: $0 [--var NAME] [--reps N] [--warmup N] [--write-reps N] [--heap-mib N] [--out DIR] STORE..." >&2; exit 2; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

echo "=== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "=== build"
source bench/build.sh

echo "=== xarray+dask, 2 threads"
/usr/bin/python3 bench/xarray_store.py "$OUT/xarray.properties" "$REPS" "$VAR" "${STORES[@]}"

rm -f "$OUT"/heap-*.properties
if [[ $HEAP_MIB -gt 0 ]]; then
  echo "=== executor memory: a sum in local[2] with -Xmx${HEAP_MIB}m"
  for i in "${!STORES[@]}"; do
    v=$VAR
    [[ $v != - ]] || v=$(sed -n "s/^$i\.var=//p" "$OUT/xarray.properties")
    "${JAVA[@]}" -Xmx${HEAP_MIB}m io.github.sparkzarr.bench.HeapProbe "${STORES[$i]}" "$OUT/heap-$i.properties" $v
  done
fi

echo "=== Spark local[2]"
"${JAVA[@]}" -Xmx3g io.github.sparkzarr.bench.StoreBench "$OUT" "$REPS" "$WARMUP" "$WRITE_REPS" "$VAR" "${STORES[@]}"
echo "=== done: $OUT/results.md"
