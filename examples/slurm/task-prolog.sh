#!/usr/bin/env bash
# Slurm TaskProlog: checks that a job step's task got the CPUs and NUMA nodes it asked for,
# from inside the task (a TaskProlog runs with the task's own CPU binding, which is what
# `corescope affinity` reads: sched_getaffinity of this process). See docs/fleet.md.
#
#   slurm.conf:   TaskProlog=/etc/slurm/corescope-task-prolog.sh
#
# What it expects:
#   CPUs        SLURM_CPUS_PER_TASK (default 1): the task may run on exactly that many CPUs
#   NUMA nodes  CORESCOPE_EXPECT_NUMA_NODES, when set (e.g. by the job script with --export):
#               the task's CPUs lie on at most that many NUMA nodes
# On a mismatch it prints one line to stderr and, with CORESCOPE_STRICT=1, exits 1 (Slurm then
# fails the task); otherwise it only warns. Lines starting "print " on stdout go to the task's
# output, as Slurm's TaskProlog protocol says.
#
# Needs: corescope (CORESCOPE="java -jar /opt/corescope/corescope.jar" or on the PATH) and jq.
set -euo pipefail
corescope=${CORESCOPE:-corescope}
want_cpus=${SLURM_CPUS_PER_TASK:-1}
want_nodes=${CORESCOPE_EXPECT_NUMA_NODES:-}
strict=${CORESCOPE_STRICT:-0}

# shellcheck disable=SC2086
affinity=$($corescope affinity --format json)
# shellcheck disable=SC2086
topology=$($corescope topology --format json)

# cpulist ("0-3,8") -> JSON array of CPU numbers
expand='def cpus: if . == "" then [] else split(",") | map(if test("-") then (split("-") | map(tonumber)) as [$a, $b] | [range($a; $b + 1)] else [tonumber] end) | add end;'
allowed=$(jq -c "$expand .allowed | cpus" <<<"$affinity")
got_cpus=$(jq 'length' <<<"$allowed")
got_nodes=$(jq -r --argjson allowed "$allowed" "$expand [.numaNodes[] | select((.cpus | cpus) - ((.cpus | cpus) - \$allowed) | length > 0) | .id] | map(tostring) | join(\",\")" <<<"$topology")
node_count=$(awk -F, '{print NF}' <<<"$got_nodes")

problem=""
if [ "$got_cpus" -ne "$want_cpus" ]; then
  problem="asked for $want_cpus CPUs (SLURM_CPUS_PER_TASK) but may run on $got_cpus: $(jq -r .allowed <<<"$affinity")"
elif [ -n "$want_nodes" ] && [ "$node_count" -gt "$want_nodes" ]; then
  problem="CPUs $(jq -r .allowed <<<"$affinity") span NUMA nodes $got_nodes, more than the $want_nodes expected"
fi

if [ -n "$problem" ]; then
  echo "corescope task prolog: task ${SLURM_PROCID:-?} of step ${SLURM_JOB_ID:-?}.${SLURM_STEP_ID:-?}: $problem" >&2
  [ "$strict" = 1 ] && exit 1
  exit 0
fi
echo "print corescope: task ${SLURM_PROCID:-?} has CPUs $(jq -r .allowed <<<"$affinity") on NUMA node(s) $got_nodes, as asked"
