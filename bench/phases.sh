#!/usr/bin/env bash
# Where a small query's wall time goes (QueryPhases): bench/phases.sh STORE RUNS QUERY...
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-target/bench/data} STORE=$1 RUNS=$2; shift 2
java ${JOPTS:-} @examples/spark-jvm.options -Dlog4j2.configurationFile=examples/log4j2.properties -Xmx3g \
  -cp "target/bench-classes:${CLASSES:-target/classes}:$(cat target/bench-classpath.txt)" \
  io.github.sparkzarr.bench.QueryPhases "$DATA/$STORE.zarr" "$RUNS" "$@" 2>/dev/null
