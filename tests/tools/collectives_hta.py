#!/usr/bin/env python3
"""`tracescope-cli collectives --json` communication/compute overlap against Holistic Trace
Analysis' own get_comm_comp_overlap (HTA 0.5.0), recorded in
tests/data/peers/hta_collectives_reference.json by tests/peers/generators/hta_collectives_reference.py
(HTA is not installed in CI). Per input and rank: the communication kernels' union (HTA's
denominator), the part of it compute kernels ran beside (its numerator), both in ns, and the
percentage (100 x HTA's full-precision ratio; no percentage where HTA's ratio is NaN: no
communication). Where HTA named a top straggler (get_potential_stragglers with top_k=1: the rank
whose communication kernels ran shortest, having arrived last), it is the rank that induced the
most wait in ours.

    collectives_hta.py --cli TRACESCOPE_CLI --reference REF.json SHARED_TESTDATA

Exit 77 (CTest's skip) when a trace is missing, 1 under CI=true.
"""
import argparse
import json
import math
import os
import subprocess
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("--reference", required=True)
    p.add_argument("testdata")
    a = p.parse_args()
    with open(a.reference, encoding="utf-8") as f:
        ref = json.load(f)
    fails, compared = [], 0
    for name, inp in sorted(ref["inputs"].items()):
        paths = []
        for f in inp["files"]:
            hits = [os.path.join(d, f) for d in ("public/hta", "gpu") if os.path.exists(os.path.join(a.testdata, d, f))]
            if not hits:
                print(f"missing: {f}")
                return 1 if os.environ.get("CI") == "true" else 77
            paths.append(os.path.join(a.testdata, hits[0]))
        res = subprocess.run([a.cli, "collectives", "--json", *paths], capture_output=True, text=True)
        if res.returncode != 0:
            fails.append(f"{name}: exit {res.returncode}: {res.stderr.strip()}")
            continue
        got = {os.path.basename(r["file"]): r for r in json.loads(res.stdout)["ranks"]}
        for rank, want in sorted(inp["comm_comp_overlap"].items()):
            g = got.get(inp["ranks"][rank])
            if g is None:
                fails.append(f"{name} rank {rank}: not in the CLI's output")
                continue
            ratio = want["comp_comm_overlap_ratio"]
            ratio = float("nan") if ratio == "nan" else float(ratio)
            pct = g["comm_comp_overlap_percent"]
            ok = (g["comm_ns"], g["overlapped_ns"]) == (want["comm_union_ns"], want["overlap_ns"])
            if math.isnan(ratio):
                ok = ok and pct is None
            else:
                ok = ok and pct is not None and abs(pct - 100 * ratio) <= 1e-9 * max(1.0, 100 * ratio)
            print(f"{name} rank {rank}: comm {g['comm_ns']} ns, overlapped {g['overlapped_ns']} ns, {pct} % "
                  f"(HTA: {want['comm_union_ns']}, {want['overlap_ns']}, {ratio * 100} %)")
            compared += 1
            if not ok:
                fails.append(f"{name} rank {rank} differs from HTA")
        top = (inp.get("stragglers") or {}).get("potential_stragglers_top1")
        if top and len(inp["files"]) > 1:
            ranks = json.loads(res.stdout)["stragglers"]["ranks"]
            ours = ranks[0]["worker"] if ranks else None
            want = [f"rank {r}" for r in top]
            print(f"{name}: most induced wait {ours}; HTA's top straggler {want}")
            compared += 1
            if ours not in want:
                fails.append(f"{name}: top straggler {ours}, HTA's {want}")
    if compared == 0:
        fails.append("nothing compared")
    for f in fails:
        print("FAIL " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
