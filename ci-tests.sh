#!/usr/bin/env bash
# The test command: the whole suite against Spark 4.0 (the default), then against Spark 3.5
# (built into target/spark-3.5). Each run includes the bundle jar and cluster tests (*IT).
set -euo pipefail
cd "$(dirname "$0")"
mvn -B verify
mvn -B -Pspark-3.5 verify
