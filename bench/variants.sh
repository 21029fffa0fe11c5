#!/usr/bin/env bash
# The suite's queries on other layouts than its own: float64, CF-packed int16, one time step or one
# long time series per chunk, gzip, blosc-zstd with bit shuffle, uint8, int32 (see
# bench/generate_variants.py), each against xarray+dask's sum. See docs/benchmarks.md.
#
#   bench/variants.sh [--time-steps N] [--reps N] [--warmup N] [--out DIR] [NAME...]
#
#   --time-steps  T of the T x 512 x 512 field (default 256: 256 MiB as float32)
#   --reps        timed repetitions per query (default 5), after --warmup untimed rounds (default 3)
#   --out         working directory (default target/bench-variants); stores are kept in DIR/data
#                 and rewritten only when T changes
#   NAME...       only these stores (default all nine)
set -euo pipefail
cd "$(dirname "$0")/.."

T=256 REPS=5 WARMUP=3 OUT=target/bench-variants
NAMES=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --time-steps) T=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --*) echo "unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    *) NAMES+=("$1"); shift ;;
  esac
done
[[ ${#NAMES[@]} -gt 0 ]] || NAMES=(f64_zstd packed_i16 plane_blosc column_blosc gzip bloscz_bit u8_blosc i32_zstd era5_grid)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
DATA=$OUT/data

echo "=== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "=== build"
source bench/build.sh

echo "=== stores (xarray to_zarr), T = $T"
if [[ "$(cat "$DATA/time-steps.txt" 2>/dev/null)" != "$T" ]]; then
  rm -rf "$DATA"
  /usr/bin/python3 bench/generate_variants.py "$DATA" "$T"
  echo "$T" > "$DATA/time-steps.txt"
fi
MISSING=()  # named stores not written yet (the extra layouts are written only when named)
for name in "${NAMES[@]}"; do [[ -d "$DATA/$name.zarr" ]] || MISSING+=("$name"); done
[[ ${#MISSING[@]} -eq 0 ]] || /usr/bin/python3 bench/generate_variants.py "$DATA" "$T" "${MISSING[@]}"

echo "=== xarray+dask sum, 2 threads"
/usr/bin/python3 bench/xarray_variants.py "$DATA" "$REPS" "$OUT/xarray.properties" "${NAMES[@]}"

echo "=== Spark local[2]"
"${JAVA[@]}" -Xmx3g io.github.sparkzarr.bench.Variants "$DATA" "$REPS" "$WARMUP" \
  "$OUT/xarray.properties" "$OUT/results.md" "${NAMES[@]}"
echo "=== done: $OUT/results.md"
