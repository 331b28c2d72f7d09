#!/usr/bin/env python3
"""The advice rules recomputed with the standard library over raw Kineto JSON, in exact decimal
microseconds, and compared with `tracescope-cli advice --json`: each rule's finding count and cost
to the nanosecond.

    advice_exact.py --cli TRACESCOPE_CLI TRACE.json[.gz]...

gpu-gap: per device (the events' pid), the union of its kernels, memcpys and memsets; a gap of at
least 1 ms between two busy stretches is one finding, worth its length. sync-in-step: host runtime
calls (cuda_runtime, cuda_driver, old Kineto's Runtime) named cuda/cu/hip + DeviceSynchronize,
CtxSynchronize, StreamSynchronize, EventSynchronize (and _ptsz/_v2 spellings), or memcpy/memset calls
without "Async", starting inside a ProfilerStep#N (the whole trace without steps); worth their
durations. pageable-copy: memcpys whose name says "Pageable"; worth their durations. short-kernel:
each device activity joined by correlation to a launch call (HTA's set plus cuLaunchKernel,
cuLaunchKernelEx and HIP's) that lasts at most 50 us and longer than the activity; worth the
difference. Exit 77 (CTest's skip) when a file is missing, 1 under CI=true.
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys
from decimal import Decimal

ACTIVITY = {"kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset"}
MEMCPY = {"gpu_memcpy", "Memcpy"}
RUNTIME = {"cuda_runtime", "cuda_driver", "Runtime"}
LAUNCHES = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cudaMemcpyAsync", "cudaMemsetAsync",
            "runFunction - job_prep_and_submit_for_execution", "cuLaunchKernel", "cuLaunchKernelEx",
            "hipLaunchKernel", "hipExtModuleLaunchKernel", "hipMemcpyAsync", "hipMemsetAsync",
            "hipMemcpyWithStream"}
SYNC = re.compile(r"^(cuda|hip|cu)(DeviceSynchronize|CtxSynchronize(_v2)?|StreamSynchronize(_ptsz)?|"
                  r"EventSynchronize)$")
SYNC_COPY = re.compile(r"^(cudaMemcpy|cudaMemset|cuMemcpy|cuMemset|hipMemcpy|hipMemset)")
GAP_NS = 1_000_000
RUNTIME_CUTOFF_NS = 50_000


def ns(us):
    return int(Decimal(us) * 1000)


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def complete(events):
    return [e for e in events if e.get("ph") == "X" and "ts" in e and "dur" in e]


def gaps(events):
    by_device = {}
    for e in events:
        if e.get("cat") in ACTIVITY:
            s = ns(e["ts"])
            by_device.setdefault(e.get("pid"), []).append((s, s + ns(e["dur"])))
    found = []
    for acts in by_device.values():
        acts.sort(key=lambda a: (a[0], -a[1]))
        busy = acts[0][1]
        for s, e in acts[1:]:
            if s - busy >= GAP_NS:
                found.append(s - busy)
            busy = max(busy, e)
    return found


def syncs(events):
    steps = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in events
                   if str(e.get("name", "")).startswith("ProfilerStep#"))
    found = []
    for e in events:
        name = e.get("name", "")
        if e.get("cat") not in RUNTIME:
            continue
        if not (SYNC.match(name) or (SYNC_COPY.match(name) and "Async" not in name)):
            continue
        ts = ns(e["ts"])
        if steps and not any(s <= ts < t for s, t in steps):
            continue
        found.append(ns(e["dur"]))
    return found


def pageable(events):
    return [ns(e["dur"]) for e in events if e.get("cat") in MEMCPY and "ageable" in e.get("name", "")]


def short_kernels(events):
    calls = {}
    for e in events:
        args = e.get("args") or {}
        if e.get("cat") in RUNTIME and "correlation" in args:
            calls.setdefault(args["correlation"], e)
    found = []
    for e in events:
        args = e.get("args") or {}
        call = calls.get(args.get("correlation")) if e.get("cat") in ACTIVITY else None
        if not call or call.get("name") not in LAUNCHES:
            continue
        cpu, gpu = ns(call["dur"]), ns(e["dur"])
        if cpu <= RUNTIME_CUTOFF_NS and gpu < cpu:
            found.append(cpu - gpu)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", maxsplit=1)[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("traces", nargs="+")
    args = ap.parse_args()
    present = [t for t in args.traces if os.path.exists(t)]
    if len(present) < len(args.traces):
        # ../shared is absent in a plain clone (CTest's skip); on CI it must be there.
        print("missing: " + ", ".join(t for t in args.traces if t not in present))
        return 1 if os.environ.get("CI") == "true" else 77
    compared = failures = 0
    for path in present:
        events = complete(load(path))
        got = json.loads(subprocess.run([args.cli, "advice", path, "--json"], check=True, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True).stdout)
        rules = {r["rule"]: r for r in got["rules"]}
        name = os.path.basename(path)
        want = {"gpu-gap": gaps(events), "sync-in-step": syncs(events), "pageable-copy": pageable(events),
                "short-kernel": short_kernels(events)}
        for rule, values in want.items():
            key = "findings" if rule == "gpu-gap" else "occurrences"
            for what, ours, expected in ((key, rules[rule][key], len(values)), ("cost_ns", rules[rule]["cost_ns"],
                                                                                 sum(values))):
                compared += 1
                if ours != expected:
                    failures += 1
                    print(f"FAIL {name} {rule} {what}: ours {ours}, expected {expected}")
        # The gaps listed are the costliest, each worth its length.
        listed = sorted((f["cost_ns"] for f in got["findings"] if f["rule"] == "gpu-gap"), reverse=True)
        compared += 1
        if listed != sorted(want["gpu-gap"], reverse=True)[:len(listed)]:
            failures += 1
            print(f"FAIL {name} gpu-gap lengths: ours {listed[:5]}..., expected {sorted(want['gpu-gap'])[-5:]}...")
        print(f"{name}: " + ", ".join(f"{r} {len(v)}" for r, v in want.items()))
    print(f"{compared} values compared, {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
