#!/usr/bin/env bash
# Topology reading on big machines: corescope against hwloc's lstopo and lscpu on generated,
# kernel-faithful sysfs trees of 64, 512, 2048 and 8192 CPUs (with an x86 server's
# /proc/cpuinfo: every key the kernel prints and a full flags line, ~1.6 KB a CPU).
#
#   scripts/scale-bench.sh [RUNS] [SIZES...]     (default 3 runs, sizes 64 512 2048 8192)
#
# The trees come from the test utility dev.corescope.testing.BigTrees (2 threads per core, an
# L3 per 8-64 cores, 1-8 packages, up to 16 NUMA nodes with distances, four cache levels); the
# script first checks that hwloc counts the packages, cores, PUs, NUMA nodes and L3s corescope
# counts. Then, interleaved, RUNS times each: `corescope topology --root TREE`,
# `lstopo-no-graphics` with HWLOC_FSROOT=TREE HWLOC_COMPONENTS=linux,stop, and
# `lscpu --sysroot TREE`, each under GNU time: CPU time (user + system, the median of RUNS)
# and peak RSS. Prints markdown for docs/performance.md, with the goals of issue 28: at 8192
# CPUs within 2x lstopo's CPU time, at 64 within 10x, growth 2048 -> 8192 no steeper than
# N^1.2, peak memory within 2x lstopo's. A benchmark, not a test: it fails only when a tool is
# missing. Needs hwloc (apt-get install hwloc-nox), lscpu (util-linux) and /usr/bin/time.
set -euo pipefail

runs=${1:-3}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(64 512 2048 8192)
here=$(cd "$(dirname "$0")/.." && pwd)
for tool in lstopo-no-graphics hwloc-calc lscpu; do
    command -v $tool >/dev/null || { echo "scale-bench: needs $tool (apt-get install hwloc-nox util-linux)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "scale-bench: needs GNU time (apt-get install time)" >&2; exit 2; }

"$here/run.sh" --help >/dev/null                      # builds the jar
jdk=$("$here/run.sh" pin --cpus 0 -- sh -c 'echo "$JAVA_HOME"' 2>/dev/null || echo "${JAVA_HOME:-}")
(cd "$here" && ./mvnw -B -o -q test-compile >/dev/null)
classes="$here/target/test-classes"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "Machine: $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "corescope $(git -C "$here" rev-parse --short HEAD), $(lstopo-no-graphics --version), $(lscpu --version)"
echo
declare -A cs_cpu ls_cpu lc_cpu cs_rss ls_rss lc_rss
for n in "${sizes[@]}"; do
    tree="$work/t$n"
    "$jdk/bin/java" -cp "$classes" dev.corescope.testing.BigTrees "$tree" "$n" >/dev/null
    for type in package core pu numanode l3cache; do
        h=$(HWLOC_FSROOT="$tree" HWLOC_COMPONENTS=linux,stop hwloc-calc -N $type all)
        [ -n "$h" ] || { echo "scale-bench: hwloc read nothing from $tree" >&2; exit 1; }
    done
    summary=$("$here/run.sh" topology --root "$tree" | tail -1)
    echo "- $n CPUs: corescope: $summary; hwloc: $(for t in package core pu numanode l3cache; do echo -n "$t $(HWLOC_FSROOT="$tree" HWLOC_COMPONENTS=linux,stop hwloc-calc -N $t all) "; done)"
    : > "$work/cs"; : > "$work/ls"; : > "$work/lc"
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -f "%U %S %M" -o "$work/x" "$here/run.sh" topology --root "$tree" >/dev/null; cat "$work/x" >> "$work/cs"
        HWLOC_FSROOT="$tree" HWLOC_COMPONENTS=linux,stop /usr/bin/time -f "%U %S %M" -o "$work/x" lstopo-no-graphics >/dev/null; cat "$work/x" >> "$work/ls"
        /usr/bin/time -f "%U %S %M" -o "$work/x" lscpu --sysroot "$tree" >/dev/null; cat "$work/x" >> "$work/lc"
    done
    cs_cpu[$n]=$(awk '{print $1+$2}' "$work/cs" | median); cs_rss[$n]=$(awk '{print $3}' "$work/cs" | median)
    ls_cpu[$n]=$(awk '{print $1+$2}' "$work/ls" | median); ls_rss[$n]=$(awk '{print $3}' "$work/ls" | median)
    lc_cpu[$n]=$(awk '{print $1+$2}' "$work/lc" | median); lc_rss[$n]=$(awk '{print $3}' "$work/lc" | median)
    rm -rf "$tree"
done
echo
echo "| CPUs | corescope \`topology --root\` | lstopo | lscpu | corescope / lstopo CPU | corescope peak RSS | lstopo peak RSS | lscpu peak RSS | corescope / lstopo RSS |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in "${sizes[@]}"; do
    awk -v n=$n -v c=${cs_cpu[$n]} -v l=${ls_cpu[$n]} -v s=${lc_cpu[$n]} -v cr=${cs_rss[$n]} -v lr=${ls_rss[$n]} -v sr=${lc_rss[$n]} 'BEGIN {
        printf "| %d | %.2f s | %.2f s | %.2f s | %s | %.0f MiB | %.0f MiB | %.0f MiB | %.1fx |\n", n, c, l, s, (l > 0 ? sprintf("%.1fx", c / l) : "-"), cr / 1024, lr / 1024, sr / 1024, cr / lr }'
done
echo
if [ -n "${cs_cpu[2048]:-}" ] && [ -n "${cs_cpu[8192]:-}" ]; then
    awk -v a=${cs_cpu[2048]} -v b=${cs_cpu[8192]} -v la=${ls_cpu[2048]} -v lb=${ls_cpu[8192]} -v sa=${lc_cpu[2048]} -v sb=${lc_cpu[8192]} 'BEGIN {
        printf "Growth 2048 -> 8192 CPUs: corescope N^%.2f, lstopo N^%.2f, lscpu N^%.2f (goal for corescope: at most N^1.2)\n", log(b/a)/log(4), log(lb/la)/log(4), log(sb/sa)/log(4) }'
fi
echo "Goals: 8192 CPUs within 2x lstopo's CPU time and peak RSS; 64 CPUs within 10x; growth 2048 -> 8192 at most N^1.2."
echo "Load after: $(cut -d' ' -f1-3 /proc/loadavg)"
