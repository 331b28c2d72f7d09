#!/usr/bin/env python3
"""tracescope-cli critical-path end to end on a hand-built Kineto trace (the kernel-bound case of
tst_critical_path, worked out by hand there): --help, --json (one step, its length and categories),
--step N --json (events and edges), --csv, a missing step, and the overlay written by --out
(HTA's marks: args "critical": 1 on exactly the events on the path, a critical_path flow pair per
launch / dependency / sync edge on it).

    critical_path_cli.py --cli TRACESCOPE_CLI
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# op [0,40] launches three 100 us kernels back to back; the path: op.b -> L1.b (5 us) -> k1.b (7 us
# launch delay) -> k1 -> k2 -> k3 (300 us) = 312 us, events aten::op, cudaLaunchKernel, k1, k2, k3.
EVENTS = [
    {"ph": "M", "name": "process_labels", "pid": 0, "args": {"labels": "GPU 0"}},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#4", "pid": 1, "tid": 1, "ts": 0, "dur": 40},
    {"ph": "X", "cat": "cpu_op", "name": "aten::op", "pid": 1, "tid": 1, "ts": 0, "dur": 40},
]
for i, (launch, start) in enumerate(((5, 12), (15, 112), (25, 212)), 1):
    EVENTS.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": launch,
                   "dur": 5, "args": {"correlation": i}})
    EVENTS.append({"ph": "X", "cat": "kernel", "name": f"k{i}", "pid": 0, "tid": 7, "ts": start, "dur": 100,
                   "args": {"correlation": i, "stream": 7, "device": 0}})


def run(cli, *args, check=True):
    return subprocess.run([cli, "critical-path", *args], check=check, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    cli = ap.parse_args().cli
    failures = []

    def expect(what, ok):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace.json")
        with open(trace, "w", encoding="utf-8") as f:
            json.dump({"traceEvents": EVENTS}, f)
        expect("--help", "critical-path" in run(cli, "--help").stdout)
        j = json.loads(run(cli, trace, "--json").stdout)
        (step,) = j["steps"]
        expect("one step, number 4", step["step"] == 4)
        expect("length 312 us", step["length_ns"] == 312000)
        cats = step["by_category"]
        expect("categories", (cats["cpu_op_ns"], cats["launch_delay_ns"], cats["kernel_ns"]) == (5000, 7000, 300000))
        expect("warnings array", isinstance(j.get("warnings"), list))
        overlay = os.path.join(tmp, "overlay.json")
        d = json.loads(run(cli, trace, "--step", "4", "--json", "--out", overlay).stdout)
        names = [e["name"] for e in d["steps"][0]["events"]]
        expect("events on the path", names == ["aten::op", "cudaLaunchKernel", "k1", "k2", "k3"])
        expect("edges", len(d["steps"][0]["edges"]) == 7)
        csv = run(cli, trace, "--csv").stdout.strip().splitlines()
        expect("csv: header and one row", len(csv) == 2 and csv[1].split(",")[5] == "312000")
        expect("missing step: status 2", run(cli, trace, "--step", "9", check=False).returncode == 2)
        with open(overlay, encoding="utf-8") as f:
            marked = json.load(f)["traceEvents"]
        critical = sorted(e["name"] for e in marked if e.get("ph") == "X" and e.get("args", {}).get("critical") == 1)
        expect("overlay: critical events", critical == sorted(["aten::op", "cudaLaunchKernel", "k1", "k2", "k3"]))
        flows = [e for e in marked if e.get("name") == "critical_path"]
        # One launch-delay edge on the path (the kernel-kernel and operator edges are not drawn, as HTA).
        expect("overlay: one flow pair", sorted(e["ph"] for e in flows) == ["f", "s"] and
               all(e["cat"] == "critical_path_kernel_launch_delay" for e in flows))
    if failures:
        print(f"FAIL: {len(failures)} check(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
