#!/usr/bin/env python3
"""HTA's temporal and idle-time breakdowns (holistictraceanalysis 0.5.0,
hta/analyzers/breakdown_analysis.py) recomputed with the standard library over raw Kineto JSON, in
exact decimal microseconds, and compared with `tracescope-cli gpu-util --json`: every figure equal
to the nanosecond, every gap count equal.

    gpu_util_exact.py --cli TRACESCOPE_CLI TRACE.json[.gz]...

Per GPU (Kineto arg "device", -1 without): the window from the first kernel/memcpy/memset start to the last
end; idle = window - union of all; compute = union of the kernels HTA's name rules call compute
(not ^nccl.*Kernel, not ^Memcpy|^Memset|^dma, and not matching (^nccl.*Kernel)|(.*(Memcpy)|(Memset))|
(.*Sync)); non-compute = window - idle - compute. Per stream (arg "stream", else the tid), in start order, a gap
before an activity that starts after all earlier work on the stream ended is host_wait when its
launch (the cuda_runtime/cuda_driver, old Kineto's Runtime, event with its "correlation") began after that end, else
kernel_wait under 30 us, else other. Where HTA itself differs from this exact rule (float64 times,
kernels it drops), tests/peers/compare_hta.py names why. Exit 77 (CTest's skip) when a file is
missing, 1 under CI=true.
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys
from decimal import Decimal

ACTIVITY = {"kernel": "kernel", "Kernel": "kernel", "gpu_memcpy": "memcpy", "Memcpy": "memcpy",
            "gpu_memset": "memset", "Memset": "memset"}
NOT_COMPUTE = re.compile(r"(^nccl.*Kernel)|(.*(Memcpy)|(Memset))|(.*Sync)")
COMM = re.compile(r"^nccl.*Kernel")
MEMORY = re.compile(r"(^Memcpy)|(^Memset)|(^dma)")
THRESHOLD_NS = 30000


def ns(us):
    return int(Decimal(us) * 1000)


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def union(intervals):
    total, cur = 0, None
    for s, e in sorted(intervals):
        if cur and s <= cur[1]:
            cur[1] = max(cur[1], e)
            continue
        if cur:
            total += cur[1] - cur[0]
        cur = [s, e]
    return total + (cur[1] - cur[0] if cur else 0)


def expected(events):
    launches = {}
    for e in events:
        args = e.get("args") or {}
        if e.get("cat") in ("cuda_runtime", "cuda_driver", "Runtime") and "correlation" in args and "ts" in e:
            launches.setdefault(args["correlation"], ns(e["ts"]))
    gpus = {}
    for e in events:
        kind = ACTIVITY.get(e.get("cat"))
        if not kind or e.get("ph") != "X" or "dur" not in e:
            continue
        args = e.get("args") or {}
        start = ns(e["ts"])
        act = (start, start + ns(e["dur"]), launches.get(args.get("correlation")),
               kind == "kernel" and not COMM.match(e["name"]) and not MEMORY.match(e["name"])
               and not NOT_COMPUTE.match(e["name"]))
        # Without the args: device unknown (-1), the stream is the track's tid.
        device, stream = args.get("device", -1), args.get("stream", e.get("tid"))
        gpus.setdefault(device, {}).setdefault(stream, []).append(act)
    out = {}
    for device, streams in gpus.items():
        acts = [a for s in streams.values() for a in s]
        window = max(a[1] for a in acts) - min(a[0] for a in acts)
        idle = window - union([(a[0], a[1]) for a in acts])
        compute = union([(a[0], a[1]) for a in acts if a[3]])
        g = {"active_ns": window, "idle_ns": idle, "compute_ns": compute, "non_compute_ns": window - idle - compute,
             "streams": {}}
        for stream, s in streams.items():
            s.sort(key=lambda a: a[0])
            r = {c + k: 0 for c in ("host_wait", "kernel_wait", "other") for k in ("_ns", "_gaps")}
            busy = s[0][1]
            for start, end, launch, _ in s[1:]:
                if start > busy:
                    gap = start - busy
                    cause = ("host_wait" if launch is not None and launch > busy
                             else "kernel_wait" if gap < THRESHOLD_NS else "other")
                    r[cause + "_ns"] += gap
                    r[cause + "_gaps"] += 1
                busy = max(busy, end)
            g["streams"][stream] = r
        out[device] = g
    return out


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
        want = expected(load(path))
        got = json.loads(subprocess.run([args.cli, "gpu-util", path, "--json"], check=True, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True).stdout)
        ours = {g["device"]: g for g in got["gpus"]}
        name = os.path.basename(path)
        if sorted(ours) != sorted(want):
            print(f"FAIL {name}: GPUs {sorted(ours)}, expected {sorted(want)}")
            failures += 1
            continue
        for device, w in want.items():
            g = ours[device]
            checks = [(k, g[k], w[k]) for k in ("active_ns", "idle_ns", "compute_ns", "non_compute_ns")]
            streams = {s["stream"]: s for s in g["streams"]}
            if sorted(streams) != sorted(w["streams"]):
                checks.append(("streams", sorted(streams), sorted(w["streams"])))
            for sid, ws in w["streams"].items():
                for k, v in ws.items():
                    checks.append((f"stream {sid} {k}", streams.get(sid, {}).get(k), v))
            for what, o, e in checks:
                compared += 1
                if o != e:
                    failures += 1
                    print(f"FAIL {name} GPU {device} {what}: ours {o}, expected {e}")
        print(f"{name}: {len(want)} GPU(s) checked")
    print(f"{compared} values compared, {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
