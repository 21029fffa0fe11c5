#!/usr/bin/env bash
# Profiles the suite's full scan with Java Flight Recorder and summarises where the time goes.
# Recording starts after two warm-up scans. Run bench/run.sh first (it builds target/bench-classes and writes the stores).
#
#   [CLASSES=DIR] [TAG=NAME] bench/profile.sh [STORE (raw|zstd|blosc, default blosc)] [RUNS (default 10)] [OUT (default target/bench)]
set -euo pipefail
cd "$(dirname "$0")/.."
STORE=${1:-blosc} RUNS=${2:-10} OUT=${3:-target/bench}
# CLASSES=target/compare/before/classes profiles the build bench/compare.sh made of an older commit;
# JOPTS=-DpushDownAggregate=false profiles the scan that returns rows to Spark; JOPTS=-Dcolumn=t2m sums t2m.
CLASSES=${CLASSES:-target/classes}
CP="target/bench-classes:$CLASSES:$(cat target/bench-classpath.txt)"
JAVA=(java ${JOPTS:-} @examples/spark-jvm.options -Dlog4j2.configurationFile=examples/log4j2.properties -cp "$CP")
TAG=${TAG:-$STORE}
JFR="$OUT/scan-$TAG.jfr"
"${JAVA[@]}" -Xmx3g io.github.sparkzarr.bench.ProfileScan scan "$OUT/data/$STORE.zarr" "$RUNS" "$JFR"
"${JAVA[@]}" io.github.sparkzarr.bench.ProfileScan summary "$JFR" | tee "$OUT/profile-$TAG.md"
