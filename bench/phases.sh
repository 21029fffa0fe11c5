#!/usr/bin/env bash
# Where a small query's wall time goes (QueryPhases): bench/phases.sh STORE RUNS QUERY...
# The store is view t (and t_rows, pushDownAggregate=false); STORE in a query is its path (for
# zarr.`STORE` SQL). Queries take turns. CLASSES=DIR runs another build (bench/compare.sh leaves
# target/compare/before/classes); JOPTS="-Djfr=/tmp/x" records a JFR profile and prints the
# driver thread's inclusive samples (JFR's start deoptimised every compiled method in session 48:
# prefer ProfileScan -DasyncProfile); JOPTS="-Dopen=1" / "-Dbcast=1" time opening the table / a
# broadcast of the Hadoop configuration; JOPTS="-Dwarmup=N" runs each query N times untimed first
# (2). Beside the phases it prints the driver thread's CPU, the other threads' (the JIT, GC,
# Spark's) and each thread's CPU per query from /proc. Run bench/run.sh first (classpath, stores).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-target/bench/data} STORE=$1 RUNS=$2; shift 2
java ${JOPTS:-} @examples/spark-jvm.options -Dlog4j2.configurationFile=examples/log4j2.properties -Xmx3g \
  -cp "target/bench-classes:${CLASSES:-target/classes}:$(cat target/bench-classpath.txt)" \
  io.github.sparkzarr.bench.QueryPhases "$DATA/$STORE.zarr" "$RUNS" "$@" 2>/dev/null
