#!/usr/bin/env bash
# Is the Java reader slower with the `aligned` cpupri layout than `packed` in rt=writers (issue #22,
# seed 002: 1.4-1.5x in round one's single runs), or was that run-to-run variance?
#
# Design: many short JMH forks of the family's own benchmark (CpupriBenchmark group `cpupri`,
# rt=writers, one reader and one writer, pinned=0/1 as `bench cpupri` pins them on 2 CPUs), in
# blocks. Each block runs one fork per layout, in a random order drawn per block: packed, aligned,
# split and a second packed fork (packed2: the A/A pair). The unit is the block: per block the
# ratio of the reader's mean ns per find, LAYOUT / packed; over blocks the geometric mean with a
# 95% Student-t interval (on log ratios) and a 95% bootstrap percentile interval. packed2/packed is
# the design's own spread: an interval of aligned/packed no wider than it is what the design can
# resolve. LAYOUT/both packed divides by the geometric mean of the two packed forks (a steadier
# reference). The load average is recorded before every fork (loads.txt) and printed.
#
# Usage: scripts/cpupri-layouts.sh [--blocks N] [--seed S] [OUTDIR]
#        scripts/cpupri-layouts.sh --summary OUTDIR...
#   --blocks N   blocks (forks per layout), default 20
#   --seed S     the order's random seed, default 22
#   --summary    measure nothing: summarise the JSON files earlier runs left in OUTDIR... (blocks pooled)
#   OUTDIR       default target/cpupri-layouts; one JMH JSON file per fork, order.txt, loads.txt
# Fork settings (JMH): CPUPRI_WI (3) x CPUPRI_W (200ms) warm-up, CPUPRI_I (6) x CPUPRI_R (400ms);
# a fork takes about 8 s with its JVMs, so 20 blocks (80 forks) about 11 minutes.
# Needs python3 (standard library only) for the summary.
set -euo pipefail
cd "$(dirname "$0")/.."
blocks=20 seed=22 measure=1
while [ $# -gt 0 ]; do
  case $1 in
    --blocks) blocks=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --summary) measure=0; shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    -*) echo "cpupri-layouts.sh: unknown option $1 (--help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
out=${1:-target/cpupri-layouts}
mkdir -p "$out"
# Other JMH users on a shared machine hold JMH's lock; their load is part of what is measured.
export CORESCOPE_JVM_OPTS="${CORESCOPE_JVM_OPTS:--Djmh.ignoreLock=true}"
layouts=(packed aligned split packed2)

if [ $measure = 1 ]; then
  ./run.sh --help >/dev/null # build once, before the first timed fork
  : >"$out/order.txt"; : >"$out/loads.txt"
  orders=$(python3 -c "
import random, sys
r = random.Random($seed)
for b in range($blocks):
    l = sys.argv[1:]; r.shuffle(l); print(' '.join(l))" "${layouts[@]}")
  b=0
  while read -r -a order; do
    b=$((b + 1))
    echo "block $b: ${order[*]}" >>"$out/order.txt"
    for name in "${order[@]}"; do
      variant=${name%2}
      echo "$(date -u +%H:%M:%S) block $b $name $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/loads.txt" >&2
      ./run.sh jmh '^dev.corescope.bench.cpupri.CpupriBenchmark.cpupri$' -f 1 -tg 1,1 \
        -p variant="$variant" -p rt=writers -p pinned=0/1 \
        -wi "${CPUPRI_WI:-3}" -w "${CPUPRI_W:-200ms}" -i "${CPUPRI_I:-6}" -r "${CPUPRI_R:-400ms}" \
        -rf json -rff "$out/$(printf 'b%02d' $b)-$name.json" >/dev/null
    done
  done <<<"$orders"
  echo "$(date -u +%H:%M:%S) end $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/loads.txt" >&2
fi

if [ $measure = 1 ]; then dirs=("$out"); else dirs=("${@:-$out}"); fi
python3 - "${dirs[@]}" <<'EOF'
import glob, json, math, os, random, re, statistics, sys
dirs = sys.argv[1:]
find = {}  # block -> layout -> reader ns per find (the fork's mean over its iterations: JMH's score, as the family reports)
med = {}   # the same, the fork's median iteration (robust to an iteration another process disturbed)
for d, f in sorted((d, f) for d in dirs for f in glob.glob(os.path.join(d, 'b*-*.json'))):
    m = re.match(r'b(\d+)-(\w+)\.json$', os.path.basename(f))
    rows = json.load(open(f))
    if not m or not rows: continue
    r = rows[0]['secondaryMetrics']['cpupriFind']
    find.setdefault((d, int(m.group(1))), {})[m.group(2)] = r['score']
    med.setdefault((d, int(m.group(1))), {})[m.group(2)] = statistics.median(x for fork in r['rawData'] for x in fork)
# Student-t 0.975 quantiles for small df (else 1.96 plus a correction)
T975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23, 11: 2.20,
        12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13, 16: 2.12, 17: 2.11, 18: 2.10, 19: 2.09, 20: 2.09, 24: 2.06, 29: 2.05}
def t975(df): return T975.get(df) or T975[max(k for k in T975 if k <= df)] if df < 30 else 1.96 + 2.4 / df
loads = [float(l.split()[4]) for d in dirs if os.path.exists(os.path.join(d, 'loads.txt'))
         for l in open(os.path.join(d, 'loads.txt')) if l.split()[1] == 'block']
print(f'cpupri rt=writers, Java reader ns per find, one JMH fork per layout per block, {len([b for b in find if "packed" in find[b]])} blocks ({" ".join(dirs)})')
if loads:
    print(f'load average (1 min) before the forks: median {statistics.median(loads):.1f}, range {min(loads):.1f}-{max(loads):.1f}')
def ratios(full, title):
  print(title)
  for name in ('packed', 'aligned', 'split', 'packed2'):
    v = [full[b][name] for b in full if name in full[b]]
    if v: print(f'  {name:8s} median {statistics.median(v):7.2f} ns  (forks {len(v)}, min {min(v):.2f}, max {max(v):.2f})')
  rnd = random.Random(1)
  # LAYOUT/packed shares its reference fork with the A/A pair packed2/packed; LAYOUT/both divides by
  # the geometric mean of the two packed forks (a steadier reference: variance 1.5x a fork's, not 2x).
  def ref(b, both): return math.sqrt(full[b]['packed'] * full[b]['packed2']) if both else full[b]['packed']
  for name, label, both in (('aligned', 'aligned/packed', False), ('split', 'split/packed', False),
                            ('packed2', 'packed2/packed (A/A)', False),
                            ('aligned', 'aligned/both packed', True), ('split', 'split/both packed', True)):
      logs = [math.log(full[b][name] / ref(b, both)) for b in full if name in full[b] and (not both or 'packed2' in full[b])]
      n = len(logs)
      if n < 3:
          print(f'  {label}: fewer than 3 blocks'); continue
      mean, sd = statistics.fmean(logs), statistics.stdev(logs)
      h = t975(n - 1) * sd / math.sqrt(n)
      boot = sorted(statistics.fmean(rnd.choices(logs, k=n)) for _ in range(10000))
      lo, hi = boot[249], boot[9750]
      print(f'  {label:21s} {math.exp(mean):.3f}x  95% t [{math.exp(mean - h):.3f}, {math.exp(mean + h):.3f}]'
            f'  bootstrap [{math.exp(lo):.3f}, {math.exp(hi):.3f}]  (geometric mean of {n} block ratios,'
            f' per-block spread x/{math.exp(sd):.2f})')
      far = sum(1 for x in logs if abs(x) >= math.log(1.4))
      if not both: print(f'  {"":21s} single fork pairs 1.4x or more apart (either way): {far} of {n}')
ratios({b: v for b, v in find.items() if 'packed' in v}, 'per fork: JMH score (mean of its iterations), as the family reports')
ratios({b: v for b, v in med.items() if 'packed' in v}, 'per fork: median iteration (robustness check)')
EOF
