#!/usr/bin/env bash
# The spark-zarr benchmark suite: one command, every figure. See docs/benchmarks.md.
#
#   bench/run.sh [--size-gib N] [--chunks "T Y X"] [--field NAME] [--reps N] [--warmup N]
#                [--write-reps N] [--heap-mib N] [--no-jmh] [--out DIR]
#
#   --size-gib    decoded size of the float32 array (default 1; 0.0625 for a quick check). The
#                 array is T x 512 x 512 in 16 x 128 x 128 chunks (1 MiB each), T = size * 1024.
#   --chunks      another chunk shape, e.g. "4 64 64" (64 KiB) or "64 256 256" (16 MiB); T is
#                 rounded to whole time chunks
#   --field       the values: climate (default: a 2 m temperature-like field with noise), random
#                 (uniform, nearly incompressible) or smooth (no noise, 0.01 steps, compressible);
#                 see bench/generate_stores.py
#   --reps        timed repetitions per query, after one untimed warm run (default 5)
#   --warmup      untimed rounds of all the queries before any is timed, so the JIT has compiled
#                 Spark's hot code (default 5; 0 = only the one untimed run per query)
#   --write-reps  timed repetitions per write (default 2)
#   --heap-mib    -Xmx of the small-heap scan (default 512, Spark's minimum is about 450)
#   --no-jmh      skip the JMH codec and column-filling microbenchmarks
#   --out         working directory: stores, Parquet copies, results (default target/bench)
set -euo pipefail
cd "$(dirname "$0")/.."

SIZE_GIB=1 CHUNKS="16 128 128" FIELD=climate REPS=5 WARMUP=5 WRITE_REPS=2 HEAP_MIB=512 JMH=1 OUT=target/bench
while [[ $# -gt 0 ]]; do
  case "$1" in
    --size-gib) SIZE_GIB=$2; shift 2 ;;
    --chunks) CHUNKS=$2; shift 2 ;;
    --field) FIELD=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --write-reps) WRITE_REPS=$2; shift 2 ;;
    --heap-mib) HEAP_MIB=$2; shift 2 ;;
    --no-jmh) JMH=0; shift ;;
    --out) OUT=$2; shift 2 ;;
    *) echo "unknown option $1 (see the top of $0)" >&2; exit 2 ;;
  esac
done
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
DATA=$OUT/data
START=$(date +%s)
step() { echo; echo "=== $* ($(( $(date +%s) - START )) s)"; }

step "machine"
{
  echo "nproc: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  free -h | sed -n 1,2p
  java -version 2>&1 | head -1
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT/machine.txt"

step "build (the connector, then bench/java against it with JMH on the classpath)"
source bench/build.sh

# T x 512 x 512 float32 = size GiB when T = size * 1024; T is a whole number of time chunks.
CT=${CHUNKS%% *}
T=$(awk -v s="$SIZE_GIB" -v c="$CT" 'BEGIN { t = int(s * 1024 / c + 0.5) * c; if (t < c) t = c; print t }')
SHAPE="$T 512 512"
# The climate field's stores keep their old label, so stores made before --field are reused.
LABEL="$SHAPE / $CHUNKS"
[[ $FIELD == climate ]] || LABEL="$LABEL / $FIELD"
step "generate the stores with zarr-python: shape $SHAPE, chunks $CHUNKS, field $FIELD"
if [[ "$(cat "$DATA/shape.txt" 2>/dev/null)" != "$LABEL" ]]; then
  rm -rf "$DATA"
  /usr/bin/python3 bench/generate_stores.py "$DATA" $SHAPE $CHUNKS "$FIELD"
  echo "$LABEL" > "$DATA/shape.txt"
else
  echo "reusing $DATA (same shape, chunks and field)"
fi
du -sh "$DATA"/*.zarr

step "xarray+dask: the same aggregate on the same stores (2 threads)"
/usr/bin/python3 bench/xarray_dask.py "$DATA" "$REPS" "$OUT/xarray.properties"

step "executor memory: scan the blosc store with -Xmx${HEAP_MIB}m"
"${JAVA[@]}" -Xmx${HEAP_MIB}m io.github.sparkzarr.bench.HeapProbe "$DATA/blosc.zarr" "$OUT/heap.properties"

step "Spark local[2]: queries, writes, decode limit, planning"
"${JAVA[@]}" -Xmx3g io.github.sparkzarr.bench.Suite --data "$DATA" --work "$OUT" --reps "$REPS" \
  --warmup "$WARMUP" --write-reps "$WRITE_REPS"

if [[ $JMH == 1 ]]; then
  step "JMH: codecs, v3 codec chains (ops/s = MiB/s of decoded data), filters, decoded chunk -> ColumnarBatch"
  "${JAVA[@]}" org.openjdk.jmh.Main -f 1 -wi 2 -w 1s -i 3 -r 1s -rf text -rff "$OUT/jmh.txt" \
    'CodecBench|FilterBench|FillBench' | grep -E '^(Benchmark|V3CodecBench|CodecBench|FilterBench|FillBench)' || true
  cat "$OUT/jmh.txt"
fi

step "done: $OUT/results.md$([[ $JMH == 1 ]] && echo ", $OUT/jmh.txt")"
