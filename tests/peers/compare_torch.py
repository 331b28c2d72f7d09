#!/usr/bin/env python3
"""torch.profiler's own op table as the reference for `tracescope-cli torch-ops`: compares our
rows with the key_averages() rows that torch computed for the same run, made locally by
generators/torch_reference.py and committed as tests/data/peers/torch_cpu_ops.reference.json
beside the trace it exported (torch is not installed in CI; this script needs only the stdlib).

    compare_torch.py --cli TRACESCOPE_CLI --reference torch_cpu_ops.reference.json TRACE

Three comparisons, each row keyed as torch keys it (CPU rows; this CPU-only trace has no
device rows):
  plain     torch-ops --json                     <-> key_averages()
  shapes    torch-ops --json --group-by-shape    <-> key_averages(group_by_input_shape=True),
            keyed by (name, input shapes) with whitespace left out of both shape strings
  stack     torch-ops --json --group-by-stack 2  <-> key_averages(group_by_stack_n=2), keyed
            by name: our groups of a name summed, and their frames against torch's
Per row: calls exact, CPU total and Self CPU within the tolerance; per comparison the total
Self CPU (the denominator of the percentages).

Tolerance: torch's FunctionEvent times are float microseconds, (end_ns - start_ns) / 1000 of
the same Kineto events the trace was exported from (the generator checked that every event's
start and duration agree with the trace's to the nanosecond), summed per row in floating
point: 1 ns per call + 1 ns. Every other mismatch must be an entry in EXPECTED (comparison
regex, check regex, subject regex, reason) or the test fails.
"""
import argparse
import json
import re
import subprocess
import sys

EXPECTED = [
    ("stack", r"stack frames", r".*",
     "torch 2.15 leaves FunctionEvent.stack empty with with_stack=True (the Python frames became events of its "
     "tree, hidden from the table by key_averages(include_python_functions=False)), so its group_by_stack_n=2 "
     "rows are the ungrouped ones; we group by the enclosing Python frames (the trace's python_function slices, "
     "innermost first), which split the same calls (summed per name they equal torch's rows, checked here)"),
]


class Result:
    def __init__(self):
        self.compared = self.agreed = 0
        self.mismatches = []

    def check(self, check, subject, ours, theirs, equal):
        self.compared += 1
        if equal:
            self.agreed += 1
        else:
            self.mismatches.append((check, subject, ours, theirs))

    def time(self, check, subject, ours_ns, torch_us, calls):
        torch_ns = torch_us * 1000.0
        self.check(check, subject, ours_ns, round(torch_ns, 3), abs(ours_ns - torch_ns) <= 1 + max(calls, 1))


def no_space(s):
    return re.sub(r"\s+", "", s)


MODES = {
    "plain": ([], "key_averages",
              lambda r: r["name"], lambda r: r["key"]),
    # An event without "Input Dims" (annotations, autograd nodes) has shapes "" in our rows and
    # str([]) in torch's: the same single group, written apart.
    "shapes": (["--group-by-shape"], "key_averages_group_by_input_shape",
               lambda r: f"{r['name']} {no_space(r['input_shapes']) or '[]'}",
               lambda r: f"{r['key']} {no_space(r['input_shapes'])}"),
    # Keyed by name: our groups of a name are summed (they must partition the same calls as
    # torch's rows), and the frames are compared apart ("stack frames").
    "stack": (["--group-by-stack", "2"], "key_averages_group_by_stack_n_2",
              lambda r: r["name"], lambda r: r["key"]),
}


def merge_stacks(ours):
    """Our --group-by-stack rows summed per name, each with the set of its stacks."""
    merged = {}
    for r in ours["rows"]:
        m = merged.get((r["name"], r["on_device"]))
        if m is None:
            m = merged[(r["name"], r["on_device"])] = dict(r, calls=0, cpu_total_ns=0, self_cpu_ns=0, stacks=set())
        m["calls"] += r["calls"]
        m["cpu_total_ns"] += r["cpu_total_ns"]
        m["self_cpu_ns"] += r["self_cpu_ns"]
        m["stacks"].add(tuple(f for f in r["stack"].split("\n") if f))
    return dict(ours, rows=list(merged.values()))


def compare(res, ours, theirs, our_key, their_key):
    mine = {}
    for r in ours["rows"]:
        if not r["on_device"]:
            mine.setdefault(our_key(r), []).append(r)
    torch_rows = {}
    for r in theirs:
        if r["device_type"] == "DeviceType.CPU":
            torch_rows.setdefault(their_key(r), []).append(r)
    for k, rows in sorted(mine.items()):
        res.check("duplicate row key in ours", k[:200], len(rows), 1, len(rows) == 1)
    for k, rows in sorted(torch_rows.items()):
        # torch keys also by is_user_annotation: a name in both kinds would be two rows.
        res.check("duplicate row key in torch", k[:200], 1, len(rows), len(rows) == 1)
    for k in sorted(set(mine) | set(torch_rows)):
        subject = k[:200]
        o = mine.get(k, [None])[0]
        t = torch_rows.get(k, [None])[0]
        if t is None:
            res.check("row only in ours", subject, o["calls"], None, False)
            continue
        if o is None:
            res.check("row only in torch", subject, None, t["count"], False)
            continue
        res.check("calls", subject, o["calls"], t["count"], o["calls"] == t["count"])
        if "stacks" in o:
            theirs_stack = tuple(t["stack"])
            ours_stacks = sorted(o["stacks"])
            res.check("stack frames", subject, [" | ".join(x) for x in ours_stacks], list(theirs_stack),
                      ours_stacks == [theirs_stack])
        res.time("CPU total", subject, o["cpu_total_ns"], t["cpu_time_total_us"], t["count"])
        res.time("Self CPU", subject, o["self_cpu_ns"], t["self_cpu_time_total_us"], t["count"])
    calls = sum(r["count"] for r in theirs)
    res.time("Self CPU total", "all rows", ours["self_cpu_total_ns"],
             sum(r["self_cpu_time_total_us"] for r in theirs), calls)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--reference", required=True)
    ap.add_argument("trace")
    args = ap.parse_args()
    with open(args.reference, encoding="utf-8") as f:
        ref = json.load(f)
    print(f"torch reference: {ref['producer']} ({ref['profile']}; units: {ref['units']})")
    unexpected = 0
    for mode, (flags, ref_key, our_key, their_key) in MODES.items():
        out = subprocess.run([args.cli, "torch-ops", args.trace, "--json"] + flags, check=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        res = Result()
        ours = json.loads(out.stdout)
        compare(res, merge_stacks(ours) if mode == "stack" else ours, ref[ref_key], our_key, their_key)
        print(f"{mode}: {res.agreed} of {res.compared} values agree ({len(ref[ref_key])} torch rows)")
        used = set()
        for check, subject, ours, theirs in res.mismatches:
            entry = next((e for e in EXPECTED if re.fullmatch(e[0], mode) and re.fullmatch(e[1], check)
                          and re.fullmatch(e[2], subject)), None)
            used.add(entry)
            line = f"{check} / {subject}: ours {ours!r}, torch {theirs!r}"
            if entry:
                print(f"  expected difference: {line} -- {entry[3]}")
            else:
                print(f"  UNEXPECTED: {line}")
                unexpected += 1
        for e in EXPECTED:
            if re.fullmatch(e[0], mode) and e not in used:
                print(f"  now agrees (expected difference no longer seen): {e[1]}: {e[3]}")
    if unexpected:
        print(f"FAIL: {unexpected} unexpected difference(s) from torch.profiler")
        return 1
    print("OK: equal within tolerance, or a named expected difference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
