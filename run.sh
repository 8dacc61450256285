#!/usr/bin/env bash
# corescope launcher.
#   ./run.sh [COMMAND ARGS...]   build the jar if needed, then run corescope (no arguments: the tour)
#   ./run.sh test                run the whole test suite (./mvnw -B verify) with the same JDK
#
# It finds a JDK 25 by itself: $JAVA_HOME, then `java` on PATH, then the usual
# install folders. Set CORESCOPE_JAVA_HOME to force one.
set -euo pipefail

here=${BASH_SOURCE[0]}
if [[ $here == */* ]]; then here=${here%/*}; else here=.; fi
here=$(cd "$here" && pwd)
jar="$here/target/corescope.jar"
want=25

# run.sh is on the start-up path of every command ('topology' is timed against likwid-topology),
# so finding the JDK and the rebuild check use bash built-ins, not sed/find/dirname processes.

# Sets jdk_v to the feature version (17, 21, 25, ...) of the JDK in $1, or to nothing.
jdk_feature() {
  local home=$1 line
  jdk_v=""
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 0
  if [ -r "$home/release" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      if [[ $line =~ ^JAVA_VERSION=\"([0-9]+) ]]; then jdk_v=${BASH_REMATCH[1]}; break; fi
    done < "$home/release"
  fi
  if [ -z "$jdk_v" ]; then
    line=$("$home/bin/java" -version 2>&1 | head -n 1)
    if [[ $line =~ version\ \"([0-9]+) ]]; then jdk_v=${BASH_REMATCH[1]}; fi
  fi
  return 0
}

# Sets JDK to $1 when it is a JDK $want or newer.
try_jdk() {
  [ -n "$1" ] && [ -d "$1" ] || return 1
  jdk_feature "$1"
  [ -n "$jdk_v" ] && [ "$jdk_v" -ge "$want" ] || return 1
  JDK=$1
}

find_jdk() {
  local c
  try_jdk "${CORESCOPE_JAVA_HOME:-}" && return 0
  try_jdk "${JAVA_HOME:-}" && return 0
  if c=$(command -v java 2>/dev/null); then
    c=$(readlink -f "$c")
    try_jdk "${c%/bin/java}" && return 0
  fi
  for c in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* /opt/*jdk* \
           "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*; do
    try_jdk "$c" && return 0
  done
  return 1
}

JDK=""
if ! find_jdk; then
  echo "corescope: no JDK $want or newer found (looked at \$JAVA_HOME, java on PATH, /usr/lib/jvm, /opt); install one, e.g. 'apt-get install temurin-25-jdk' or 'sdk install java 25-tem', or set JAVA_HOME" >&2
  exit 2
fi
export JAVA_HOME="$JDK"

mvn_quiet() { "$here/mvnw" -B -q -f "$here/pom.xml" "$@"; }
# The mvnw that run.sh starts while it holds target/.build.lock (below) must not wait for it:
# mvnw takes the same lock when run by hand (a plain ./mvnw beside a build of run.sh).
mvn_locked() { CORESCOPE_BUILD_LOCK="$lock" mvn_quiet "$@"; }

if [ "${1:-}" = "test" ]; then
  shift
  exec "$here/mvnw" -B -f "$here/pom.xml" verify "$@"
fi

# Short commands that are over in a blink: a cheaper rebuild check and a JVM tuned to start (below).
short_command=0
case "${1:-}" in
  topology|capture|mask|affinity|pin|help|--help|-h|--version|-V) short_command=1 ;;
esac

# True when anything the jar is built from (src/affinity, src/jmh, src/main, src/contended, native, the
# POMs) is newer than the stamp the build wrote when it made the jar (target/.corescope.jar.ok).
# A short command (the four that are timed against lstopo and a hello-world) compares the stamp
# with the POMs and git's index only (a pull, checkout, commit or add moves it): a few stat calls,
# no walk. Every other command walks the sources, as does CORESCOPE_REBUILD_CHECK=full; after
# editing a file without git, run ./mvnw -B package (or any other command) to rebuild.
sources_newer() {
  local f
  for f in "$here/pom.xml" "$here"/build/*/pom.xml "$here/.git/index"; do
    [ "$f" -nt "$ok" ] && return 0
  done
  [ "$short_command" = 1 ] && [ "${CORESCOPE_REBUILD_CHECK:-}" != full ] && return 1
  shopt -s globstar nullglob
  for f in "$here"/src/affinity/** "$here"/src/jmh/** "$here"/src/main/** "$here"/src/contended/** "$here"/native/**; do
    if [ "$f" -nt "$ok" ]; then shopt -u globstar nullglob; return 0; fi
  done
  shopt -u globstar nullglob
  return 1
}

# Rebuild when the jar is missing or anything it is built from is newer. Two first runs at once
# (./run.sh mask 1 & ./run.sh mask 2) must not run two Maven builds into one target/: the build
# holds an exclusive flock on target/.build.lock, a second run waits for it and then checks
# again, so it finds the fresh jar and does not build a second time.
#
# The jar is built under a temporary name and renamed when complete, so an interrupted build
# (Ctrl-C) never leaves a broken target/corescope.jar behind; target/.corescope.jar.ok, written
# when the build starts and moved in place after the rename, is the stamp sources are compared
# with. A jar newer than that stamp (built by ./mvnw
# directly, or left by an older run.sh) is checked once for a zip's end record, and rebuilt when
# it has none.
ok="$here/target/.corescope.jar.ok"
partial="$here/target/.corescope.jar.partial"
jar_broken() {
  [ "$jar" -nt "$ok" ] || return 1
  local tailhex
  tailhex=$(tail -c 22 "$jar" 2>/dev/null | od -An -tx1 -N4 | tr -d ' \n')
  if [ "$tailhex" = "504b0506" ]; then touch -r "$jar" "$ok" 2>/dev/null; return 1; fi
  return 0
}
build_jar() {
  local rc=0 interrupted=0
  rm -f "$partial"
  : > "$ok.new"  # the stamp: sources changed after this moment are newer than the jar
  trap 'interrupted=1' INT TERM
  mvn_locked -DskipTests -Dcorescope.jarOutput="$partial" package >&2 || rc=$?
  trap - INT TERM
  if [ "$interrupted" = 1 ] || [ "$rc" -gt 128 ]; then
    rm -f "$partial"
    echo "corescope: the build was interrupted; target/corescope.jar is unchanged, and the next run builds again" >&2
    exit 130
  fi
  if [ "$rc" -ne 0 ] || [ ! -s "$partial" ]; then
    rm -f "$partial"
    echo "corescope: the build failed (see above); try: ./mvnw -B package" >&2
    exit 1
  fi
  # the jar takes the stamp's time: complete (it was renamed in place), so not checked again as an unknown jar
  touch -r "$ok.new" "$partial" && mv -f "$partial" "$jar" && mv -f "$ok.new" "$ok"
}
if [ ! -f "$jar" ] || jar_broken || sources_newer; then
  lock="$here/target/.build.lock"
  if command -v flock >/dev/null 2>&1 && mkdir -p "$here/target" 2>/dev/null && touch "$lock" 2>/dev/null; then
    exec 9>>"$lock"
    if ! flock -n 9; then
      echo "corescope: another build (run.sh or ./mvnw) is using target/; waiting for it to end ..." >&2
      flock 9
    fi
    if [ ! -f "$jar" ] || jar_broken || sources_newer; then
      echo "corescope: building target/corescope.jar with JDK at $JDK (first run or sources changed) ..." >&2
      build_jar
    fi
    exec 9>&-
  else
    # no flock(1) or a read-only checkout: build unguarded, as before
    lock=none
    echo "corescope: building target/corescope.jar with JDK at $JDK (first run or sources changed) ..." >&2
    build_jar
  fi
fi

# The user's CORESCOPE_JVM_OPTS, split on blanks (no globbing). They come last on the java
# command line, so for ordinary flags the user's value wins; the defaults below that the JVM
# would refuse in combination (a second GC) or that the user replaces (the AOT cache, the JIT
# tiers) are left out when the user names their own.
user_opts=()
if [ -n "${CORESCOPE_JVM_OPTS:-}" ]; then
  read -r -a user_opts <<< "$CORESCOPE_JVM_OPTS"
fi
user_sets() { # true when a user option matches the extended regex $1
  local o
  for o in ${user_opts[@]+"${user_opts[@]}"}; do [[ $o =~ $1 ]] && return 0; done
  return 1
}

jvm_flags=(--enable-native-access=ALL-UNNAMED -XX:-RestrictContended
           --add-exports=java.base/jdk.internal.vm.annotation=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow)

# Short commands that are over in a blink start faster on C1 alone, with the serial GC and no
# perf-data file; benchmarks (and the tour) keep the JVM's defaults, which they measure under.
if [ "$short_command" = 1 ]; then
    user_sets '^-XX:[+-]?(TieredStopAtLevel|TieredCompilation)' || jvm_flags+=(-XX:TieredStopAtLevel=1)
    user_sets '^-XX:[+-]Use[A-Za-z0-9]*GC$' || jvm_flags+=(-XX:+UseSerialGC)
    # The first FFM downcall runs the linker once (calling sequences, a stub class spun with the
    # ClassFile API): code that C1 would compile by the hundred methods and never run again. Not
    # compiling it saves a short command CPU time and ~5 MiB of peak RSS (the compiler's memory
    # and code); the code that grows with the machine (sysfs parsing) still compiles. Measured
    # in docs/performance.md.
    user_sets '^-XX:CompileCommand' || jvm_flags+=(-XX:CompileCommand=quiet
      '-XX:CompileCommand=exclude,jdk.internal.classfile.*::*' '-XX:CompileCommand=exclude,java.lang.classfile.*::*'
      '-XX:CompileCommand=exclude,jdk.internal.foreign.abi.*::*')
    # A young generation of 16 MiB instead of a third of the initial heap (~125 MiB on a 24 GiB
    # machine): a big tree's reading makes its garbage a little at a time, so the eden a default
    # heap fills once is peak RSS and nothing else (topology --root of 8192 CPUs: 195 -> 98 MiB,
    # the same CPU time; docs/performance.md, issue 28).
    user_sets '^-Xmn|^-XX:(Max)?NewSize=' || jvm_flags+=(-Xmn16m)
    jvm_flags+=(-XX:-UsePerfData)
fi
# report and compare read whole results files in one thread: the serial GC keeps their heap near
# the live set, where G1 let it grow to several times it (comparing two 25 MiB files: peak RSS
# 1.28 GiB with G1, 0.44 GiB serial, the same CPU time; docs/performance.md, issue 28), and a
# young generation of 16 MiB, not the ~125 MiB eden that is otherwise most of their peak, and C1
# alone: C2's compiler threads and code cost ~30 MiB of peak RSS and, for a run of seconds, more
# CPU time than their code saves (the text of a 33 MB file: 177 -> 147 MiB, 13 -> 8 s; issue 35).
case "${1:-}" in
  report|compare)
    user_sets '^-XX:[+-]Use[A-Za-z0-9]*GC$' || jvm_flags+=(-XX:+UseSerialGC)
    user_sets '^-XX:[+-]?(TieredStopAtLevel|TieredCompilation)' || jvm_flags+=(-XX:TieredStopAtLevel=1)
    user_sets '^-Xmn|^-XX:(Max)?NewSize=' || jvm_flags+=(-Xmn16m) ;;
esac
# the user's own AOT or CDS settings replace corescope's cache
use_aot=$short_command
[ "${CORESCOPE_AOT:-1}" != 0 ] || use_aot=0
if user_sets '^-XX:(AOTCache|AOTMode|AOTConfiguration|AOTCacheOutput|SharedArchiveFile)=|^-Xshare:'; then use_aot=0; fi

# An AOT cache (JDK 25, JEP 483/514/515: classes loaded and linked, method profiles) made once
# per jar and JDK by a training run of all four short commands in one JVM (dev.corescope.cli.
# AotTraining: topology, affinity, mask 0-3, pin ... true), then reused; one cache for all four
# started as fast as one cache per command (docs/performance.md). If it cannot be made
# (read-only target/, an older JVM, CORESCOPE_AOT=0), corescope runs without it. It is only
# passed to the short commands: it was trained with their flags.
# A run with --format json has a cache of its own, trained on the JSON forms (AotTraining
# --format=json): Jackson's ~700 classes in the one cache would be loaded at every start of
# every text run too (docs/performance.md, issue 28).
aot="$here/target/corescope-${JDK##*/}.aot"
training=()
if [ "$use_aot" = 1 ]; then
  prev=""
  for a in "$@"; do
    [ "$a" = -- ] && break
    if [ "$a" = --format=json ] || { [ "$prev" = --format ] && [ "$a" = json ]; }; then
      aot="$here/target/corescope-${JDK##*/}-json.aot"; training=(--format=json); break
    fi
    prev=$a
  done
fi
aot_flags=()
if [ "$use_aot" = 1 ]; then
  if [ ! -f "$aot" ] || [ "$jar" -nt "$aot" ]; then
    rm -f "$aot"
    tmp_aot="$aot.$$.tmp"
    echo "corescope: preparing the start-up cache for the short commands (once per build, about 10 s) ..." >&2
    if "$JDK/bin/java" -XX:AOTCacheOutput="$tmp_aot" "${jvm_flags[@]}" -cp "$jar" dev.corescope.cli.AotTraining ${training[@]+"${training[@]}"} \
         >/dev/null 2>&1 </dev/null && [ -s "$tmp_aot" ]; then
      mv -f "$tmp_aot" "$aot" 2>/dev/null || true
    fi
    rm -f "$tmp_aot" "$tmp_aot.config" 2>/dev/null || true
  fi
  # -Xlog:aot=off: a cache that does not fit this JVM is dropped silently, not with a warning
  [ -f "$aot" ] && aot_flags=(-XX:AOTCache="$aot" -Xlog:aot=off -Xlog:cds=off)
fi

# -cp and the main class rather than -jar: with -jar the JVM opens the jar (3,900 entries) to
# read its manifest before main; with -cp and every class of a short command in the AOT cache it
# never opens it at all. The manifest's two settings are on the command line above.
exec "$JDK/bin/java" "${jvm_flags[@]}" ${aot_flags[@]+"${aot_flags[@]}"} ${user_opts[@]+"${user_opts[@]}"} -cp "$jar" dev.corescope.cli.Launcher "$@"
