#!/usr/bin/env python3
"""HTA (Holistic Trace Analysis) reference outputs for the Kineto traces in ../shared/testdata:
per trace, HTA's temporal breakdown (idle / compute / non-compute time per rank), its GPU
kernel breakdown (every kernel: count, sum, min, max; per kernel type) and its idle-time breakdown
(host wait / kernel wait / other per stream, with the gaps' statistics), its kernel launch
statistics and its queue length per stream (launch_queue_sections). HTA is heavy (pandas,
jupyterlab) and does not run in CI: run this locally in a separate environment and commit
its output, which tests/peers/compare_hta.py compares against.

    python -m venv hta-venv && hta-venv/bin/pip install holistictraceanalysis==0.5.0 "pandas<3"
    hta-venv/bin/python hta_reference.py SHARED_TESTDATA OUT.json

Each trace is copied alone into a temporary folder (HTA reads a folder of rank files). HTA runs
with include_last_profiler_step=True (by default it drops the last ProfilerStep's kernels) and
with HTA_DISABLE_NS_ROUNDING=1 (by default it rounds each event inward to whole microseconds),
so that its numbers measure the same events as ours; it still keeps only the kernels launched by
CPU ops inside the ProfilerStep iterations when the trace has two or more of them.
"""
import contextlib
import importlib.metadata
import io
import json
import os
import shutil
import sys
import tempfile

os.environ["HTA_DISABLE_NS_ROUNDING"] = "1"

TRACES = ["gpu/torch2.11_cu130_h100_kineto_trace.json.gz", "gpu/torch_mlp_memory_h100.json",
          "public/hta/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
          "public/hta/rank-70.Mar_25_20_48_12.2861.pt.trace.json.gz",
          "public/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz", "public/hta/mtia_rank_0.json.gz",
          "public/hta/sampled_rank-0.json.gz", "public/hta/sampled_rank-1.json.gz",
          "public/hta/df_index_resolver.json.gz", "public/kineto/worker0.1623143089861.pt.trace.json.gz",
          "public/kineto/before_fix_trace.json"]


def records(df):
    return json.loads(df.to_json(orient="records"))


def gpu_util_sections(analysis):
    """get_temporal_breakdown is in analyse(); this adds get_idle_time_breakdown (its default
    consecutive_kernel_delay) per stream of the file's rank, with its interval statistics (count,
    min, max... per stream and cause). Both tables come rounded to 2 decimals of a microsecond."""
    rank = analysis.t.get_ranks()[0]
    try:
        table, stats = analysis.get_idle_time_breakdown(ranks=[rank], visualize=False, show_idle_interval_stats=True)
    except Exception as e:  # pylint: disable=broad-except
        return {"idle_time_breakdown_error": f"{type(e).__name__}: {e}"}
    return {"idle_time_breakdown": records(table), "idle_interval_stats": records(stats.reset_index())}


def launch_queue_sections(analysis):
    """get_cuda_kernel_launch_stats (memcpy/memset launches included, HTA's default cut-offs) summarised
    per column (count, mean, median, p95 with pandas' linear interpolation, min, max, in us) with its
    three outlier counts, using the filters of HTA's own visualize_cuda_launch_kernel_info; and per
    stream get_queue_length_summary (describe() of the samples), the series' length, and
    get_time_spent_blocked_on_full_queue at the limits 1, the trace's highest queue length and 1024
    (called one stream at a time: HTA keeps only one stream per rank in its table)."""
    from hta.analyzers.trace_counters import TraceCounters  # pylint: disable=import-outside-toplevel
    rank = analysis.t.get_ranks()[0]
    out = {}
    try:
        df = analysis.get_cuda_kernel_launch_stats(ranks=[rank], visualize=False)[rank]
        cols = {}
        for col in ("cpu_duration", "gpu_duration", "launch_delay"):
            c = df[col]
            cols[col] = {"count": int(c.count()), "mean": float(c.mean()), "median": float(c.median()),
                         "p95": float(c.quantile(0.95)), "min": float(c.min()), "max": float(c.max())} if len(c) else {
                             "count": 0}
        cpu, gpu, delay = df["cpu_duration"], df["gpu_duration"], df["launch_delay"]
        out["launch_stats"] = {"launches": len(df), "unique_correlations": int(df["correlation"].nunique()),
                               "columns": cols,
                               "short_kernels": int(((cpu <= 50) & (gpu < cpu)).sum()),
                               "long_runtime": int((cpu > 50).sum()), "long_launch_delay": int((delay > 100).sum())}
    except Exception as e:  # pylint: disable=broad-except
        out["launch_stats_error"] = f"{type(e).__name__}: {e}"
    try:
        series = analysis.get_queue_length_time_series(ranks=[rank])
        ql = series.get(rank)
        streams = []
        if ql is not None:
            top = int(ql["queue_length"].max())
            for stream in sorted(ql["stream"].unique()):
                one = ql[ql["stream"] == stream].copy()
                q = one["queue_length"]
                row = {"stream": int(stream), "samples": int(q.count()), "mean": float(q.mean()),
                       "std": float(q.std()) if len(q) > 1 else 0.0, "min": float(q.min()),
                       "p25": float(q.quantile(0.25)), "median": float(q.quantile(0.5)),
                       "p75": float(q.quantile(0.75)), "max": float(q.max()), "time_at_limit_us": {}}
                for limit in sorted({1, top, 1024}):
                    blocked = TraceCounters.get_time_spent_blocked_on_full_queue(analysis.t, {rank: one.copy()}, limit)
                    at = float(blocked["duration_at_max_queue_length"].iloc[0]) if len(blocked) else 0.0
                    row["time_at_limit_us"][str(limit)] = at
                streams.append(row)
        summary = analysis.get_queue_length_summary(ranks=[rank])
        out["queue_length"] = {"streams": streams, "highest": max([r["max"] for r in streams], default=0),
                               "summary": [] if summary is None else records(summary.reset_index())}
    except Exception as e:  # pylint: disable=broad-except
        out["queue_length_error"] = f"{type(e).__name__}: {e}"
    return out


def critical_path_sections(analysis, max_steps=6):
    """critical_path_analysis(annotation="ProfilerStep", instance_id=i) for the first max_steps host
    ProfilerStep annotations (category user_annotation; HTA numbers every event whose name holds
    the annotation, GPU-side copies included, in its dataframe's order): the path's length (sum of
    its edge weights), its event count and get_critical_path_breakdown's time per bound_by, in us.
    HTA 0.5.0 needs pandas < 3 here (its graph build calls DataFrame.drop(axis=1, columns=...))."""
    rank = analysis.t.get_ranks()[0]
    df = analysis.t.get_trace(rank)
    symbols = analysis.t.symbol_table
    names = symbols.get_sym_table()
    ids = [v for k, v in symbols.get_sym_id_map().items() if "ProfilerStep" in k]
    host_category = symbols.get_sym_id_map().get("user_annotation")
    annotations = df[df.name.isin(ids)]
    out = []
    for instance in range(len(annotations)):
        row = annotations.iloc[instance]
        if row["cat"] != host_category:
            continue
        if len(out) >= max_steps:
            break
        entry = {"instance": instance, "annotation": names[row["name"]]}
        try:
            graph, ok = analysis.critical_path_analysis(rank=rank, annotation="ProfilerStep", instance_id=instance)
            breakdown = graph.get_critical_path_breakdown()
            entry.update({"ok": bool(ok), "length_us": float(sum(e.weight for e in graph.critical_path_edges_set)),
                          "events": len(graph.critical_path_events_set),
                          "bound_by_us": {k: float(v) for k, v in breakdown.groupby("bound_by").duration.sum().items()
                                          if k}})
        except Exception as e:  # pylint: disable=broad-except
            entry["error"] = f"{type(e).__name__}: {e}"
        out.append(entry)
    return {"critical_path": out} if out else {}


def analyse(path):
    from hta.trace_analysis import TraceAnalysis  # pylint: disable=import-outside-toplevel
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(path, tmp)
        with contextlib.redirect_stdout(io.StringIO()):
            analysis = TraceAnalysis(trace_dir=tmp, include_last_profiler_step=True)
            temporal = analysis.get_temporal_breakdown(visualize=False)
            by_type, by_kernel = analysis.get_gpu_kernel_breakdown(visualize=False, duration_ratio=1.0,
                                                                     num_kernels=1 << 30)
            gpu_util = gpu_util_sections(analysis)
            launch_queue = launch_queue_sections(analysis)
            critical_path = critical_path_sections(analysis)
    return {"temporal_breakdown": records(temporal), "kernel_type_breakdown": records(by_type),
            "kernel_breakdown": records(by_kernel), **gpu_util, **launch_queue, **critical_path}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    testdata, out = sys.argv[1], sys.argv[2]
    result = {"producer": f"holistictraceanalysis {importlib.metadata.version('holistictraceanalysis')}",
              "options": "TraceAnalysis(include_last_profiler_step=True), HTA_DISABLE_NS_ROUNDING=1; "
                         "get_gpu_kernel_breakdown(duration_ratio=1.0, num_kernels=all)",
              "traces": {}}
    for rel in TRACES:
        try:
            result["traces"][rel] = analyse(os.path.join(testdata, rel))
        except Exception as e:  # pylint: disable=broad-except
            result["traces"][rel] = {"error": f"{type(e).__name__}: {e}"}
        print(rel, "error" if "error" in result["traces"][rel] else "ok", file=sys.stderr)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
