#!/usr/bin/env python3
"""`tracescope-cli pod` on a run's rank summaries gives what it gives on the traces themselves: each
trace is summarised (`summarize`), then `pod --json` on the summaries' folder is compared with
`pod --json` on the traces, every figure (offsets, clocks, steps, breakdowns, step sets, overlaps,
stragglers) equal; only the load time and the worker's path (the summary's file name, not the
trace's path) may differ, and the summaries add a note naming the ranks of the job with no
summary (two sampled ranks of a 128-rank job).

    pod_summaries_equal.py --cli TRACESCOPE_CLI TRACE...

Exit 77 (CTest's skip) when a trace is missing, 1 under CI=true.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def pod(cli, paths):
    res = subprocess.run([cli, "pod", "--json", *paths], capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"FAIL pod {paths}: exit {res.returncode}: {res.stderr}")
    out = json.loads(res.stdout)
    out.pop("load_ms")
    for w in out["workers"]:
        w["path"] = os.path.basename(w["path"])
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("traces", nargs="+")
    a = p.parse_args()
    missing = [t for t in a.traces if not os.path.exists(t)]
    if missing:
        print("missing: " + ", ".join(missing))
        return 1 if os.environ.get("CI") == "true" else 77
    with tempfile.TemporaryDirectory() as tmp:
        for i, t in enumerate(a.traces):
            res = subprocess.run([a.cli, "summarize", t, "--out", os.path.join(tmp, f"r{i}.summary.json")],
                                 capture_output=True, text=True)
            if res.returncode != 0:
                print(f"FAIL summarize {t}: {res.stderr}")
                return 1
        from_traces = pod(a.cli, a.traces)
        from_summaries = pod(a.cli, [tmp])
    from_summaries["notes"] = [n for n in from_summaries["notes"] if "have no summary" not in n]
    if from_traces != from_summaries:
        for key in from_traces:
            if from_traces[key] != from_summaries.get(key):
                print(f"FAIL {key} differs:\n  traces:    {json.dumps(from_traces[key])[:600]}\n"
                      f"  summaries: {json.dumps(from_summaries.get(key))[:600]}")
        return 1
    steps = len(from_traces["steps"])
    print(f"{len(from_traces['workers'])} workers, {steps} steps: the same from the summaries as from the traces")
    return 0


if __name__ == "__main__":
    sys.exit(main())
