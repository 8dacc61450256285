#!/usr/bin/env bash
# The c2c planner on machines this one is not: writes kernel-like sysfs trees (2 threads per core,
# cores sharing an L3, L3s per NUMA node, nodes per package) and prints `bench c2c --plan` for
# each, by relation and with --full, next to nviennot/core-to-core-latency's defaults.
#
#   scripts/c2c-plan.sh            64 CPUs (1 package, 4 L3s of 8 cores) and 256 CPUs
#                                  (2 packages, 2 NUMA nodes each, 4 L3s of 8 cores per node)
#
# Nothing is measured: the planner reads the tree and estimates from an assumed one-way latency
# per relation (printed with the plan). A benchmark aid, not a test.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# tree DIR PACKAGES NODES_PER_PACKAGE L3_PER_NODE CORES_PER_L3 THREADS
tree() {
  python3 - "$@" <<'PY'
import os, sys
root, pk, npp, lpn, cpl, th = sys.argv[1], *map(int, sys.argv[2:])
cores = pk * npp * lpn * cpl
n = cores * th
def w(path, text):
    p = os.path.join(root, path); os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write(text + "\n")
def cpus_of(core_ids):  # Linux numbering: thread t of core c is CPU t * cores + c
    return sorted(t * cores + c for c in core_ids for t in range(th))
def lst(cs):
    out, i = [], 0
    while i < len(cs):
        j = i
        while j + 1 < len(cs) and cs[j + 1] == cs[j] + 1: j += 1
        out.append(str(cs[i]) if i == j else "%d-%d" % (cs[i], cs[j])); i = j + 1
    return ",".join(out)
base = "sys/devices/system/cpu/"
w(base + "possible", "0-%d" % (n - 1)); w(base + "present", "0-%d" % (n - 1)); w(base + "online", "0-%d" % (n - 1))
per_pkg, per_node, per_l3 = npp * lpn * cpl, lpn * cpl, cpl
nodes = pk * npp
for c in range(cores):
    pkg, node, l3 = c // per_pkg, c // per_node, c // per_l3
    sib = cpus_of([c]); pkg_cpus = cpus_of(range(pkg * per_pkg, (pkg + 1) * per_pkg))
    l3_cpus = cpus_of(range(l3 * per_l3, (l3 + 1) * per_l3))
    for cpu in sib:
        d = base + "cpu%d/" % cpu
        w(d + "online", "1")
        w(d + "topology/core_id", str(c % per_pkg)); w(d + "topology/physical_package_id", str(pkg)); w(d + "topology/die_id", "0")
        w(d + "topology/core_cpus_list", lst(sib)); w(d + "topology/thread_siblings_list", lst(sib))
        w(d + "topology/package_cpus_list", lst(pkg_cpus)); w(d + "topology/core_siblings_list", lst(pkg_cpus))
        w(d + "topology/die_cpus_list", lst(pkg_cpus))
        for idx, (lvl, typ, size, shared, cid) in enumerate([(1, "Data", "32K", sib, c), (1, "Instruction", "32K", sib, c),
                                                            (2, "Unified", "512K", sib, c), (3, "Unified", "32768K", l3_cpus, l3)]):
            e = d + "cache/index%d/" % idx
            w(e + "level", str(lvl)); w(e + "type", typ); w(e + "size", size); w(e + "coherency_line_size", "64")
            w(e + "ways_of_associativity", "8"); w(e + "shared_cpu_list", lst(shared)); w(e + "id", str(cid))
nb = "sys/devices/system/node/"
w(nb + "possible", "0-%d" % (nodes - 1)); w(nb + "online", "0-%d" % (nodes - 1))
for k in range(nodes):
    w(nb + "node%d/cpulist" % k, lst(cpus_of(range(k * per_node, (k + 1) * per_node))))
    w(nb + "node%d/distance" % k, " ".join("10" if j == k else ("12" if j // npp == k // npp else "32") for j in range(nodes)))
    w(nb + "node%d/meminfo" % k, "Node %d MemTotal:       65536000 kB" % k)
PY
}

tree "$work/64" 1 1 4 8 2
tree "$work/256" 2 2 4 8 2
for t in 64 256; do
  for mode in "" "--full"; do
    echo '```'
    echo "\$ ./run.sh bench c2c --plan --root tree-$t $mode"
    "$here/run.sh" bench c2c --plan --root "$work/$t" $mode | sed "s|$work/$t|tree-$t|"
    echo '```'
    echo
  done
done
