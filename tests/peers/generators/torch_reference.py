#!/usr/bin/env python3
"""PyTorch's own op table as the reference for `tracescope-cli torch-ops`: a CPU torch.profiler
trace of a few training steps of a small conv/MLP model, with record_shapes, profile_memory and
with_stack, exported with export_chrome_trace(), and beside it torch's key_averages() of the same
run: the table() text and a JSON of every row (plain, grouped by input shape, grouped by the top
two stack frames). torch is large (its Linux wheel pulls the CUDA libraries, several GB), so this
does not run in CI: run it locally in an environment of its own and commit its outputs, which
tests/peers/compare_torch.py compares our CLI with.

    python3.12 -m venv /tmp/torchvenv && /tmp/torchvenv/bin/pip install torch==2.15.0
    /tmp/torchvenv/bin/python torch_reference.py OUT     (OUT: tests/data/peers)

Writes OUT/torch_cpu_ops.json.gz (the trace), OUT/torch_cpu_ops.table.txt (key_averages().table(
sort_by="cpu_time_total", row_limit=-1)) and OUT/torch_cpu_ops.reference.json.

Units: torch's FunctionEvent times are microseconds as floats, (end_ns - start_ns) / 1000 of the
same Kineto events the trace is written from; the reference keeps them as torch gives them,
and records in events_vs_trace whether torch's function events and the exported trace's
complete events are the same events to the nanosecond (they were: 1,587 of 1,587 with 2.15.0).
"""
import collections
import decimal
import gzip
import json
import os
import platform
import shutil
import sys
import tempfile

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile, record_function, schedule

WAIT, WARMUP, ACTIVE = 1, 1, 3


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(8 * 8 * 8, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = self.pool(torch.relu(self.conv(x)))
        x = torch.flatten(x, 1)
        with record_function("my_block"):
            x = torch.relu(self.fc1(x))
            x = x * 0.5 + 0.1
        return self.fc2(x)


def train_step(model, opt, loss_fn, x, y):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    return loss


def rows(events, with_shapes=False, with_stack=False):
    out = []
    for e in events:
        r = {"key": e.key, "count": e.count, "device_type": str(e.device_type),
             "is_user_annotation": bool(getattr(e, "is_user_annotation", False)),
             "cpu_time_total_us": e.cpu_time_total, "self_cpu_time_total_us": e.self_cpu_time_total,
             "device_time_total_us": getattr(e, "device_time_total", 0.0),
             "self_device_time_total_us": getattr(e, "self_device_time_total", 0.0),
             "cpu_memory_usage": e.cpu_memory_usage, "self_cpu_memory_usage": e.self_cpu_memory_usage}
        if with_shapes:
            r["input_shapes"] = str(e.input_shapes)
        if with_stack:
            r["stack"] = list(e.stack)
        out.append(r)
    return out


def events_vs_trace(prof, trace):
    """Whether torch's function events (behind key_averages) are the trace's complete events to
    the nanosecond: start (trace ts + baseTimeNanoseconds against start_us + trace_start_ns),
    duration and name (ProfilerStep#N as the trace writes it)."""
    base = int(trace["baseTimeNanoseconds"])
    in_trace = collections.Counter(
        (int(e["ts"] * 1000) + base, int(e["dur"] * 1000), e["name"]) for e in trace["traceEvents"]
        if e.get("ph") == "X" and e.get("cat") != "Trace")
    start = prof.profiler.kineto_results.trace_start_ns()
    in_torch = collections.Counter(
        (round(e.time_range.start * 1000) + start, round(e.time_range.elapsed_us() * 1000), e.trace_name or e.name)
        for e in prof.events())
    return {"trace_complete_events": sum(in_trace.values()), "torch_function_events": sum(in_torch.values()),
            "python_function_events": sum(1 for e in prof.events() if e.is_python_function),
            "only_in_trace": [list(k) for k in (in_trace - in_torch)][:20],
            "only_in_torch": [list(k) for k in (in_torch - in_trace)][:20],
            "equal_to_the_ns": in_trace == in_torch}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out_dir = sys.argv[1]
    torch.manual_seed(0)
    torch.set_num_threads(1)  # one thread: the ops of a step stay on the main thread
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    x = torch.randn(16, 3, 16, 16)
    y = torch.randint(0, 10, (16,))

    with profile(activities=[ProfilerActivity.CPU], record_shapes=True, profile_memory=True, with_stack=True,
                 schedule=schedule(wait=WAIT, warmup=WARMUP, active=ACTIVE, repeat=1)) as prof:
        for _ in range(WAIT + WARMUP + ACTIVE):
            train_step(model, opt, loss_fn, x, y)
            prof.step()

    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(raw)
        with open(raw, encoding="utf-8") as f:
            trace = json.load(f, parse_float=decimal.Decimal)
        with open(raw, "rb") as f, gzip.GzipFile(os.path.join(out_dir, "torch_cpu_ops.json.gz"), "wb",
                                                   mtime=0) as g:
            shutil.copyfileobj(f, g)

    table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=-1)
    with open(os.path.join(out_dir, "torch_cpu_ops.table.txt"), "w", encoding="utf-8") as f:
        f.write(table + "\n")

    ref = {
        "producer": f"torch {torch.__version__}",
        "python": platform.python_version(),
        "program": f"tests/peers/generators/torch_reference.py: {WAIT + WARMUP + ACTIVE} SGD steps of a small "
                   f"conv/MLP (batch 16x3x16x16), schedule(wait={WAIT}, warmup={WARMUP}, active={ACTIVE}), "
                   "torch.set_num_threads(1)",
        "profile": "profile(activities=[CPU], record_shapes=True, profile_memory=True, with_stack=True)",
        "units": "microseconds (floats) as torch's FunctionEvent/FunctionEventAvg give them",
        "trace_start_ns": prof.profiler.kineto_results.trace_start_ns(),
        "key_averages": rows(prof.key_averages()),
        "key_averages_group_by_input_shape": rows(prof.key_averages(group_by_input_shape=True), with_shapes=True),
        "key_averages_group_by_stack_n_2": rows(prof.key_averages(group_by_stack_n=2), with_stack=True),
        "events_vs_trace": events_vs_trace(prof, trace),
    }
    with open(os.path.join(out_dir, "torch_cpu_ops.reference.json"), "w", encoding="utf-8") as f:
        json.dump(ref, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
