#!/usr/bin/env bash
# Builds the examples against the installed corescope, runs docs/library.md's "use it from your
# code" lines (UseFromYourCode) on the class path and with the library on the module path,
# checking the JVM prints no warning, and runs the benchmark on two placements in a
# seconds-long mode, checking that the pinning held.
#   (cd .. && ./mvnw install -DskipTests)   first: puts dev.corescope:corescope-affinity in ~/.m2
#   examples/run.sh                          then this; CI does both (.ci/run)
# Placements are tried in order and the first two this machine offers are run.
set -euo pipefail
cd "$(dirname "$0")"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
../mvnw -B -q -f pom.xml package

# the docs' lines, in a reservations directory of their own (never another user's CPUs)
version=$(sed -n 's:.*<corescope.version>\(.*\)</corescope.version>.*:\1:p' pom.xml | head -n 1)
library="${MAVEN_REPO:-$HOME/.m2/repository}/dev/corescope/corescope-affinity/$version/corescope-affinity-$version.jar"
dir=$(mktemp -d)
err=$(mktemp)
for path in class module; do
  if [ "$path" = class ]; then
    run=("$java" --enable-native-access=ALL-UNNAMED -cp target/benchmarks.jar)
  else
    run=("$java" --enable-native-access=dev.corescope --module-path "$library" --add-modules dev.corescope -cp target/classes)
  fi
  echo "== use it from your code ($path path)"
  rc=0
  "${run[@]}" -Dcorescope.reservations.dir="$dir" dev.corescope.examples.UseFromYourCode >"$err.out" 2>"$err" || rc=$?
  sed 's/^/  /' "$err.out"
  if [ "$rc" -ne 0 ] || [ -s "$err" ]; then
    echo "examples/run.sh: UseFromYourCode on the $path path failed or printed to stderr:" >&2
    cat "$err" >&2
    exit 1
  fi
done
rm -rf "$dir" "$err" "$err.out"
ran=0
for placement in same-core same-l3 other-l3 other-package quiet any; do
  out=$(mktemp)
  if "$java" --enable-native-access=ALL-UNNAMED -jar target/benchmarks.jar '(shared|padded)' \
       -f 1 -wi 1 -i 2 -w 200ms -r 200ms -foe true -rf json -rff "$out.json" \
       -prof "dev.corescope.jmh.PinningProfiler:placement=$placement" >"$out" 2>&1; then
    echo "== placement $placement"
    grep -E '^Benchmark|^FalseSharing|threads pinned' "$out" | sed 's/^/  /'
    # the pinning held in every measured iteration, and the run says where the threads ran
    if ! grep -q '"pin.migrated"' "$out.json" \
       || grep -A1 '"pin.migrated"' "$out.json" | grep '"score"' | grep -vq '"score" : 0.0,' \
       || ! grep -q 'threads pinned: thread 0 on CPU' "$out"; then
      echo "examples/run.sh: placement $placement ran, but pinning was not confirmed:" >&2
      cat "$out" >&2
      exit 1
    fi
    ran=$((ran + 1))
  else
    # the profiler's one line (JMH's "Profilers failed to initialize" path, or a benchmark it
    # could not place), without its "corescope pinning: " prefix
    why=$(sed -n -E 's/^corescope pinning: //p' "$out" | head -n 1)
    echo "== placement $placement: not run here: ${why:-see the JMH output}"
  fi
  rm -f "$out" "$out.json"
  [ "$ran" -ge 2 ] && break
done
[ "$ran" -ge 1 ] || { echo "examples/run.sh: no placement could run" >&2; exit 1; }
