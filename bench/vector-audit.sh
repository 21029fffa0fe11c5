#!/usr/bin/env bash
# Finds SIMD code that C2 compiled with its vectors left as heap objects (docs/benchmarks.md,
# "Session 42"): runs the variant layouts' queries, value filters included, in one JVM with
# C2's intrinsic log on and async-profiler's allocation profile over the timed queries, then
# lists the connector's compilations with Vector API intrinsics not expanded and where the
# queries allocated Vector API objects. Both lists are empty when every kernel compiled well.
#
#   bench/vector-audit.sh [--reps N] [--warmup N] [--out DIR] [NAME...]
#
# Needs the stores of bench/variants.sh (target/bench-variants/data; default: all sixteen) and
# async-profiler's jar (see docs/benchmarks.md). JOPTS adds JVM options, e.g.
# JOPTS=-XX:-ClipInlining to run without C2's default inlining budget (DesiredMethodLimit).
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=2 WARMUP=2 OUT=target/vector-audit DATA=target/bench-variants/data
NAMES=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --reps) REPS=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --*) echo "unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    *) NAMES+=("$1"); shift ;;
  esac
done
[[ ${#NAMES[@]} -gt 0 ]] || NAMES=(f64_zstd packed_i16 plane_blosc column_blosc gzip bloscz_bit u8_blosc
  i32_zstd era5_grid f32_zstd v3_zstd be_blosc forder_blosc quantize_zlib lz4_small bloscl_bit)
for name in "${NAMES[@]}"; do
  [[ -d "$DATA/$name.zarr" ]] || { echo "no $DATA/$name.zarr: run bench/variants.sh --time-steps 512 ${NAMES[*]}" >&2; exit 1; }
done
AP_JAR=$HOME/.m2/repository/tools/profiler/async-profiler/3.0/async-profiler-3.0.jar
[[ -f $AP_JAR ]] || mvn -B -q dependency:get -Dartifact=tools.profiler:async-profiler:3.0
[[ -f /tmp/ap/linux-x64/libasyncProfiler.so ]] || unzip -o -q "$AP_JAR" -d /tmp/ap
source bench/build.sh
mkdir -p "$OUT"
# shellcheck disable=SC2086
java @examples/spark-jvm.options -Dlog4j2.configurationFile=examples/log4j2.properties \
  ${JOPTS:-} -XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation -XX:+PrintIntrinsics \
  -cp "$CP:$AP_JAR" -Xmx3g -Dfiltered=true -DasyncProfile="$OUT/alloc.collapsed" -DprofileStore='*' \
  -DasyncEvent=alloc io.github.sparkzarr.bench.Variants "$DATA" "$REPS" "$WARMUP" /dev/null \
  "$OUT/results.md" "${NAMES[@]}" > "$OUT/jvm.log" 2>&1
/usr/bin/env python3 bench/vector_audit.py "$OUT/jvm.log" "$OUT/alloc.collapsed" | tee "$OUT/summary.txt"
