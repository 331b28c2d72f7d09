#!/usr/bin/env python3
"""Kernel count and total kernel time (ns) of a Chrome/Kineto trace, read straight from the JSON.

Independent of TraceScope: the expected values for the kernel stats page on real files.
Usage: kernel_totals.py TRACE.json[.gz] > expected.json
Counts complete events ("ph": "X") of category "kernel" with dur > 0; durations are
microseconds with up to 3 decimals, converted to integral nanoseconds exactly.
"""
import gzip
import json
import sys
from decimal import Decimal


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f, parse_float=Decimal)
    events = data["traceEvents"] if isinstance(data, dict) else data
    count = 0
    total_ns = 0
    steps = set()
    for e in events:
        if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#") and e.get("cat") == "user_annotation":
            steps.add(e["name"])
        if e.get("ph") != "X" or e.get("cat") != "kernel":
            continue
        dur_ns = int(Decimal(e.get("dur", 0)) * 1000)
        if dur_ns <= 0:
            continue
        count += 1
        total_ns += dur_ns
    json.dump({"kernelCount": count, "totalKernelNs": total_ns, "profilerSteps": len(steps)}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
