#!/usr/bin/env python3
"""The framework-made fixtures in tests/data/peers (generators in tests/peers/generators) open and
are analysed as their producers say. Expected numbers come from the producers: each generator
wrote <name>.producer.json beside its outputs (steps it annotated, node stats it recorded).

    check_fixtures.py --cli TRACESCOPE_CLI DATA_DIR

Checks:
  every fixture opens (info --json) with events and no import warning (or a known one);
  JAX: overview finds the annotated steps ("train", 0..N-1) in the XSpace and in the Perfetto
       trace JSON of the same run, with the same step times; in the default capture (Python
       tracer on) every step has host compute;
  TF tf.data: input-pipeline says input-bound and its host input op with the most self time is
       the slow stage (the Map that sleeps); tfdata names that Map as the bottleneck;
  TF1: the RunMetadata and the timeline JSON of the same run hold the same op count, which is
       the producer's node-stats count, and give the same op table;
  TF memory: the memory profile's peak is in the last step and its largest row at the peak is the
       kept 16 MiB buffers (kept x size bytes, from StatelessRandomUniform); the leak hint names
       that op with the buffers of every step but the last.

A check listed in KNOWN_GAPS (a feature still missing in TraceScope, with its reason) prints
"KNOWN GAP" instead of failing, and "now passes" once it works; nothing is skipped silently.
"""
import argparse
import json
import os
import subprocess
import sys

# (check name) -> reason. Remove an entry when its check passes.
KNOWN_GAPS = {
}

# (file, warning kind, text in the message) -> reason.
KNOWN_WARNINGS = {
    ("jax_default_capture.xplane.pb", "adjusted_events", "partially overlap"):
        "with the Python tracer on, each StepTraceAnnotation begins inside the Python frame of its __init__ and "
        "ends after it: the timeline draws such events in an overflow lane (step grouping does not depend on it)",
    ("torch_cpu_ops.json.gz", "adjusted_events", "partially overlap"):
        "with with_stack=True a record_function (ProfilerStep#N, my_block, Optimizer.step) is entered and left inside "
        "Python frames (__enter__/__exit__), so it partially overlaps them; torch's own tree does not nest them either",
}


class Checks:
    def __init__(self):
        self.failed, self.gaps = [], []

    def expect(self, name, ok, detail):
        gap = KNOWN_GAPS.get(name)
        if ok:
            print(f"ok    {name}: {detail}" + ("  (now passes: remove it from KNOWN_GAPS)" if gap else ""))
        elif gap:
            print(f"KNOWN GAP {name}: {detail} -- {gap}")
            self.gaps.append(name)
        else:
            print(f"FAIL  {name}: {detail}")
            self.failed.append(name)


def cli(cli_path, command, path, *extra):
    out = subprocess.run([cli_path, command, path, *extra, "--json"], check=True, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    return json.loads(out.stdout)


def producer(data, name):
    with open(os.path.join(data, name + ".producer.json"), encoding="utf-8") as f:
        return json.load(f)


def check_opens(c, cli_path, data):
    for name in sorted(os.listdir(data)):
        if name.endswith((".producer.json", "_reference.json", ".reference.json", ".table.txt", ".md")):
            continue  # what the producers said, not traces
        info = cli(cli_path, "info", os.path.join(data, name))
        events = info["slices"] + info["instants"] + info["async_slices"]
        c.expect(f"opens {name}", events > 0, f"{info['format']}, {events} events, {info['tracks']} tracks")
        for w in info["warnings"]:
            known = next((r for (f, kind, text), r in KNOWN_WARNINGS.items()
                          if f == name and w["kind"] == kind and text in w["message"]), None)
            if known:
                print(f"      known warning on {name}: {w['message']} ({known})")
            else:
                c.expect(f"no import warning in {name}", False, w["message"])


def steps_of(overview):
    return [(s["name"], s["duration_ns"]) for s in overview["steps"]]


def check_jax_steps(c, cli_path, data):
    p = producer(data, "jax_train_steps")
    want = p["steps"]
    xs = cli(cli_path, "overview", os.path.join(data, "jax_train_steps.xplane.pb"))
    numbers = [s["number"] for s in xs["steps"]]
    names = {s["name"] for s in xs["steps"]}
    c.expect("jax xspace steps", xs["step_count"] == want and numbers == list(range(want)) and names == {p["step_name"]},
             f"{xs['step_count']} steps {sorted(names)} numbered {numbers} from '{xs['step_source']}' "
             f"({p['producer']} annotated {want})")
    check_jax_default_capture(c, cli_path, data)
    if not p.get("perfetto_trace"):
        print(f"      {p['producer']} wrote no Perfetto trace JSON: not checked")
        return
    js = cli(cli_path, "overview", os.path.join(data, "jax_train_steps.perfetto_trace.json.gz"))
    c.expect("jax perfetto steps", js["step_count"] == want and steps_of(js) == steps_of(xs),
             f"{js['step_count']} steps from '{js['step_source']}' in the trace JSON of the same run "
             f"(XSpace: {xs['step_count']})")


def check_jax_default_capture(c, cli_path, data):
    """jax.profiler.trace() with the Python tracer on: every step made its batch in Python and ran
    the jitted step, so every step has host compute (it had none when the step annotations, which
    partly overlap Python frames, were grouped by the timeline's lanes)."""
    p = producer(data, "jax_default_capture")
    want = p["steps"]
    ov = cli(cli_path, "overview", os.path.join(data, "jax_default_capture.xplane.pb"))
    numbers = [s["number"] for s in ov["steps"]]
    c.expect("jax default capture steps", ov["step_count"] == want and numbers == list(range(want)),
             f"{ov['step_count']} steps numbered {numbers} ({p['producer']} annotated {want})")
    # TensorBoard's step set (every step has compute: all but the first and the last), named in the JSON
    # of every step page; --all-steps takes every step.
    inner = list(range(1, want - 1))
    ip = cli(cli_path, "input-pipeline", os.path.join(data, "jax_default_capture.xplane.pb"))
    c.expect("jax default capture step set",
             ov["step_set"]["rule"] == "xprof" and ov["step_set"]["numbers"] == inner and
             [s["number"] for s in ov["steps"] if s["in_step_set"]] == inner and ip["step_set"] == ov["step_set"] and
             abs(ip["input_percent"] - ov["input_percent"]) < 1e-9,
             f"overview: {ov['step_set']['description']}; input-pipeline: {ip['step_set']['description']}")
    every = cli(cli_path, "overview", os.path.join(data, "jax_default_capture.xplane.pb"), "--all-steps")
    c.expect("jax default capture --all-steps",
             every["step_set"]["rule"] == "all" and every["step_set"]["count"] == want and
             all(s["in_step_set"] for s in every["steps"]),
             every["step_set"]["description"])
    without = [s["number"] for s in ov["steps"] if s["breakdown_ns"]["Host compute"] <= 0]
    c.expect("jax default capture host compute", not without,
             f"steps without Host compute: {without or 'none'}; input {ov['input_percent']:.1f}%, "
             f"verdict {ov['input_bound']}")


def check_tf_data(c, cli_path, data):
    p = producer(data, "tf_data_slow_map")
    path = os.path.join(data, "tf_data_slow_map.xplane.pb")
    ip = cli(cli_path, "input-pipeline", path)
    c.expect("tf.data input-bound", ip["verdict"] in ("highly input-bound", "moderately input-bound"),
             f"verdict '{ip['verdict']}' with a map sleeping {p['sleep_ms_per_element']} ms per element")
    top = max(ip["ops"], key=lambda o: o["self_ns"], default=None)
    c.expect("tf.data slow stage", top is not None and top["name"].endswith("::" + p["slow_stage"]),
             f"host input op with the most self time: {top and top['name']} ({top and top['self_ns']} ns)")
    ov = cli(cli_path, "overview", path)
    c.expect("tf.data steps", ov["step_count"] == p["steps"], f"{ov['step_count']} steps (annotated {p['steps']})")
    td = cli(cli_path, "tfdata", path)
    worst = td["bottlenecks"][0] if td["bottlenecks"] else {}
    c.expect("tf.data bottleneck", worst.get("iterator_name") == p["slow_stage"] and td["summary"]["is_input_bound"],
             f"tfdata: bottleneck of the slowest call {worst.get('iterator_long_name')} "
             f"({worst.get('iterator_latency_ns')} ns self), input-bound {td['summary']['is_input_bound']}")


def check_tf_memory(c, cli_path, data):
    p = producer(data, "tf_memory_heavy")
    mem = cli(cli_path, "memory", os.path.join(data, "tf_memory_heavy.xplane.pb"))
    ids = mem["memory_ids"]
    c.expect("tf memory ids", len(ids) == 1, f"memory ids {[m['memory_id'] for m in ids]}")
    if not ids:
        return
    m = ids[0]
    c.expect("tf memory peak step", m["peak_step"] == p["steps"] - 1,
             f"peak {m['peak_bytes']:,} bytes in step {m['peak_step']} (the heap grows every step of {p['steps']})")
    top = max(m["breakdown"], key=lambda r: r["allocation_bytes"], default={})
    kept = p["tensors_kept_alive"] * p["big_tensor_bytes"]
    c.expect("tf memory breakdown", top.get("allocation_bytes") == kept and "StatelessRandomUniform" in top.get("op", ""),
             f"largest row at the peak: {top.get('op')} {top.get('allocation_bytes')} bytes in {top.get('occurrences')} "
             f"(kept {p['tensors_kept_alive']} x {p['big_tensor_bytes']} = {kept})")
    leak = m["leak_hints"][0] if m["leak_hints"] else {}
    c.expect("tf memory leak hint", "StatelessRandomUniform" in leak.get("op", "") and
             leak.get("bytes") == (p["steps"] - 1) * p["big_tensor_bytes"],
             f"leak hint {leak.get('op')}: {leak.get('allocations')} allocations, {leak.get('bytes')} bytes in "
             f"{leak.get('steps')} steps (every step but the last: {p['steps'] - 1} x {p['big_tensor_bytes']})")


def op_table(stats):
    return sorted((r["side"], r["name"], r["occurrences"], r["total_ns"]) for r in stats["rows"] if not r["is_idle"])


def same_ops(a, b, tolerance_ns):
    """Same rows (side, name, occurrences); times within tolerance_ns per occurrence."""
    return len(a) == len(b) and all(x[:3] == y[:3] and abs(x[3] - y[3]) <= tolerance_ns * x[2] for x, y in zip(a, b))


def check_tf1(c, cli_path, data):
    p = producer(data, "tf1_run_metadata")
    rm_path, tl_path = os.path.join(data, "tf1_run_metadata.pb"), os.path.join(data, "tf1_timeline.json")
    rm, tl = cli(cli_path, "info", rm_path), cli(cli_path, "info", tl_path)
    c.expect("tf1 op count", rm["slices"] == tl["slices"] == p["node_stats"],
             f"RunMetadata {rm['slices']} ops ({rm['format']}), timeline JSON {tl['slices']} ops "
             f"({tl['format']}), {p['producer']} recorded {p['node_stats']} node stats")
    a, b = op_table(cli(cli_path, "stats", rm_path)), op_table(cli(cli_path, "stats", tl_path))
    # The timeline JSON has whole microseconds (all_start_micros, all_end_rel_micros), the
    # RunMetadata nanoseconds: each op's time may differ by up to 1 us.
    c.expect("tf1 op table", same_ops(a, b, 1000),
             f"stats: {len(a)} rows from the RunMetadata, {len(b)} from the timeline JSON (times within 1 us per op)")
    c.expect("tf1 op stats", sum(r[2] for r in a) == p["node_stats"],
             f"stats counts {sum(r[2] for r in a)} op occurrences in the RunMetadata ({p['node_stats']} node stats)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("data")
    args = ap.parse_args()
    c = Checks()
    check_opens(c, args.cli, args.data)
    check_jax_steps(c, args.cli, args.data)
    check_tf_data(c, args.cli, args.data)
    check_tf1(c, args.cli, args.data)
    check_tf_memory(c, args.cli, args.data)
    if c.failed:
        print(f"FAIL: {len(c.failed)} check(s) failed")
        return 1
    print(f"OK ({len(c.gaps)} known gap(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
