#!/usr/bin/env bash
# corescope launcher.
#   ./run.sh [COMMAND ARGS...]   build the jar if needed, then run corescope (no arguments: the tour)
#   ./run.sh test                run the whole test suite (./mvnw -B verify) with the same JDK
#
# It finds a JDK 25 by itself: $JAVA_HOME, then `java` on PATH, then the usual
# install folders. Set CORESCOPE_JAVA_HOME to force one.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jar="$here/target/corescope.jar"
want=25

# Prints the feature version (17, 21, 25, ...) of the JDK in $1, or nothing.
jdk_feature() {
  local home=$1 v=""
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 0
  if [ -r "$home/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
  fi
  if [ -z "$v" ]; then
    v=$("$home/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')
  fi
  printf '%s' "$v"
}

find_jdk() {
  local candidates=() c
  [ -n "${CORESCOPE_JAVA_HOME:-}" ] && candidates+=("$CORESCOPE_JAVA_HOME")
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if c=$(command -v java 2>/dev/null); then
    c=$(readlink -f "$c"); candidates+=("$(dirname "$(dirname "$c")")")
  fi
  for c in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* /opt/*jdk* \
           "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*; do
    [ -d "$c" ] && candidates+=("$c")
  done
  for c in "${candidates[@]}"; do
    local f; f=$(jdk_feature "$c")
    if [ -n "$f" ] && [ "$f" -ge "$want" ]; then printf '%s' "$c"; return 0; fi
  done
  return 1
}

if ! JDK=$(find_jdk); then
  echo "corescope: no JDK $want or newer found (looked at \$JAVA_HOME, java on PATH, /usr/lib/jvm, /opt); install one, e.g. 'apt-get install temurin-25-jdk' or 'sdk install java 25-tem', or set JAVA_HOME" >&2
  exit 2
fi
export JAVA_HOME="$JDK"

mvn_quiet() { "$here/mvnw" -B -q -f "$here/pom.xml" "$@"; }

if [ "${1:-}" = "test" ]; then
  shift
  exec "$here/mvnw" -B -f "$here/pom.xml" verify "$@"
fi

# Rebuild when the jar is missing or anything it is built from is newer.
if [ ! -f "$jar" ] || [ -n "$(find "$here/src/main" "$here/src/contended" "$here/native" "$here/pom.xml" -newer "$jar" -print -quit 2>/dev/null)" ]; then
  echo "corescope: building target/corescope.jar with JDK at $JDK (first run or sources changed) ..." >&2
  if ! mvn_quiet -DskipTests package >&2; then
    echo "corescope: the build failed (see above); try: ./mvnw -B package" >&2
    exit 1
  fi
fi

exec "$JDK/bin/java" --enable-native-access=ALL-UNNAMED -XX:-RestrictContended \
  --add-exports=java.base/jdk.internal.vm.annotation=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
  ${CORESCOPE_JVM_OPTS:-} -jar "$jar" "$@"
