# Sourced by the bench scripts: builds the connector, then bench/java against it with JMH on the
# class path, and sets JAVA to the command that runs a bench class (from the repository root).
# Offline first: the artifacts are usually cached; go online only if something is missing.
mvn_() { mvn -B -q -o "$@" || mvn -B -q "$@"; }
mvn_ -DskipTests package
mvn_ -Pbench dependency:build-classpath -Dmdep.includeScope=provided -Dmdep.outputFile=target/bench-classpath.txt
CP="target/classes:$(cat target/bench-classpath.txt)"
rm -rf target/bench-classes
javac --release 17 -nowarn -d target/bench-classes -cp "$CP" $(find bench/java -name '*.java')
CP="target/bench-classes:$CP"
JAVA=(java @examples/spark-jvm.options -Dlog4j2.configurationFile=examples/log4j2.properties -cp "$CP")
