#!/usr/bin/env bash
# Before/after of a read-path change, in one run: the connector at git REF (before) and the
# working tree (after) time the same query on the same store, alternately (A B A B ...) so that
# the load of a shared machine falls on both alike. Run bench/run.sh first (classpath, stores).
#
#   bench/compare.sh REF [STORE (default blosc)] [ROUNDS (default 3)] [RUNS (default 5)] [QUERY]
#
# JOPTS adds JVM options to both, e.g. JOPTS="-Dnoop=true" for answers too big to collect (maps).
set -euo pipefail
cd "$(dirname "$0")/.."
REF=$1 STORE=${2:-blosc} ROUNDS=${3:-3} RUNS=${4:-5}
QUERY=${5:-SELECT sum(value) FROM t}
DATA=${DATA:-target/bench/data}  # where bench/run.sh wrote the stores
DEPS=$(cat target/bench-classpath.txt)
BEFORE=target/compare/before
rm -rf target/compare && mkdir -p $BEFORE/src
git archive "$REF" src/main | tar -x -C $BEFORE/src
javac --release 17 -nowarn --add-modules jdk.incubator.vector -d $BEFORE/classes -cp "$DEPS" $(find $BEFORE/src -name '*.java')
# The resources of REF too: its service files name only its own classes.
cp -r $BEFORE/src/src/main/resources/. $BEFORE/classes/
run() {
  java ${JOPTS:-} @examples/spark-jvm.options -Dlog4j2.configurationFile=examples/log4j2.properties -Xmx3g \
    -cp "target/bench-classes:$1:$DEPS" io.github.sparkzarr.bench.ProfileScan time \
    "$DATA/$STORE.zarr" "$RUNS" "$QUERY" 2>/dev/null | grep '^\[compare\]'
}
echo "query: $QUERY on $STORE.zarr; before = $REF, after = working tree"
for r in $(seq "$ROUNDS"); do
  echo "round $r before: $(run $BEFORE/classes)"
  echo "round $r after:  $(run target/classes)"
done
