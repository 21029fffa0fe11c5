#!/usr/bin/env bash
# Runs a single-file Java example (examples/*.java) against this build, with Spark on the
# classpath and the JVM options Spark 4 needs on Java 17.
# Usage: examples/run-java-example.sh examples/Quickstart.java [args...]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/classpath.txt
exec java @examples/spark-jvm.options -Dlog4j2.configurationFile=examples/log4j2.properties -cp "target/classes:$(cat target/classpath.txt)" "$@"
