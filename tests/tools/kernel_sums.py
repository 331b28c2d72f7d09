#!/usr/bin/env python3
"""Reference numbers for the op/kernel/step analyses of Kineto (PyTorch profiler) Chrome
JSON traces, computed straight from the JSON with the standard library only.

Times are exact integer ns: JSON microsecond values are parsed as decimals (no float).

Per file it writes:
  kernels:    per kernel name (cat "kernel"/"Kernel", ph "X"): occurrences, total_ns, min_ns, max_ns
  kernel_count, kernel_total_ns
  steps:      ProfilerStep#N host slices (cat user_annotation, or Operator in old Kineto files;
              never gpu_user_annotation):
              [{"number": N, "duration_ns": ...}] sorted by start
  cpu_ops:    per cpu_op name: occurrences, total_ns, self_ns, where self = duration minus the
              durations of the cpu_ops directly nested in it on the same (pid, tid); slices of
              other categories in between are transparent (a nested cpu_op's parent is its
              nearest enclosing cpu_op).

  memory:     [memory] instants with Bytes > 0 (allocations): count, bytes, and the bytes of
              those at a time when no cpu_op of their (pid, tid) is open (start <= t <= end)

  kernel_sums.py FILE...   (.json or .json.gz) -> JSON on stdout, keyed by file name
"""
import decimal
import gzip
import json
import os
import sys


def to_ns(v):
    return int((decimal.Decimal(v) * 1000).to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f, parse_float=decimal.Decimal)
    return data["traceEvents"] if isinstance(data, dict) else data


def summarize(path):
    events = load(path)
    kernels = {}
    steps = []
    ops_by_thread = {}
    allocations = []  # (pid, tid, t, bytes)
    for e in events:
        if e.get("ph") in ("i", "I") and e.get("name") == "[memory]":
            b = int((e.get("args") or {}).get("Bytes", 0))
            if b > 0:
                allocations.append((str(e.get("pid")), str(e.get("tid")), to_ns(e["ts"]), b))
            continue
        if e.get("ph") != "X":
            continue
        cat, name = e.get("cat"), e.get("name", "")
        ts, dur = to_ns(e["ts"]), to_ns(e.get("dur", 0))
        if cat in ("kernel", "Kernel"):
            k = kernels.setdefault(name, {"name": name, "occurrences": 0, "total_ns": 0, "min_ns": dur, "max_ns": dur})
            k["occurrences"] += 1
            k["total_ns"] += dur
            k["min_ns"] = min(k["min_ns"], dur)
            k["max_ns"] = max(k["max_ns"], dur)
        elif cat in ("user_annotation", "Operator") and name.startswith("ProfilerStep#"):
            # (old Kineto files write the step as an Operator; it is a step, not an op)
            steps.append((ts, int(name[len("ProfilerStep#"):]), dur))
        elif cat in ("cpu_op", "Operator"):
            ops_by_thread.setdefault((str(e.get("pid")), str(e.get("tid"))), []).append((ts, dur, name))

    cpu_ops = {}
    for ops in ops_by_thread.values():
        ops.sort(key=lambda o: (o[0], -o[1]))
        stack = []  # (start, end, index into rows) of the enclosing cpu_ops
        rows = []
        for ts, dur, name in ops:
            # The parent is the innermost open op that contains this one entirely.
            while stack and not (stack[-1][0] <= ts and ts + dur <= stack[-1][1]):
                stack.pop()
            rows.append([name, dur, dur])
            if stack:
                rows[stack[-1][2]][2] -= dur
            stack.append((ts, ts + dur, len(rows) - 1))
        for name, dur, self_ns in rows:
            c = cpu_ops.setdefault(name, {"name": name, "occurrences": 0, "total_ns": 0, "self_ns": 0})
            c["occurrences"] += 1
            c["total_ns"] += dur
            c["self_ns"] += max(self_ns, 0)

    outside = 0
    for pid, tid, t, b in allocations:
        ops = ops_by_thread.get((pid, tid), [])
        if not any(ts <= t <= ts + dur for ts, dur, _ in ops):
            outside += b
    memory = {"allocations": len(allocations), "bytes": sum(a[3] for a in allocations),
              "bytes_outside_cpu_ops": outside}

    steps.sort()
    return {
        "memory": memory,
        "kernel_count": sum(k["occurrences"] for k in kernels.values()),
        "kernel_total_ns": sum(k["total_ns"] for k in kernels.values()),
        "kernels": sorted(kernels.values(), key=lambda k: (-k["total_ns"], k["name"])),
        "steps": [{"number": n, "duration_ns": d} for _, n, d in steps],
        "cpu_ops": sorted(cpu_ops.values(), key=lambda c: (-c["self_ns"], c["name"])),
    }


def main(argv):
    print(json.dumps({os.path.basename(p): summarize(p) for p in argv}, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
