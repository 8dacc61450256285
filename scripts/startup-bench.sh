#!/usr/bin/env bash
# Start-up of corescope's short commands against the JVM's floor, in one hyperfine run.
#
#   scripts/startup-bench.sh [RUNS]        (default 30 runs each, 5 warm-up runs)
#
# The floor is an honest one: a JDK 25 hello-world that makes one FFM downcall
# (sched_getaffinity with errno captured, as corescope links it), trained into its own AOT cache
# with run.sh's own short-command flags (C1 only, the serial GC, -Xmn16m, no perf data, the
# linker's classes not compiled) and started through a bash launcher that, like run.sh, finds
# its JDK and then execs `java ... -cp JAR MAIN`. Beside it, for reference, the plain
# hello-world with the JVM's default flags (`java -XX:AOTCache=... -jar hello.jar`, what the
# floor used to be); then `./run.sh topology`, `./run.sh affinity`, `./run.sh mask 0-3` and
# `./run.sh pin --cpus C -- true` as a user runs them. Then the peak RSS of each (GNU time,
# median of RUNS).
#
# Prints markdown, ready to paste into docs/performance.md: the machine, the JDK and the load
# average before and after, then a table of each command's median and mean wall time, its mean
# CPU time (user + system), its ratio to the honest floor's median (wall and CPU) and the goal
# (each <= 1.15x the floor), then a table of peak RSS. A benchmark, not a test: it fails only
# when a tool is missing. Needs hyperfine (apt-get install hyperfine) and /usr/bin/time
# (apt-get install time). Quote the machine and its load with the figures: on a busy machine the
# wall times are mostly waiting for a CPU.
set -euo pipefail

runs=${1:-30}
here=$(cd "$(dirname "$0")/.." && pwd)
command -v hyperfine >/dev/null || { echo "startup-bench: needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "startup-bench: needs GNU time (apt-get install time)" >&2; exit 2; }

# The JDK run.sh uses, and a built jar plus its AOT cache (the first run makes both).
cpu=$("$here/run.sh" affinity --format json | sed -n 's/.*"allowed" : "\([0-9]*\).*/\1/p')
# run.sh exports the JAVA_HOME it chose; pin's child inherits it
jdk=$("$here/run.sh" pin --cpus "$cpu" -- sh -c 'echo "$JAVA_HOME"')
java="$jdk/bin/java"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/Hello.java" <<'EOF'
public class Hello {
    public static void main(String[] args) {
        System.out.println("hello");
    }
}
EOF
cat > "$work/Ffm.java" <<'EOF'
import java.lang.foreign.*;
import java.lang.invoke.MethodHandle;

/** hello-world plus one downcall linked the way corescope links sched_getaffinity. */
public class Ffm {
    public static void main(String[] args) throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle h = linker.downcallHandle(linker.defaultLookup().findOrThrow("sched_getaffinity"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS),
                Linker.Option.captureCallState("errno"));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment set = arena.allocate(128);
            int rc = (int) h.invokeExact(arena.allocate(Linker.Option.captureStateLayout()), 0, 128L, set);
            System.out.println("hello " + rc + " " + set.get(ValueLayout.JAVA_LONG, 0));
        }
    }
}
EOF
"$jdk/bin/javac" -d "$work" "$work/Hello.java" "$work/Ffm.java"
"$jdk/bin/jar" cfe "$work/hello.jar" Hello -C "$work" Hello.class
"$jdk/bin/jar" cfe "$work/ffm.jar" Ffm -C "$work" Ffm.class
# run.sh's flags for a short command (keep in step with run.sh's short_command case)
short_flags=(--enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 -XX:+UseSerialGC
  -XX:CompileCommand=quiet '-XX:CompileCommand=exclude,jdk.internal.classfile.*::*'
  '-XX:CompileCommand=exclude,java.lang.classfile.*::*' '-XX:CompileCommand=exclude,jdk.internal.foreign.abi.*::*'
  -Xmn16m -XX:-UsePerfData)
"$java" -XX:AOTCacheOutput="$work/hello.aot" -jar "$work/hello.jar" >/dev/null 2>&1
"$java" -XX:AOTCacheOutput="$work/ffm.aot" "${short_flags[@]}" -cp "$work/ffm.jar" Ffm >/dev/null 2>&1
# the floor's launcher: bash, a JDK check from the release file (as run.sh's), exec java
{
  echo '#!/usr/bin/env bash'
  echo 'set -euo pipefail'
  echo "jdk='$jdk'"
  echo 'while IFS= read -r line; do [[ $line =~ ^JAVA_VERSION=\"([0-9]+) ]] && break; done < "$jdk/release"'
  printf 'exec "$jdk/bin/java"'; printf " '%s'" "${short_flags[@]}"
  echo " -XX:AOTCache='$work/ffm.aot' -Xlog:aot=off -Xlog:cds=off -cp '$work/ffm.jar' Ffm \"\$@\""
} > "$work/floor.sh"
chmod +x "$work/floor.sh"

floor="$work/floor.sh"
hello="$java -XX:AOTCache=$work/hello.aot -jar $work/hello.jar"
commands=("$floor" "$hello" "$here/run.sh topology" "$here/run.sh affinity" "$here/run.sh mask 0-3"
          "$here/run.sh pin --cpus $cpu -- true")

echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1), Linux $(uname -r)"
echo "- JDK: $("$java" -version 2>&1 | head -n 1)"
echo "- command: \`scripts/startup-bench.sh $runs\` ($runs runs each after 5 warm-up runs, \`hyperfine -N\`)"
echo "- load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N -w 5 -r "$runs" --export-json "$work/hyperfine.json" "${commands[@]}" >/dev/null 2>&1

rss() { # median peak RSS in KiB of RUNS runs of "$@"
  local i
  for ((i = 0; i < runs; i++)); do /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; done | sort -n \
    | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
rss_all=()
for c in "${commands[@]}"; do
  read -r -a words <<< "$c"
  rss_all+=("$(rss "${words[@]}")")
done
echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

python3 - "$work/hyperfine.json" "${rss_all[@]}" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
rss = [int(x) for x in sys.argv[2:]]
names = ["floor: hello-world + 1 FFM downcall, run.sh's flags, own AOT cache, bash launcher",
         "hello-world, JVM defaults, own AOT cache, no launcher",
         "`corescope topology`", "`corescope affinity`", "`corescope mask 0-3`", "`corescope pin --cpus C -- true`"]
floor = statistics.median(results[0]["times"])
floor_cpu = results[0]["user"] + results[0]["system"]
print("| command | median wall | mean wall | CPU u+s (mean) | x floor (wall) | x floor (CPU) | goal <= 1.15x (wall) |")
print("|---|---|---|---|---|---|---|")
for name, r in zip(names, results):
    med = statistics.median(r["times"])
    cpu = r["user"] + r["system"]
    goal = "" if not name.startswith("`corescope") else ("met" if med / floor <= 1.15 else "not met")
    print(f"| {name} | {med*1000:.1f} ms | {r['mean']*1000:.1f} ms | {cpu*1000:.1f} ms | {med/floor:.2f} | {cpu/floor_cpu:.2f} | {goal} |")
print()
print("| command | peak RSS (median) | x floor |")
print("|---|---|---|")
for i, (name, kib) in enumerate(zip(names, rss)):
    print(f"| {name} | {kib/1024:.1f} MiB | {kib/rss[0]:.2f} |")
PY
