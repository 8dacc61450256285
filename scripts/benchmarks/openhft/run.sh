#!/usr/bin/env bash
# corescope vs OpenHFT Java-Thread-Affinity: installs corescope, builds this project, runs the
# JMH comparison with -prof gc: every call through both libraries, one after the other
# (benchmarks are named call_library), two forks. Extra arguments go to JMH (e.g. -f 3 -i 10).
set -euo pipefail
cd "$(dirname "$0")"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
(cd ../../.. && ./mvnw -B -q install -DskipTests)
../../../mvnw -B -q -f pom.xml package
"$java" --enable-native-access=ALL-UNNAMED -jar target/benchmarks.jar AffinityCallsBenchmark -prof gc "$@"
