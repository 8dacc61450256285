#!/usr/bin/env bash
# Peak memory of report, the page and compare against the size of their input (issue 35's goal:
# within 5x a 30 MB input). Grows a real results file to about 30 MB by repeating its rows, each
# copy told apart by a param "copy" (the family models, per family and not per row, left out),
# then prints the peak RSS (GNU time) of each command, run through run.sh with its flags, its
# ratio to what it reads (compare reads two copies) and its CPU time (user + system).
#
#   scripts/report-memory.sh [SOURCE.json] [MB]     defaults: docs/results/bench-all.json, 30
#
# A measurement, not a test: quote the load printed with it.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-$here/docs/results/bench-all.json}
mb=${2:-30}
[ -x /usr/bin/time ] || { echo "report-memory: needs GNU time (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/run.sh" --help >/dev/null 2>&1

python3 - "$src" "$work/big.json" "$mb" <<'PY'
import json, sys
src, out, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(src))
d.pop('models', None)  # per family, not per row
one = len(json.dumps(d['results'], indent=1))
rows = []
for k in range(max(1, (mb << 20) // one)):
    for r in d['results']:
        c = dict(r); p = dict(c.get('params') or {}); p['copy'] = k; c['params'] = p; rows.append(c)
d['results'] = rows
json.dump(d, open(out, 'w'), indent=1)
PY

bytes=$(stat -c %s "$work/big.json")
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs); input: $src grown to $(( bytes / 1048576 )) MiB," \
  "$(python3 -c "import json,sys;print(len(json.load(open(sys.argv[1]))['results']))" "$work/big.json") rows; commit $(git -C "$here" log -1 --format=%h)"
echo
echo "| command | peak RSS MiB | x input | CPU s |"
echo "|---|---|---|---|"
row() { # LABEL INPUT_BYTES ARGS...
  local label=$1 in=$2; shift 2
  if /usr/bin/time -f '%M %U %S' -o "$work/t" "$here/run.sh" "$@" >/dev/null 2>"$work/err"; then
    awk -v l="$label" -v b="$in" '{printf "| %s | %.0f | %.1f | %.1f |\n", l, $1 / 1024, $1 * 1024 / b, $2 + $3}' "$work/t"
  else
    echo "| $label | failed: $(head -c 200 "$work/err" | tr '\n' ' ') | | |"
  fi
}
row "report FILE (text)" "$bytes" report "$work/big.json" --format text
row "report FILE -o page.html" "$bytes" report "$work/big.json" -o "$work/page.html"
cp "$work/big.json" "$work/big2.json"
row "compare A B (x both inputs)" "$(( 2 * bytes ))" compare "$work/big.json" "$work/big2.json"
echo
echo "JVM alone: $(/usr/bin/time -f %M "$here/run.sh" --version 2>&1 >/dev/null | tail -1 | awk '{printf "%.0f MiB", $1 / 1024}')"
