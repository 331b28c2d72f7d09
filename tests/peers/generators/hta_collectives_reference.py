#!/usr/bin/env python3
"""HTA (Holistic Trace Analysis) reference outputs for communication: per input and per rank
HTA's computation/communication overlap (get_comm_comp_overlap), with the intervals behind it, and
HTA's straggler analysis (get_potential_stragglers) with its metric. Like hta_reference.py, HTA
is heavy and does not run in CI: run this locally in a separate environment and commit its output.

    python -m venv hta-venv && hta-venv/bin/pip install holistictraceanalysis==0.5.0 "pandas<3"
    hta-venv/bin/python hta_collectives_reference.py SHARED_TESTDATA OUT.json

Inputs: sampled_rank-0 and sampled_rank-1 together in one folder (ranks 0 and 1 of one job), and
rank-0.Apr_03_18_51_38.1102, df_index_resolver and the torch 2.11 H100 trace each alone (HTA reads
a folder of rank files; the rank is the first `"rank": N` in the file, else 0). Same options as
hta_reference.py: include_last_profiler_step=True and HTA_DISABLE_NS_ROUNDING=1.

What HTA 0.5.0 computes (hta/analyzers/communication_analysis.py, hta/utils/utils.py):
  - events: the rank's events with stream != -1 after HTA's filtering (with two or more
    ProfilerStep names in the traces it keeps only GPU events whose correlation matches a CPU
    event starting at or before the end of the rank's last ProfilerStep);
  - communication: name matches ^nccl.*Kernel; memory: ^Memcpy|^Memset|^dma; computation: any
    other name except those containing Memcpy or Sync (anywhere), or starting with Memset;
  - each class merged into a union of intervals ([ts, ts+dur], touching intervals merged);
  - ratio = |union(comm) & union(comp)| / |union(comm)|, in the trace's microseconds, per rank;
    its returned table holds round(100 * ratio, 2).
The full-precision ratio comes from HTA's own result list (its module's defaultdict is wrapped to
keep it), the merged intervals from HTA's merge_kernel_intervals (wrapped to keep its output);
comm_union_us is HTA's own denominator and overlap_us its numerator, recomputed with HTA's sweep
on those intervals (numerator_check says numerator / denominator == HTA's ratio, bit for bit).
*_ns are the microsecond figures times 1000, rounded to whole nanoseconds.
"""
import collections
import contextlib
import importlib.metadata
import io
import json
import math
import os
import shutil
import sys
import tempfile
import traceback

os.environ["HTA_DISABLE_NS_ROUNDING"] = "1"

INPUTS = {
    "sampled_rank-0+1": ["public/hta/sampled_rank-0.json.gz", "public/hta/sampled_rank-1.json.gz"],
    "rank-0.Apr_03_18_51_38.1102": ["public/hta/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"],
    "df_index_resolver": ["public/hta/df_index_resolver.json.gz"],
    "torch2.11_cu130_h100": ["gpu/torch2.11_cu130_h100_kineto_trace.json.gz"],
}


def err(e):
    return f"{type(e).__name__}: {e}"


def num(x):
    """A JSON-safe float: NaN and infinities as strings."""
    x = float(x)
    return x if math.isfinite(x) else str(x)


def ns(us):
    us = float(us)
    return int(round(us * 1000)) if math.isfinite(us) else str(us)


def sweep_overlap(comm, comp):
    """HTA's own sweep (get_comm_comp_overlap_value), on its merged intervals: the time when the
    running status (+-1 for comm, +-2 for comp) is 3."""
    import pandas as pd  # pylint: disable=import-outside-toplevel
    status_df = (pd.concat([comm.melt(var_name="status", value_name="time").replace({"ts": 1, "end": -1}),
                            comp.melt(var_name="status", value_name="time").replace({"ts": 2, "end": -2})])
                 .sort_values(by="time").reset_index(drop=True))
    status_df["running"] = status_df["status"].cumsum()
    overlap = status_df[status_df["running"].eq(3)]
    shifted = overlap.merge(status_df.shift(-1).dropna(), left_index=True, right_index=True)
    return (shifted["time_y"] - shifted["time_x"]).sum()


def kernel_classes(analysis, rank):
    """HTA's get_kernel_type of every event with stream != -1 of the rank (what the overlap sees)."""
    from hta.utils.utils import get_kernel_type  # pylint: disable=import-outside-toplevel
    df = analysis.t.get_trace(rank)
    names = analysis.t.symbol_table.get_sym_table()
    gpu = df[df["stream"].ne(-1)]
    counts = collections.Counter()
    comm_names = collections.Counter()
    for sym in gpu["name"]:
        name = names[sym]
        kind = get_kernel_type(name)
        counts[kind] += 1
        if kind == "COMMUNICATION":
            comm_names[name] += 1
    return {"events_by_type": dict(sorted(counts.items())), "comm_kernel_names": dict(sorted(comm_names.items()))}


def overlap_section(analysis):
    import hta.analyzers.communication_analysis as ca  # pylint: disable=import-outside-toplevel
    merges, results = [], []
    orig_merge, orig_dd = ca.merge_kernel_intervals, ca.defaultdict

    def merge_spy(df):
        out = orig_merge(df)
        merges.append(out.copy())
        return out

    def dd_spy(factory):
        d = orig_dd(factory)
        results.append(d)
        return d

    ca.merge_kernel_intervals, ca.defaultdict = merge_spy, dd_spy
    try:
        table = analysis.get_comm_comp_overlap(visualize=False)
    finally:
        ca.merge_kernel_intervals, ca.defaultdict = orig_merge, orig_dd
    ranks = list(results[0]["rank"])
    ratios = list(results[0]["comp_comm_overlap_ratio"])
    pctg = {int(r): num(p) for r, p in zip(table["rank"], table["comp_comm_overlap_pctg"])}
    out = {}
    for i, rank in enumerate(ranks):
        comp, comm = merges[2 * i], merges[2 * i + 1]  # HTA merges computation first, then communication
        comm_us = (comm["end"] - comm["ts"]).sum()
        comp_us = (comp["end"] - comp["ts"]).sum()
        entry = {"comp_comm_overlap_ratio": num(ratios[i]), "comp_comm_overlap_pctg_hta": pctg.get(int(rank)),
                 "comp_comm_overlap_pct_full": num(100 * ratios[i]),
                 "comm_union_us": num(comm_us), "comm_union_ns": ns(comm_us), "comm_intervals_merged": len(comm),
                 "comp_union_us": num(comp_us), "comp_union_ns": ns(comp_us), "comp_intervals_merged": len(comp)}
        try:
            overlap_us = sweep_overlap(comm, comp)
            entry.update({"overlap_us": num(overlap_us), "overlap_ns": ns(overlap_us),
                          "numerator_check": bool(float(overlap_us) / float(comm_us) == float(ratios[i]))
                          if float(comm_us) else "no communication time: ratio is 0/0"})
        except Exception as e:  # pylint: disable=broad-except
            entry["overlap_error"] = err(e)
        try:
            entry.update(kernel_classes(analysis, rank))
        except Exception as e:  # pylint: disable=broad-except
            entry["kernel_classes_error"] = err(e)
        out[str(int(rank))] = entry
    return out


def straggler_section(analysis):
    """get_potential_stragglers with its defaults (all profiler steps, num_candidates=2), and again
    with num_candidates=1 (_top1); its default implementation called through a wrapper that keeps
    the metric it ranks by and the per-rank counts it returns."""
    from hta.analyzers import straggler as st  # pylint: disable=import-outside-toplevel
    out = {}
    try:
        out["profiler_steps"] = [int(s) for s in analysis.get_profiler_steps()]
    except Exception as e:  # pylint: disable=broad-except
        out["profiler_steps_error"] = err(e)
    kept = {}

    def impl(df, symbol_table, n_stragglers, visualize):
        # pylint: disable=protected-access
        metric_df, metric_name = st._compute_normalized_start_time_of_significant_comm_kernels(
            df, symbol_table, visualize)
        names = symbol_table.get_sym_table()
        kept["metric"] = [{"rank": int(r["rank"]), "iteration": int(r["iteration"]), "stream": int(r["stream"]),
                           "kernel": names[int(r["name"])], "ts_us": num(r["ts"]), "dur_us": num(r["dur"]),
                           metric_name: num(r[metric_name]), "normalized_duration": num(r["duration"])}
                          for _, r in metric_df.iterrows()]
        counts = st._get_top_k_stragglers_with_metric(
            metric_df, metric_name, visualize=visualize, n_stragglers=n_stragglers)
        kept["straggler_counts"] = {str(int(k)): int(v) for k, v in counts.items()}
        return counts

    for n, key in ((2, "potential_stragglers"), (1, "potential_stragglers_top1")):
        kept.clear()
        try:
            out[key] = [int(r) for r in analysis.get_potential_stragglers(num_candidates=n,
                                                                          straggler_identification_impl=impl)]
        except Exception as e:  # pylint: disable=broad-except
            out[key + "_error"] = err(e)
        if "straggler_counts" in kept:
            out[key.replace("potential_stragglers", "straggler_counts")] = kept.pop("straggler_counts")
        out.update(kept)
    return out


def analyse(paths):
    from hta.trace_analysis import TraceAnalysis  # pylint: disable=import-outside-toplevel
    with tempfile.TemporaryDirectory() as tmp:
        for p in paths:
            shutil.copy(p, tmp)
        with contextlib.redirect_stdout(io.StringIO()):
            analysis = TraceAnalysis(trace_dir=tmp, include_last_profiler_step=True)
            result = {"files": [os.path.basename(p) for p in paths],
                      "ranks": {str(r): os.path.basename(analysis.t.trace_files[r]) for r in analysis.t.get_ranks()}}
            try:
                result["comm_comp_overlap"] = overlap_section(analysis)
            except Exception as e:  # pylint: disable=broad-except
                result["comm_comp_overlap_error"] = err(e)
                traceback.print_exc()
            result["stragglers"] = straggler_section(analysis)
    return result


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    testdata, out = sys.argv[1], sys.argv[2]
    try:
        version = importlib.metadata.version("holistictraceanalysis")
    except Exception as e:  # pylint: disable=broad-except
        version = f"unknown ({err(e)})"
    result = {"producer": f"holistictraceanalysis {version}",
              "options": "TraceAnalysis(include_last_profiler_step=True), HTA_DISABLE_NS_ROUNDING=1; "
                         "get_comm_comp_overlap(visualize=False); "
                         "get_potential_stragglers() with its defaults and with num_candidates=1",
              "inputs": {}}
    for name, rels in INPUTS.items():
        try:
            result["inputs"][name] = analyse([os.path.join(testdata, r) for r in rels])
        except Exception as e:  # pylint: disable=broad-except
            result["inputs"][name] = {"error": err(e)}
        print(name, "error" if "error" in result["inputs"][name] else "ok", file=sys.stderr)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
