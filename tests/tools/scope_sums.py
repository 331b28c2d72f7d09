#!/usr/bin/env python3
"""Reference numbers for the scope tree and the op-type view of Kineto (PyTorch profiler)
Chrome JSON traces, computed straight from the JSON with the standard library only.

Times are exact integer ns: JSON microsecond values are parsed as decimals (no float).

Scope events are the host "X" events that name a scope:
  cpu_op (old Kineto: Operator), user_annotation (old: Annotation / user_annotations) and
  python_function events named "nn.Module: NAME" (scope NAME); ProfilerStep#N is a step
  marker, never a scope. gpu_user_annotation (device side) is not a scope event.
An event's path is the names of the scope events enclosing it on its (pid, tid), outermost
first, then its own name, each split on '/' (empty parts dropped).

Per tree node (a path prefix):
  occurrences  the events whose path is exactly this node
  time_ns      length of the union of the intervals of the events whose path starts with it
  self_ns      time_ns minus the union of the intervals of the events strictly below it
  device_ns    sum of the durations of the device activities (kernel, gpu_memcpy, gpu_memset;
               old: Kernel, Memcpy, Memset) launched under it: the activity's args.correlation
               names a runtime call (cuda_runtime / cuda_driver, old Runtime / Driver, same
               args.correlation); the call's innermost enclosing scope event on its thread owns
               it. An activity with no such event goes to "(no op)/<activity name>".
Op-type view, per cpu_op name:
  occurrences, total_ns (sum of durations), device_ns (device activities whose runtime call's
  innermost enclosing cpu_op has this name; "(no op)" when the call is inside no cpu_op).

  scope_sums.py FILE...   (.json or .json.gz) -> JSON on stdout, keyed by file name
"""
import bisect
import decimal
import gzip
import json
import os
import sys

HOST_OP = ("cpu_op", "Operator")
ANNOTATION = ("user_annotation", "Annotation", "user_annotations")
RUNTIME = ("cuda_runtime", "cuda_driver", "Runtime", "Driver")
DEVICE = ("kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset")
MODULE_PREFIX = "nn.Module: "


def to_ns(v):
    return int((decimal.Decimal(v) * 1000).to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f, parse_float=decimal.Decimal)
    return data["traceEvents"] if isinstance(data, dict) else data


def scope_name(cat, name):
    """The scope an event names, or None when it is not a scope event."""
    if name.startswith("ProfilerStep#"):
        return None
    if cat in HOST_OP or cat in ANNOTATION:
        return name
    if cat == "python_function" and name.startswith(MODULE_PREFIX):
        return name[len(MODULE_PREFIX):]
    return None


def split(name):
    return [p for p in name.split("/") if p]


def union_length(intervals):
    total = 0
    end = None
    for b, e in sorted(intervals):
        if end is None or b > end:
            total += e - b
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


def innermost(owned, starts, ts, end):
    """The innermost of the properly nested (start, end, payload) intervals, sorted by
    (start, -duration), that contains [ts, end]: the last one in that order that does."""
    k = bisect.bisect_right(starts, ts)
    while k > 0:
        k -= 1
        s, e, p = owned[k]
        if s <= ts and end <= e:
            return owned[k]
    return None


def summarize(path):
    events = load(path)
    by_thread = {}  # (pid, tid) -> [(ts, end, scope name, is cpu_op, op name)]
    runtimes = {}  # correlation -> (pid, tid, ts, end)
    device = []  # (correlation, name, dur)
    for e in events:
        if e.get("ph") != "X":
            continue
        cat, name = e.get("cat"), e.get("name", "")
        args = e.get("args") or {}
        ts, dur = to_ns(e["ts"]), to_ns(e.get("dur", 0))
        thread = (str(e.get("pid")), str(e.get("tid")))
        scope = scope_name(cat, name)
        if scope is not None:
            by_thread.setdefault(thread, []).append((ts, ts + dur, scope, cat in HOST_OP, name))
        elif cat in RUNTIME and "correlation" in args:
            runtimes[int(args["correlation"])] = (thread, ts, ts + dur)
        elif cat in DEVICE:
            device.append((int(args["correlation"]) if "correlation" in args else None, name, dur))

    nodes = {}  # path tuple -> {"occurrences", "intervals" (own)}
    owner = {}  # thread -> [(start, end, (path, op name or None))] sorted like the events

    def node(p):
        return nodes.setdefault(p, {"occurrences": 0, "intervals": [], "device_ns": 0})

    ops = {}
    for thread, evs in by_thread.items():
        evs.sort(key=lambda x: (x[0], -(x[1] - x[0])))
        stack = []  # (start, end, path, innermost cpu_op name) of the enclosing scope events
        owned = []
        for ts, end, scope, is_op, name in evs:
            while stack and not (stack[-1][0] <= ts and end <= stack[-1][1]):
                stack.pop()
            parent = stack[-1][2] if stack else ()
            p = parent + tuple(split(scope))
            op = name if is_op else (stack[-1][3] if stack else None)
            stack.append((ts, end, p, op))
            if p:
                n = node(p)
                n["occurrences"] += 1
                n["intervals"].append((ts, end))
                owned.append((ts, end, (p, op)))
            if is_op:
                o = ops.setdefault(name, {"name": name, "occurrences": 0, "total_ns": 0, "device_ns": 0})
                o["occurrences"] += 1
                o["total_ns"] += end - ts
        owner[thread] = owned

    for corr, name, dur in device:
        hit = None
        if corr in runtimes:
            thread, ts, end = runtimes[corr]
            owned = owner.get(thread, [])
            hit = innermost(owned, [o[0] for o in owned], ts, end) if owned else None
        if hit is None:
            node(("(no op)", name))["device_ns"] += dur
            ops.setdefault("(no op)", {"name": "(no op)", "occurrences": 0, "total_ns": 0, "device_ns": 0})
            ops["(no op)"]["device_ns"] += dur
            continue
        p, op = hit[2]
        node(p)["device_ns"] += dur
        op = op or "(no op)"
        ops.setdefault(op, {"name": op, "occurrences": 0, "total_ns": 0, "device_ns": 0})
        ops[op]["device_ns"] += dur

    # Every prefix is a node; aggregate the subtree's intervals and device time.
    for p in list(nodes):
        for k in range(1, len(p)):
            node(p[:k])
    below = {p: [] for p in nodes}  # intervals of the events strictly below each node
    device_ns = {p: 0 for p in nodes}
    for q, n in nodes.items():
        for k in range(0, len(q) + 1):
            device_ns[q[:k]] = device_ns.get(q[:k], 0) + n["device_ns"]
            if k < len(q) and k > 0:
                below[q[:k]].extend(n["intervals"])
    rows = []
    for p in nodes:
        time_ns = union_length(below[p] + nodes[p]["intervals"])
        rows.append({"path": "/".join(p), "occurrences": nodes[p]["occurrences"], "time_ns": time_ns,
                     "self_ns": time_ns - union_length(below[p]), "device_ns": device_ns[p]})
    rows.sort(key=lambda r: r["path"])
    all_iv = [iv for n in nodes.values() for iv in n["intervals"]]
    return {
        "root": {"time_ns": union_length(all_iv), "device_ns": device_ns[()],
                 "events": sum(n["occurrences"] for n in nodes.values())},
        "nodes": rows,
        "op_view": sorted(ops.values(), key=lambda o: o["name"]),
    }


def main(argv):
    print(json.dumps({os.path.basename(p): summarize(p) for p in argv}, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
