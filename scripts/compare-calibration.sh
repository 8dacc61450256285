#!/usr/bin/env bash
# Checks `compare` itself, as docs/compare.md reports it:
#   A/A  the same build measured again: how many rows does compare call changed? (goal: <= 1%)
#   A/B  a known difference injected (Blackhole.consumeCPU tokens of measured cost): is it
#        found, and does its interval hold the injected size?
#
# Usage: scripts/compare-calibration.sh [--quick] [OUTDIR]      (default OUTDIR: target/calibration)
#   --quick  fewer families, runs and forks (about 15 minutes on 2 busy cores instead of about 30)
# Needs python3 for the summary. Every file it compares stays in OUTDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
if [ "${1:-}" = --quick ]; then quick=1; shift; fi
out=${1:-target/calibration}
mkdir -p "$out"
# The machine may be shared with other JMH users: JMH's lock would make this run exit, so it
# is ignored (the other users' load is part of the noise being measured; say so with the figures).
export CORESCOPE_JVM_OPTS="${CORESCOPE_JVM_OPTS:--Djmh.ignoreLock=true}"

if [ $quick = 1 ]; then
  families=(timerbase)
  aa_runs=4          # bench runs per family: 1+2 against 3+4
  jmh_forks=3
  jmh_sizes=(-wi 2 -w 100ms -i 4 -r 100ms)
else
  families=(cpumask timerbase)
  aa_runs=6          # 1+2+3 against 4+5+6
  jmh_forks=6
  jmh_sizes=(-wi 3 -w 100ms -i 5 -r 100ms)
fi
half=$((aa_runs / 2))
say() { printf '%s  %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# 1. A/A on bench rows: each bench run is one run (one JMH fork, one process for C); the
#    runs of one side are given to compare as more files of that side.
for f in "${families[@]}"; do
  for i in $(seq 1 "$aa_runs"); do
    say "A/A bench $f --quick, run $i of $aa_runs"
    ./run.sh bench "$f" --quick -o "$out/aa-bench-$f-$i.json" > /dev/null
  done
  args=("$out/aa-bench-$f-1.json" "$out/aa-bench-$f-$((half + 1)).json")
  for i in $(seq 2 "$half"); do args+=(--before "$out/aa-bench-$f-$i.json" --after "$out/aa-bench-$f-$((half + i)).json"); done
  ./run.sh compare "${args[@]}" --format json > "$out/aa-bench-$f.compare.json"
  ./run.sh compare "$out/aa-bench-$f-1.json" "$out/aa-bench-$f-$((half + 1)).json" --format json > "$out/aa-bench-$f-single.compare.json"
done

# 2. A/A on forked JMH rows (the pooled run-to-run noise): the same benchmarks twice.
jmh_aa=(TimerbaseBenchmark CompareCalibrationBenchmark)
for i in 1 2; do
  say "A/A jmh ${jmh_aa[*]} -f $jmh_forks, run $i of 2"
  ./run.sh jmh "${jmh_aa[@]}" -p tokens=50,200,1000 -f "$jmh_forks" "${jmh_sizes[@]}" -rf json -rff "$out/aa-jmh-$i.json" > /dev/null
done
./run.sh compare "$out/aa-jmh-1.json" "$out/aa-jmh-2.json" --format json > "$out/aa-jmh.compare.json"

# 3. A/B: what one consumeCPU token costs here, then 200 tokens against 200 + extra.
say "A/B: the cost of a token (tokens=0 and tokens=2000)"
./run.sh jmh CompareCalibrationBenchmark -p tokens=0,2000 -f "$jmh_forks" "${jmh_sizes[@]}" -rf json -rff "$out/ab-token.json" > /dev/null
for extra in 0 2 10 40 200; do
  say "A/B: tokens=200, extra $extra"
  ./run.sh jmh CompareCalibrationBenchmark -p tokens=200 -f "$jmh_forks" "${jmh_sizes[@]}" \
      -jvmArgsAppend "--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dcorescope.calibration.extraTokens=$extra" \
      -rf json -rff "$out/ab-$extra.json" > /dev/null
done
for extra in 2 10 40 200; do
  ./run.sh compare "$out/ab-0.json" "$out/ab-$extra.json" --format json > "$out/ab-$extra.compare.json"
done

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
          f"{nr} not resolvable; median noise floor {med if med is None else round(med, 1)}%")
    return f, len(rows)
tf = tn = 0
for fam in families:
    f, n = aa(f"bench {fam}, runs as files", load(f"aa-bench-{fam}.compare.json")); tf += f; tn += n
    aa(f"bench {fam}, one file per side", load(f"aa-bench-{fam}-single.compare.json"))
f, n = aa("jmh forks", load("aa-jmh.compare.json")); tf += f; tn += n
print(f"A/A total: {tf} of {tn} rows flagged ({100.0 * tf / max(1, tn):.1f}%; goal at most 1%)")
tok = {r['params']['tokens']: r['primaryMetric']['score'] for r in load('ab-token.json')}
ns_per_token = (tok['2000'] - tok['0']) / 2000
base = load('ab-0.json')[0]['primaryMetric']['score']
print(f"token cost: {ns_per_token:.4f} ns (tokens=0: {tok['0']:.2f} ns, tokens=2000: {tok['2000']:.1f} ns); base (200 tokens): {base:.2f} ns")
for extra in (2, 10, 40, 200):
    r = load(f"ab-{extra}.compare.json")['rows'][0]
    expected = 100.0 * extra * ns_per_token / base
    lo, hi = r.get('ciLowPercent'), r.get('ciHighPercent')
    inside = lo is not None and lo <= expected <= hi
    print(f"A/B +{extra} tokens: expected {expected:+.2f}%, measured {r['deltaPercent']:+.2f}%, 99.9% CI "
          f"{'n/a' if lo is None else f'{lo:+.2f}..{hi:+.2f}%'}: {r['finding']}; expected inside the interval: {'yes' if inside else 'NO'}")
PY
