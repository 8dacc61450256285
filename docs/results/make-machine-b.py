#!/usr/bin/env python3
"""Makes docs/results/machine-b-synthetic.json: a SYNTHETIC results file for the "compare machines"
example of docs/fleet.md. Its topology (summary, picture, counts) is corescope's real reading of
hwloc's saved 128-core Arm tree (src/test/resources/fixtures/topology/128arm-2pa2n8cluster4co);
its c2c figures are NOT measured: no such machine was available. They are made-up round numbers
for one representative pair per relation, labelled as such in the file (environment.warnings and
the c2c notes), and every claim is "not testable here" with that reason.

    tar xjf src/test/resources/fixtures/topology/128arm-2pa2n8cluster4co.tar.bz2 -C /tmp
    docs/results/make-machine-b.py /tmp/128arm-2pa2n8cluster4co docs/results/machine-a.json
"""
import json
import subprocess
import sys

tree, machine_a = sys.argv[1], sys.argv[2]
run = lambda *a: subprocess.run(["./run.sh", *a], check=True, capture_output=True, text=True).stdout
topo = json.loads(run("topology", "--root", tree, "--format", "json"))
svg = run("topology", "--root", tree, "--format", "svg")
text = run("topology", "--root", tree)
s = topo["summary"]
llc = max((c["level"] for c in topo["caches"] if c["type"] != "instruction"), default=0)
counts = {"packages": s["packages"], "dies": s["dies"], "clusters": s["clusters"], "cores": s["cores"],
          "pus": s["pus"], "numaNodes": s["numaNodes"],
          "lastLevelCaches": sum(c["count"] for c in topo["caches"] if c["level"] == llc and c["type"] != "instruction"),
          "smt": s["pus"] > s["cores"]}
warning = ("SYNTHETIC results file for docs/fleet.md: the topology is corescope's reading of hwloc's saved "
           "128arm-2pa2n8cluster4co tree; the c2c figures are made up (no such machine was measured)")
# CPU -> (core, last-level cache, package) as corescope reads the tree: 32 CPUs per L3, 64 per package
cpus = [0, 1, 32, 64]
place = {c: {"cpu": c, "core": c, "cache": "L3#%d" % (c // 32), "pkg": c // 64} for c in cpus}
made_up = {(0, 1): 45.0, (1, 0): 46.0, (0, 32): 110.0, (32, 0): 112.0, (0, 64): 210.0, (64, 0): 214.0}
pairs = [{"from": f, "to": t, "java": {"median": v, "mean": v, "min": v, "samples": 1}} for (f, t), v in made_up.items()]
a = json.load(open(machine_a))
claims = [{"id": c["id"], "family": c["family"], "seed": c.get("seed"), "claim": c.get("claim"), "quantity": c.get("quantity"),
           "unit": c.get("unit"), "direction": c.get("direction"), "scale": c.get("scale"),
           "finding": "not testable here", "reason": "synthetic file: nothing was measured on this machine",
           "measured": False} for c in a.get("claims", [])]
out = {
    "schema": "corescope-results/1",
    "environment": {"cpuModel": "SYNTHETIC 128-core Arm server (hwloc's 128arm-2pa2n8cluster4co tree)",
                    "kernel": None, "online": "0-127", "smt": False, "warnings": [warning]},
    "results": [],
    "topology": {"summary": text.strip().splitlines()[-1], "svg": svg, "counts": counts},
    "models": {"c2c": {"cpus": [place[c] for c in cpus], "pairs": pairs, "notes": [warning]}},
    "claims": claims,
}
out["environment"] = {k: v for k, v in out["environment"].items() if v is not None}
json.dump(out, open("docs/results/machine-b-synthetic.json", "w"), indent=1)
print("docs/results/machine-b-synthetic.json written")
