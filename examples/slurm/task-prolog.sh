#!/usr/bin/env bash
# Slurm TaskProlog: checks that a job step's task got the CPUs and NUMA nodes it asked for,
# from inside the task (a TaskProlog runs with the task's own CPU binding, which is what
# `corescope topology` reports as cpus.allowed: sched_getaffinity of this process). See
# docs/fleet.md.
#
#   slurm.conf:   TaskProlog=/etc/slurm/corescope-task-prolog.sh
#
# What it expects:
#   CPUs        SLURM_CPUS_PER_TASK (default 1): the task may run on that many CPUs, or on the
#               fewest whole cores that hold them (a cluster that allocates whole SMT cores
#               gives a task asking for 1 CPU both threads of a core: that is accepted)
#   NUMA nodes  CORESCOPE_EXPECT_NUMA_NODES, when set (e.g. by the job script with --export):
#               the task's CPUs lie on at most that many NUMA nodes
# On a mismatch it prints one line to stderr and, with CORESCOPE_STRICT=1, exits 1 (Slurm then
# fails the task); otherwise it only warns. Lines starting "print " on stdout go to the task's
# output, as Slurm's TaskProlog protocol says.
#
# Needs: corescope (CORESCOPE="java -XX:AOTCache=... -jar /opt/corescope/corescope.jar" or on
# the PATH), started once, and awk.
set -euo pipefail
corescope=${CORESCOPE:-corescope}
want_cpus=${SLURM_CPUS_PER_TASK:-1}
want_nodes=${CORESCOPE_EXPECT_NUMA_NODES:-}
strict=${CORESCOPE_STRICT:-0}

# one start: the topology, with this process's allowed CPUs (cpus.allowed), its cores and NUMA nodes
# shellcheck disable=SC2086
topology=$($corescope topology --format json)

# topology --format json is one field per line; awk reads cpus.allowed, each core's cpus and each
# NUMA node's, and prints: ok|ALLOWED|NODES|NOTE  or  problem|MESSAGE
verdict=$(awk -v want="$want_cpus" -v want_nodes="$want_nodes" '
  function value(line) { sub(/^[^:]*: *"/, "", line); sub(/".*$/, "", line); return line }
  function number(line) { sub(/^[^:]*: */, "", line); sub(/[^0-9].*$/, "", line); return line }
  # cpulist "0-3,8" -> set[cpu] = 1; returns the count
  function expand(list, set,    n, parts, i, r, a) {
    n = 0
    if (list == "") return 0
    split(list, parts, ",")
    for (i in parts) {
      if (split(parts[i], r, "-") == 2) { for (a = r[1] + 0; a <= r[2] + 0; a++) { set[a] = 1; n++ } }
      else { set[parts[i] + 0] = 1; n++ }
    }
    return n
  }
  /^  "[A-Za-z]+" :/ { top = $0; sub(/^  "/, "", top); sub(/".*$/, "", top) }
  top == "cpus" && /"allowed" :/ { allowed = value($0) }
  top == "numaNodes" && /"id" :/ { node = number($0) }
  top == "numaNodes" && /"cpus" :/ { nodes[node] = value($0) }
  /"type" : "core"/ { in_core = 1 }
  in_core && /"cpus" :/ { cores[++ncores] = value($0); in_core = 0 }
  END {
    if (allowed == "") { print "problem|corescope topology gave no cpus.allowed (not the live machine?)"; exit }
    got = expand(allowed, mine)
    whole = 1; used = 0; smallest = 0
    for (c = 1; c <= ncores; c++) {
      delete core; size = expand(cores[c], core); inside = 0
      for (cpu in core) if (cpu in mine) inside++
      if (inside == 0) continue
      used++
      if (inside < size) whole = 0
      if (smallest == 0 || size < smallest) smallest = size
    }
    spanned = ""; count = 0
    for (n in nodes) {
      delete cpus; expand(nodes[n], cpus)
      for (cpu in cpus) if (cpu in mine) { ids[++count] = n + 0; break }
    }
    # the ids in order
    for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++) if (ids[j] < ids[i]) { t = ids[i]; ids[i] = ids[j]; ids[j] = t }
    for (i = 1; i <= count; i++) spanned = spanned (i > 1 ? "," : "") ids[i]
    note = ""
    if (got != want) {
      # whole cores: more CPUs than asked, but no core could be left out
      if (whole && ncores > 0 && got > want && got - smallest < want) note = " (whole cores: " got " CPUs on " used " core" (used == 1 ? "" : "s") " for " want " asked)"
      else { print "problem|asked for " want " CPUs (SLURM_CPUS_PER_TASK) but may run on " got ": " allowed; exit }
    }
    if (want_nodes != "" && count > want_nodes + 0) { print "problem|CPUs " allowed " span NUMA nodes " spanned ", more than the " want_nodes " expected"; exit }
    print "ok|" allowed "|" spanned "|" note
  }' <<<"$topology")

IFS='|' read -r state a b c <<<"$verdict"
if [ "$state" != ok ]; then
  echo "corescope task prolog: task ${SLURM_PROCID:-?} of step ${SLURM_JOB_ID:-?}.${SLURM_STEP_ID:-?}: $a" >&2
  [ "$strict" = 1 ] && exit 1
  exit 0
fi
echo "print corescope: task ${SLURM_PROCID:-?} has CPUs $a on NUMA node(s) $b, as asked$c"
