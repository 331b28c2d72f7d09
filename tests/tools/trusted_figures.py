#!/usr/bin/env python3
"""Reference values for the figures users read on the Overview, Op Stats and Kernel Stats
pages of Kineto (PyTorch profiler) Chrome JSON traces, computed straight from the JSON
with the standard library only (no TraceScope code). Times are exact integer ns.

Per file:
  devices:                      distinct pids holding GPU activity (kernel, gpu_memcpy,
                                gpu_memset; old Kineto: Kernel, Memcpy, Memset)
  device_idle_ns:               per device, (last activity end - first activity start) minus
                                the union of its activity intervals, summed over devices
  device_idle_over_span_ns:     the same with the window widened to the whole trace (first
                                event start to last event end): the old, misleading figure
  kernel_total_ns:              sum of kernel durations
  tensor_core_kernel_ns:        sum of durations of kernels whose name spells a tensor-core
                                data path (CUTLASS "tensorop", MMA shapes such as h884 / s1688 /
                                16816, hmma, TF32 / BF16 / FP16 operand types) and not a plain
                                FP32 one ("ffma", "simt", FP32 operands "f32f32_f32f32_f32")
  dynamo_timed_spans:           spans whose name ends in " (dynamo_timed)" (torch.compile's
                                compile phases) and their total ns
  compiled_wrapper_spans:       runtime wrappers of compiled graphs (CompiledFunction*,
                                Torch-Compiled Region*, TorchDynamo Cache Lookup)
  host_name:                    top-level "host_name", or null when the file records none

  trusted_figures.py FILE...   (.json or .json.gz) -> JSON on stdout, keyed by file name
"""
import decimal
import gzip
import json
import os
import sys

DEVICE_CATS = ("kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset")
TC_MARKERS = ("tensorop", "h884", "s884", "h1688", "s1688", "16816", "hmma", "tf32", "bf16", "f16f16")
FP32_MARKERS = ("ffma", "simt", "f32f32_f32f32_f32")
WRAPPERS = ("CompiledFunction", "Torch-Compiled Region", "TorchDynamo Cache Lookup")


def to_ns(v):
    return int((decimal.Decimal(v) * 1000).to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f, parse_float=decimal.Decimal)
    if isinstance(data, dict):
        return data.get("traceEvents", []), data.get("host_name")
    return data, None


def union_length(intervals):
    total, cur_start, cur_end = 0, None, None
    for s, e in sorted(intervals):
        if cur_end is None or s > cur_end:
            if cur_end is not None:
                total += cur_end - cur_start
            cur_start, cur_end = s, e
        else:
            cur_end = max(cur_end, e)
    if cur_end is not None:
        total += cur_end - cur_start
    return total


def uses_tensor_cores(name):
    return any(m in name for m in TC_MARKERS) and not any(m in name for m in FP32_MARKERS)


def summarize(path):
    events, host_name = load(path)
    per_device = {}
    first, last = None, None
    kernel_total = tc_total = 0
    dynamo_count = dynamo_ns = wrappers = 0
    for e in events:
        if not isinstance(e, dict) or "ts" not in e or e.get("ph") == "M":
            continue
        ts = to_ns(e["ts"])
        dur = to_ns(e.get("dur", 0)) if e.get("ph") == "X" else 0
        first = ts if first is None else min(first, ts)
        last = ts + dur if last is None else max(last, ts + dur)
        if e.get("ph") != "X":
            continue
        cat, name = e.get("cat"), e.get("name", "")
        if cat in DEVICE_CATS:
            per_device.setdefault(str(e.get("pid")), []).append((ts, ts + dur))
        if cat in ("kernel", "Kernel"):
            kernel_total += dur
            if uses_tensor_cores(name):
                tc_total += dur
        elif name.endswith(" (dynamo_timed)"):
            dynamo_count += 1
            dynamo_ns += dur
        elif name.startswith(WRAPPERS):
            wrappers += 1
    idle = idle_span = 0
    for iv in per_device.values():
        busy = union_length(iv)
        idle += max(e for _, e in iv) - min(s for s, _ in iv) - busy
        idle_span += (last - first) - busy
    return {
        "devices": len(per_device),
        "device_idle_ns": idle,
        "device_idle_over_span_ns": idle_span,
        "kernel_total_ns": kernel_total,
        "tensor_core_kernel_ns": tc_total,
        "dynamo_timed_spans": {"count": dynamo_count, "total_ns": dynamo_ns},
        "compiled_wrapper_spans": wrappers,
        "host_name": host_name,
    }


def main(argv):
    print(json.dumps({os.path.basename(p): summarize(p) for p in argv}, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
