#!/usr/bin/env python3
"""`tracescope-cli collectives --json` on the four gloo ranks of tests/data/peers/collectives against
what the program that made them issued (gloo.producer.json, written by the program itself):

  * per rank, the summary rows (kind, size, group, group size, count) equal the collectives the
    rank issued in the recorded steps, sized as nccl-tests' doc/PERFORMANCE.md counts S;
  * each row's total time equals the sum of the durations of the rank's `gloo:<kind>` worker runs
    on a tensor of that many elements, read from the raw file (gloo runs a tensor's reduce-scatter
    as an all-reduce of the whole input);
  * the straggler the program made (a rank sleeping before one all-reduce of every step) is the
    late rank of that all-reduce in every step, and the rank that induced the most wait.

    collectives_gloo_truth.py --cli TRACESCOPE_CLI DIR
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from decimal import Decimal

BYTES = {"float32": 4, "bfloat16": 2, "int64": 8, "float16": 2}
# The program's kind -> (the CLI's kind: c10d's op name as Kineto writes it, the gloo run that does
# the work, which element count sizes it, the nccl-tests family).
KINDS = {
    "all_reduce": ("allreduce", "gloo:all_reduce", "in", "allreduce"),
    "all_gather_into_tensor": ("_allgather_base", "gloo:all_gather", "out", "n-1"),
    "all_gather": ("allgather", "gloo:all_gather", "out", "n-1"),
    "reduce_scatter_tensor": ("_reduce_scatter_base", "gloo:all_reduce", "in", "n-1"),
    "broadcast": ("broadcast", "gloo:broadcast", "in", "one"),
    "reduce": ("reduce", "gloo:reduce", "in", "one"),
    "all_to_all_single": ("all_to_all", "gloo:all_to_all", "in", "n-1"),
    "barrier": ("barrier", "gloo:barrier", None, None),
}


def ns(us):
    return int(Decimal(us) * 1000)


def run_elements(e):
    dims = (e.get("args") or {}).get("Input Dims")
    if not dims:
        return None
    n = 1
    for d in dims[0]:
        n *= d
    return n


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("dir")
    a = p.parse_args()
    with open(os.path.join(a.dir, "gloo.producer.json"), encoding="utf-8") as f:
        producer = json.load(f)
    recorded = set(producer["recorded_steps"])
    paths = [os.path.join(a.dir, r["trace"]) for r in producer["ranks"]]
    res = subprocess.run([a.cli, "collectives", "--json", *paths], capture_output=True, text=True)
    if res.returncode != 0:
        print(f"FAIL exit {res.returncode}: {res.stderr}")
        return 1
    got = json.loads(res.stdout)
    by_file = {os.path.basename(r["file"]): r for r in got["ranks"]}
    fails = []
    for rank in producer["ranks"]:
        with gzip.open(os.path.join(a.dir, rank["trace"]), "rt", encoding="utf-8") as f:
            events = json.load(f, parse_float=Decimal)["traceEvents"]
        runs = defaultdict(int)  # (gloo name, elements) -> total ns
        for e in events:
            if e.get("ph") == "X" and str(e.get("name", "")).startswith("gloo:"):
                runs[(e["name"], run_elements(e))] += ns(e["dur"])
        want = Counter()
        total = {}
        for c in rank["collectives"]:
            if c["step"] not in recorded:
                continue
            kind, run_name, sized_by, family = KINDS[c["kind"]]
            n = len(c["group_ranks"])
            size = c[sized_by + "_nelems"] * BYTES[c["dtype"]] if sized_by else None
            want[(kind, size, c["pg_name"], n)] += 1
            total[(kind, size, c["pg_name"], n)] = runs[(run_name, c["in_nelems"] or None)]
        row = by_file.get(rank["trace"])
        if row is None:
            fails.append(f"{rank['trace']}: not in the CLI's output")
            continue
        have = Counter()
        for r in row["summary"]:
            key = (r["kind"], r["size_bytes"], r["group"], r["group_size"])
            have[key] += r["count"]
            if key in total and r["total_ns"] != total[key]:
                fails.append(f"rank {rank['rank']} {key}: total {r['total_ns']} ns, the gloo runs took {total[key]}")
            if r["time_source"] != "gloo worker":
                fails.append(f"rank {rank['rank']} {key}: timed by {r['time_source']}")
        if have != want:
            fails.append(f"rank {rank['rank']}: rows {sorted(have.items())} != issued {sorted(want.items())}")
        print(f"rank {rank['rank']}: {sum(want.values())} collectives in {len(want)} (kind, size, group) rows")

    s = producer["straggler"]
    late = {r["rank"] for r in producer["ranks"]
            for c in r["collectives"] if c.get("straggler_sleep_before_ms") and c["step"] in recorded}
    ordinals = []  # the straggled all-reduce's ordinal among the group's all-reduces, per step
    mine = [c for r in producer["ranks"] if r["rank"] == s["rank"] for c in r["collectives"] if c["step"] in recorded]
    n_ar = 0
    for c in mine:
        if c["kind"] == "all_reduce" and c["pg_name"] == "0":
            if c.get("straggler_sleep_before_ms"):
                ordinals.append(n_ar)
            n_ar += 1
    stragglers = got["stragglers"]
    index_of = {os.path.basename(r["file"]): i for i, r in enumerate(got["ranks"])}
    late_index = index_of[producer["ranks"][s["rank"]]["trace"]]
    for o in ordinals:
        m = [c for c in stragglers["collectives"] if c["kind"] == "allreduce" and c["group"] == "0" and c["ordinal"] == o]
        if len(m) != 1 or m[0]["late_rank"] != late_index:
            fails.append(f"all-reduce #{o} of group 0: late rank {m[0]['late_rank'] if m else None}, "
                         f"expected {late_index}")
        elif m[0]["skew_ns"] < s["sleep_ms"] * 1e6 * 0.5:
            fails.append(f"all-reduce #{o}: skew {m[0]['skew_ns']} ns, under half the {s['sleep_ms']} ms sleep")
    top = stragglers["ranks"][0]
    if top["rank"] != late_index or late != {s["rank"]}:
        fails.append(f"most induced wait: {top}, expected rank {s['rank']}")
    print(f"straggler rank {s['rank']}: late to all-reduces {ordinals} of group 0; induced {top['induced_wait_ns']} ns")
    for f in fails:
        print("FAIL " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
