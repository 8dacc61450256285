#!/usr/bin/env bash
# Checks `compare` itself, as docs/compare.md reports it:
#   A/A  the same build measured again: how many rows does compare call changed? (goal: <= 1%)
#   A/B  a known difference injected (Blackhole.consumeCPU tokens of measured cost): is it
#        found, and does its interval hold the injected size?
#
# Usage: scripts/compare-calibration.sh [--quick] [--recompare] [OUTDIR]   (default OUTDIR: target/calibration)
#   --quick  fewer families, runs and forks (about 4 minutes on a quiet 2-core machine instead of about 8)
# A and B runs alternate (A B A B ..., JMH rounds A B, B A, A B): a drift of the machine's speed in
# time must not look like a change.
#   --recompare  measure nothing: run compare again on the files an earlier run left in OUTDIR
#                (with the same --quick), e.g. after a change to compare's statistics.
# Needs python3 for the summary. Every file it compares stays in OUTDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0 measure=1
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1; shift ;;
    --recompare) measure=0; shift ;;
    *) break ;;
  esac
done
out=${1:-target/calibration}
mkdir -p "$out"
# The machine may be shared with other JMH users: JMH's lock would make this run exit, so it
# is ignored (the other users' load is part of the noise being measured; say so with the figures).
export CORESCOPE_JVM_OPTS="${CORESCOPE_JVM_OPTS:--Djmh.ignoreLock=true}"

if [ $quick = 1 ]; then
  families=(timerbase)
  aa_runs=4          # bench runs per family, A and B alternating: 1+3 against 2+4
  rounds=3           # JMH: A and B alternate this many times per comparison ...
  jmh_forks=1        # ... with this many forks each time (3 forks per side in all)
  jmh_sizes=(-wi 2 -w 100ms -i 4 -r 100ms)
else
  families=(cpumask timerbase)
  aa_runs=6          # 1+3+5 against 2+4+6
  rounds=3
  jmh_forks=2        # 6 forks per side
  jmh_sizes=(-wi 3 -w 100ms -i 5 -r 100ms)
fi
[ $measure = 1 ] && rm -f "$out/log.txt"
say() {
  [ $measure = 1 ] || return 0
  printf '%s  load %s  %s\n' "$(date -u +%H:%M:%S)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$*" | tee -a "$out/log.txt" >&2
}
# measure CMD...: runs CMD unless --recompare
measure() { if [ $measure = 1 ]; then "$@"; fi; }
say "start: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), mode $([ $quick = 1 ] && echo --quick || echo full)"

# Why A and B alternate: a machine's speed drifts in time (other tenants, frequency, the host
# of a VM). Runs 1-3 against 4-6 of one build turned such a step into a "change" (2 of 38 rows
# in the first calibration); alternated, a drift lands on both sides alike. docs/compare.md.

# 1. A/A on bench rows: each bench run is one run (one JMH fork, one process for C); odd runs
#    are side A, even runs side B, given to compare as more files of each side.
for f in "${families[@]}"; do
  for i in $(seq 1 "$aa_runs"); do
    say "A/A bench $f --quick, run $i of $aa_runs (side $([ $((i % 2)) = 1 ] && echo A || echo B))"
    measure ./run.sh bench "$f" --quick -o "$out/aa-bench-$f-$i.json" > /dev/null
  done
  args=("$out/aa-bench-$f-1.json" "$out/aa-bench-$f-2.json")
  for i in $(seq 3 2 "$aa_runs"); do args+=(--before "$out/aa-bench-$f-$i.json" --after "$out/aa-bench-$f-$((i + 1)).json"); done
  ./run.sh compare "${args[@]}" --format json > "$out/aa-bench-$f.compare.json"
  ./run.sh compare "$out/aa-bench-$f-1.json" "$out/aa-bench-$f-2.json" --format json > "$out/aa-bench-$f-single.compare.json"
done

# jmh_pair NAME EXTRA_A EXTRA_B BENCHMARK...: `rounds` rounds of A and B, alternating which goes
# first (A B, B A, A B: a steady drift weighs on both sides alike), then compare A with B.
jmh_pair() {
  local name=$1 xa=$2 xb=$3; shift 3
  local -a a_files=() b_files=()
  for r in $(seq 1 "$rounds"); do
    local order=(A B); [ $((r % 2)) = 0 ] && order=(B A)
    for side in "${order[@]}"; do
      local extra=$xa; [ "$side" = B ] && extra=$xb
      local file="$out/$name-$side$r.json"
      say "$name: round $r of $rounds, side $side (extra tokens $extra), $* -f $jmh_forks"
      measure ./run.sh jmh "$@" -f "$jmh_forks" "${jmh_sizes[@]}" \
          -jvmArgsAppend "--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dcorescope.calibration.extraTokens=$extra" \
          -rf json -rff "$file" > /dev/null
      if [ "$side" = A ]; then a_files+=("$file"); else b_files+=("$file"); fi
    done
  done
  local -a args=("${a_files[0]}" "${b_files[0]}")
  for i in $(seq 1 $((rounds - 1))); do args+=(--before "${a_files[$i]}" --after "${b_files[$i]}"); done
  ./run.sh compare "${args[@]}" --format json > "$out/$name.compare.json"
}

# 2. A/A on forked JMH rows (the pooled run-to-run noise): the same benchmarks on both sides.
jmh_pair aa-jmh 0 0 TimerbaseBenchmark CompareCalibrationBenchmark -p tokens=50,200,1000

# 3. A/B: what one consumeCPU token costs here, then 200 tokens against 200 + extra.
say "A/B: the cost of a token (tokens=0 and tokens=2000)"
measure ./run.sh jmh CompareCalibrationBenchmark -p tokens=0,2000 -f $((jmh_forks * rounds)) "${jmh_sizes[@]}" -rf json -rff "$out/ab-token.json" > /dev/null
for extra in 2 10 40 200; do
  jmh_pair "ab-$extra" 0 "$extra" CompareCalibrationBenchmark -p tokens=200
done
say "done"

python3 - "$out" "${families[@]}" <<'PY'
import json, sys, os
out, families = sys.argv[1], sys.argv[2:]
def load(name): return json.load(open(os.path.join(out, name)))
def flagged(c): return sum(1 for r in c['rows'] if r.get('finding') == 'significant' and r.get('ciLowPercent') != r.get('ciHighPercent'))
def aa(label, c):
    rows = [r for r in c['rows'] if r.get('noiseFloorPercent') != 0]          # exact rows (code sizes) left out
    f = sum(1 for r in rows if r.get('finding') == 'significant')
    nr = sum(1 for r in rows if r.get('finding') == 'not resolvable here')
    floors = sorted(r['noiseFloorPercent'] for r in rows if r.get('noiseFloorPercent') is not None)
    med = floors[len(floors) // 2] if floors else None
    print(f"A/A {label}: {f} of {len(rows)} timed rows flagged ({100.0 * f / max(1, len(rows)):.1f}%), "
          f"{nr} not resolvable; median noise floor {'n/a' if med is None else f'{med:.1f}%'}; run-to-run noise "
          + (", ".join(f"{k} {v['cvPercent']:.1f}%{' (assumed)' if v.get('assumed') else ''}" for k, v in c.get('runNoise', {}).items()) or "n/a"))
    return f, len(rows)
log = open(os.path.join(out, 'log.txt')).read().splitlines()
print(f"machine and load (1-, 5-, 15-minute load averages): {log[0]}")
print(f"                                                    {log[-1]}")
tf = tn = 0
for fam in families:
    f, n = aa(f"bench {fam}, runs as files", load(f"aa-bench-{fam}.compare.json")); tf += f; tn += n
    aa(f"bench {fam}, one file per side (not in the total: the same runs)", load(f"aa-bench-{fam}-single.compare.json"))
f, n = aa("jmh forks", load("aa-jmh.compare.json")); tf += f; tn += n
print(f"A/A total: {tf} of {tn} rows flagged ({100.0 * tf / max(1, tn):.1f}%; goal at most 1%)")
tok = {r['params']['tokens']: r['primaryMetric']['score'] for r in load('ab-token.json')}
ns_per_token = (tok['2000'] - tok['0']) / 2000
print(f"token cost: {ns_per_token:.4f} ns (tokens=0: {tok['0']:.2f} ns, tokens=2000: {tok['2000']:.1f} ns)")
for extra in (2, 10, 40, 200):
    r = load(f"ab-{extra}.compare.json")['rows'][0]
    base = r['before']                       # 200 tokens, all A forks of this pair
    expected = 100.0 * extra * ns_per_token / base
    lo, hi = r.get('ciLowPercent'), r.get('ciHighPercent')
    inside = lo is not None and lo <= expected <= hi
    print(f"A/B +{extra} tokens (base {base:.1f} ns, {r['runsBefore']}+{r['runsAfter']} forks): expected {expected:+.2f}%, measured {r['deltaPercent']:+.2f}%, 99.9% CI "
          f"{'n/a' if lo is None else f'{lo:+.2f}..{hi:+.2f}%'}: {r['finding']}; expected inside the interval: {'yes' if inside else 'NO'}")
PY
