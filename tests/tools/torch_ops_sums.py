#!/usr/bin/env python3
"""torch.profiler's key_averages() table of Kineto Chrome JSON traces, computed straight from
the JSON with the standard library only (no TraceScope code). Times are exact integer ns.

The event tree as torch.profiler builds it:
  CPU-side events: ph "X" slices of categories cpu_op, user_annotation, cuda_runtime,
  cuda_driver (old Kineto: Operator, Runtime, Driver) on host pids; every ProfilerStep#N is
  one row "ProfilerStep*", as torch names it. Python frames (python_function, with_stack=True)
  are nodes of the tree without rows, as in torch 2.15. On each (pid, tid) an event's parent
  is the innermost CPU-side event or Python frame containing it, by torch's rule (one that
  starts at the end of an open event is not inside it); other slices are ignored.
  Device activity: kernel, gpu_memcpy, gpu_memset (old: Kernel, Memcpy, Memset; MTIA:
  mtia_ccp_events), linked to the runtime call (MTIA: mtia_runtime) with the same args.correlation,
  as torch.profiler takes MTIA's CCP events for device work and its runtime calls for CPU ones.
  torch's own filtering (torch/autograd/profiler.py _filter_name, profiler_util.py
  EventList._remove_dup_nodes): events named [memory], [OutOfMemory], profiler::_record_function_*,
  aten::is_leaf, aten::output_nr, aten::_version are no events at all; an event that is the only
  child of a parent of the same name is removed, its children becoming the parent's.

Per row (name, CPU rows and device rows apart):
  calls, cpu_total_ns (sum of durations), self_cpu_ns (duration minus the durations of direct
  CPU-side children), self_cuda_ns (device time launched by runtime calls that are direct
  children), cuda_total_ns (launched anywhere below the event). Device rows: calls, and their
  device time as self_cuda_ns and cuda_total_ns.
Totals: self_cpu_total_ns (sum of self CPU of all rows), self_cuda_total_ns (sum over device rows).

  torch_ops_sums.py FILE...   (.json or .json.gz) -> JSON on stdout, keyed by file name
"""
import decimal
import gzip
import json
import os
import sys

CPU_CATS = ("cpu_op", "user_annotation", "cuda_runtime", "cuda_driver", "Operator", "Runtime", "Driver",
            "mtia_runtime")
RUNTIME_CATS = ("cuda_runtime", "cuda_driver", "Runtime", "Driver", "mtia_runtime")
DEVICE_CATS = ("kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset", "mtia_ccp_events")
PYTHON_CATS = ("python_function",)
FILTERED_NAMES = ("[memory]", "[OutOfMemory]", "profiler::_record_function_enter",
                  "profiler::_record_function_enter_new", "profiler::_record_function_exit", "aten::is_leaf",
                  "aten::output_nr", "aten::_version")


def to_ns(v):
    return int((decimal.Decimal(v) * 1000).to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def row_name(name):
    return "ProfilerStep*" if name.startswith("ProfilerStep#") else name


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f, parse_float=decimal.Decimal)
    return data["traceEvents"] if isinstance(data, dict) else data


def summarize(path):
    cpu_by_thread = {}
    devices = []
    for e in load(path):
        if not isinstance(e, dict) or e.get("ph") != "X":
            continue
        cat = e.get("cat")
        ev = {"name": e.get("name", ""), "ts": to_ns(e["ts"]), "dur": to_ns(e.get("dur", 0)),
              "corr": (e.get("args") or {}).get("correlation"), "cat": cat}
        if ev["name"] in FILTERED_NAMES:
            continue
        if cat in CPU_CATS or cat in PYTHON_CATS:
            cpu_by_thread.setdefault((str(e.get("pid")), str(e.get("tid"))), []).append(ev)
        elif cat in DEVICE_CATS:
            devices.append(ev)

    runtime_by_corr = {}
    for events in cpu_by_thread.values():
        events.sort(key=lambda x: (x["ts"], -x["dur"]))
        stack = []
        for ev in events:
            # torch's _populate_cpu_children: an open event is no parent of one that starts at or
            # after its end or ends after it (so a zero-length event is nobody's parent).
            while stack and (ev["ts"] >= stack[-1]["ts"] + stack[-1]["dur"] or
                             ev["ts"] + ev["dur"] > stack[-1]["ts"] + stack[-1]["dur"]):
                stack.pop()
            ev["parent"] = stack[-1] if stack else None
            ev["children"] = []
            if ev["parent"] is not None:
                ev["parent"]["children"].append(ev)
            stack.append(ev)
            if ev["cat"] in RUNTIME_CATS and ev["corr"] is not None:
                runtime_by_corr[int(ev["corr"])] = ev
        # torch's _remove_dup_nodes: repeat until nothing changes.
        changed = True
        while changed:
            changed = False
            for ev in events:
                p = ev["parent"]
                if ev.get("removed") or p is None or len(p["children"]) != 1 or \
                        row_name(p["name"]) != row_name(ev["name"]):
                    continue
                p["children"] = ev["children"]
                for ch in ev["children"]:
                    ch["parent"] = p
                ev["removed"] = True
                changed = True
        for ev in events:
            if ev.get("removed"):
                continue
            ev["self_cpu"] = ev["dur"] - sum(ch["dur"] for ch in ev["children"])
            ev["self_cuda"] = ev["cuda_total"] = 0

    rows = {}

    def event_parent(ev):
        p = ev["parent"]
        while p is not None and p["cat"] in PYTHON_CATS:
            p = p["parent"]
        return p

    def row(name, device):
        return rows.setdefault((name, device), {"name": name, "on_device": device, "calls": 0, "cpu_total_ns": 0,
                                                "self_cpu_ns": 0, "self_cuda_ns": 0, "cuda_total_ns": 0})

    for d in devices:
        r = row(d["name"], True)
        r["calls"] += 1
        r["self_cuda_ns"] += d["dur"]
        r["cuda_total_ns"] += d["dur"]
        launch = runtime_by_corr.get(int(d["corr"])) if d["corr"] is not None else None
        if launch is None:
            continue
        while launch.get("removed"):  # merged into its parent of the same name
            launch = launch["parent"]
        p = event_parent(launch)
        if p is not None:
            p["self_cuda"] += d["dur"]
        while p is not None:
            p["cuda_total"] += d["dur"]
            p = event_parent(p)

    for events in cpu_by_thread.values():
        for ev in events:
            if ev["cat"] in PYTHON_CATS or ev.get("removed"):
                continue
            r = row(row_name(ev["name"]), False)
            r["calls"] += 1
            r["cpu_total_ns"] += ev["dur"]
            r["self_cpu_ns"] += ev["self_cpu"]
            r["self_cuda_ns"] += ev["self_cuda"]
            r["cuda_total_ns"] += ev["cuda_total"]

    out = sorted(rows.values(), key=lambda r: (r["on_device"], r["name"]))
    return {
        "self_cpu_total_ns": sum(r["self_cpu_ns"] for r in out),
        "self_cuda_total_ns": sum(r["self_cuda_ns"] for r in out if r["on_device"]),
        "rows": out,
    }


def main(argv):
    print(json.dumps({os.path.basename(p): summarize(p) for p in argv}, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
