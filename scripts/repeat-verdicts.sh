#!/usr/bin/env bash
# Are the verdicts stable? Runs `bench all` N times (each into its own file) or takes results
# files already made, judges every file with today's rules (`report FILE --verdicts`), and
# prints one row per claim and one column per run with its finding. A claim is flagged when
# its runs give two different words other than `inconclusive` (supports in one run, contradicts
# or "smaller than claimed" in another): a verdict that flips with the run is not one to trust.
# Moving between a word and inconclusive is not flagged: that is what an undecided run says.
#
# Usage: scripts/repeat-verdicts.sh [-n N] [--quick] [-d DIR]     (measure: N runs, default 3)
#        scripts/repeat-verdicts.sh FILE.json FILE.json ...        (judge the files given)
#   -d DIR   where the runs' files go (default target/repeat-verdicts); each is kept
#   --quick  bench all --quick (the tour's settings) instead of full runs
# Exit: 0 stable, 1 some claim flipped, 2 bad usage. Run it on a quiet machine (docs/verdicts.md).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3 out=target/repeat-verdicts quick=()
files=()
while [ $# -gt 0 ]; do
  case $1 in
    -n) runs=${2:?-n needs a count}; shift 2 ;;
    -d) out=${2:?-d needs a directory}; shift 2 ;;
    --quick) quick=(--quick); shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "repeat-verdicts: unknown option $1" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
  esac
done
if [ ${#files[@]} -eq 0 ]; then
  case $runs in ''|*[!0-9]*|0) echo "repeat-verdicts: -n needs a positive count" >&2; exit 2 ;; esac
  mkdir -p "$out"
  for i in $(seq 1 "$runs"); do
    f="$out/run-$i.json"
    echo "repeat-verdicts: run $i of $runs -> $f (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    # exit 3 (some family failed) still saves the others: judge what there is
    ./run.sh bench all "${quick[@]}" --format json -o "$f" >/dev/null || [ $? -eq 3 ]
    files+=("$f")
  done
fi

# each claim's finding in each file: the short note of each claim, "- ID: FINDING ..." at any width
for f in "${files[@]}"; do
  [ -f "$f" ] || { echo "repeat-verdicts: $f: no such file" >&2; exit 2; }
  ./run.sh report "$f" --verdicts --format text --wide | awk -v file="$f" '
    /^  - [a-z0-9_.-]+: / {
      id = $2; sub(/:$/, "", id)
      rest = substr($0, index($0, ": ") + 2)
      n = split("supports the direction; smaller than claimed|supports the direction; larger than claimed|not testable here|contradicts|inconclusive|supports", words, "|")
      for (i = 1; i <= n; i++) if (index(rest, words[i]) == 1) { print file "\t" id "\t" words[i]; break }
    }'
done | awk -F'\t' -v nfiles=${#files[@]} '
  !($1 in col) { col[$1] = ++ncol; name[ncol] = $1 }
  !($2 in seen) { seen[$2] = 1; order[++nclaims] = $2 }
  { word[$2, col[$1]] = $3 }
  END {
    short["supports the direction; smaller than claimed"] = "smaller than claimed"
    short["supports the direction; larger than claimed"] = "larger than claimed"
    w = 5; for (c = 1; c <= nclaims; c++) if (length(order[c]) > w) w = length(order[c])
    printf "%-" w "s", "claim"; for (j = 1; j <= ncol; j++) printf "  %-20s", "run " j; printf "  %s\n", "stable"
    flipped = 0
    for (c = 1; c <= nclaims; c++) {
      id = order[c]; delete decided; nd = 0
      printf "%-" w "s", id
      for (j = 1; j <= ncol; j++) {
        x = ((id, j) in word) ? word[id, j] : "-"
        printf "  %-20s", (x in short) ? short[x] : x
        if (x != "inconclusive" && x != "-" && !(x in decided)) { decided[x] = 1; nd++ }
      }
      if (nd > 1) { flipped++; print "  FLIPPED" } else print "  yes"
    }
    for (j = 1; j <= ncol; j++) printf "run %d: %s\n", j, name[j]
    if (flipped) { printf "%d of %d claims gave different words in different runs\n", flipped, nclaims; exit 1 }
    printf "every claim gave one word or inconclusive in %d runs\n", ncol
  }'
