#!/usr/bin/env bash
# mask, report and compare on large inputs, before and after a change: CPU time (user + system)
# and peak RSS (GNU time), one run each, the two builds interleaved.
#
#   scripts/linear-bench.sh [BEFORE_REV]      default BEFORE_REV: 014d61c (before issue 28's changes)
#
# Builds BEFORE_REV in a temporary git worktree and the checkout as it is, then runs with each:
#   mask LIST          a 100,000-element list (0,1,...,99999), no --nbits
#   report --format text, report -o page.html, compare F F
#                      on docs/results/bench-all.json copied 100x and 300x (each copy's rows told apart
#                      by a param "copy"; the family models left out), with each build's run.sh flags.
# Prints a markdown table. A benchmark, not a test: on a shared machine quote the load with it.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
before=${1:-014d61c}
[ -x /usr/bin/time ] || { echo "linear-bench: needs GNU time (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'git -C "$here" worktree remove --force "$work/before" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$here" worktree add --detach "$work/before" "$before" >/dev/null 2>&1
"$work/before/run.sh" --help >/dev/null 2>&1
"$here/run.sh" --help >/dev/null 2>&1

python3 - "$here/docs/results/bench-all.json" "$work" <<'PY'
import json, sys
src, work = sys.argv[1], sys.argv[2]
d = json.load(open(src))
for times in (100, 300):
    rows = []
    for k in range(times):
        for r in d['results']:
            c = dict(r); p = dict(c.get('params') or {}); p['copy'] = k; c['params'] = p; rows.append(c)
    e = dict(d); e['results'] = rows
    e.pop('models', None)  # per family, not per row; and a saved model may predate this checkout's
    json.dump(e, open("%s/x%d.json" % (work, times), "w"), indent=1)
print(len(d['results']), file=open(work + "/rows.txt", "w"))
# ten words of 10,000 CPUs (one argument may not exceed 128 KiB); mask joins its words with spaces
print(" ".join(",".join(str(i) for i in range(w, w + 10000)) for w in range(0, 100000, 10000)), file=open(work + "/list.txt", "w"))
PY

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs"
echo "input: docs/results/bench-all.json at $(git -C "$here" log -1 --format=%h -- docs/results/bench-all.json), $(cat "$work/rows.txt") rows, copied 100x and 300x"
echo
echo "| command | input | before: CPU s | before: peak RSS MiB | after: CPU s | after: peak RSS MiB |"
echo "|---|---|---|---|---|---|"
measure() { # RUNSH ARGS... -> "cpu rss"
  /usr/bin/time -f "%U %S %M" -o "$work/t" "$@" >/dev/null 2>"$work/err" || { echo "fail"; return; }
  awk '{printf "%.2f %.0f", $1 + $2, $3 / 1024}' "$work/t"
}
row() { # LABEL INPUT ARGS...
  local label=$1 input=$2; shift 2
  local b a
  b=$(measure "$work/before/run.sh" "$@")
  a=$(measure "$here/run.sh" "$@")
  echo "| $label | $input | ${b% *} | ${b#* } | ${a% *} | ${a#* } |"
}
# shellcheck disable=SC2046 # ten words on purpose
row "mask LIST (no --nbits)" "100,000 CPUs" mask $(cat "$work/list.txt")
for x in 100 300; do
  size="$(( $(stat -c %s "$work/x$x.json") / 1048576 )) MiB, $(( x * $(cat "$work/rows.txt") )) rows"
  row "report --format text" "$size" report "$work/x$x.json" --format text -o "$work/out.txt"
  row "report -o page.html" "$size" report "$work/x$x.json" -o "$work/out.html"
  row "compare F F" "2 x $size" compare "$work/x$x.json" "$work/x$x.json"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
