#!/usr/bin/env python3
"""HTA (Holistic Trace Analysis) reference outputs for the Kineto traces in ../shared/testdata:
per trace, HTA's temporal breakdown (idle / compute / non-compute time per rank), its GPU
kernel breakdown (every kernel: count, sum, min, max; per kernel type) and its idle-time breakdown
(host wait / kernel wait / other per stream, with the gaps' statistics). HTA is heavy (pandas,
jupyterlab) and does not run in CI: run this locally in a separate environment and commit
its output, which tests/peers/compare_hta.py compares against.

    python -m venv hta-venv && hta-venv/bin/pip install holistictraceanalysis==0.5.0
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
    return {"temporal_breakdown": records(temporal), "kernel_type_breakdown": records(by_type),
            "kernel_breakdown": records(by_kernel), **gpu_util}


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
