#!/usr/bin/env python3
"""Checks that a producer's Chrome JSON of a run gives the numbers the run's native file
gives: tracescope-cli kernels / stats / overview --json on both, compared field by field.

  check_producer_roundtrip.py --cli CLI --xprof XSPACE...   write XProf-style trace JSON of each
        XSpace (xspace_to_xprof_json.py) and compare it with the XSpace
  check_producer_roundtrip.py --cli CLI --xprof-keep-internal XSPACE...   the same with the allocator
        events kept: memory numbers too
  check_producer_roundtrip.py --cli CLI --xprof-without-kernel-details XSPACE   the same JSON
        without kernel_details: the same kernels, and a note naming what is missing
  check_producer_roundtrip.py --cli CLI --xprof-tfdata-without-handoffs XSPACE   the JSON without
        tf.data's *Produce/*Consume events: tfdata names what is missing (the XSpace does not)
  check_producer_roundtrip.py --cli CLI --xprof-pair XSPACE TRACE_JSON   compare a trace JSON
        the profiler wrote (jax's perfetto_trace.json.gz) with the XSpace of the same run
  check_producer_roundtrip.py --cli CLI --tf1-gpu   the same on a GPU step made by
        make_tf1_gpu_run_metadata.py, and both against the numbers it was made with
  check_producer_roundtrip.py --cli CLI --tf1 RUNMETADATA TIMELINE_JSON   compare TF1 timeline
        JSON with the RunMetadata it was made from (TIMELINE_JSON "-" = write it with
        run_metadata_to_tf1_timeline.py)

Counts, names and steps must be equal. Times may differ by the rounding of the JSON: XProf's
ps-precision ts/dur are rounded to ns each (the XSpace importer rounds start and end), so by
1 ns per event; TF1's timeline has whole microseconds where RunMetadata may have ns.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def cli(binary, command, path):
    r = subprocess.run([binary, command, path, "--json"], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError("%s %s failed: %s" % (command, path, r.stderr.strip()))
    return json.loads(r.stdout)


class Checker:
    def __init__(self):
        self.failures = []

    def eq(self, what, a, b):
        if a != b:
            self.failures.append("%s: native %r, json %r" % (what, a, b))

    def near(self, what, a, b, tol):
        if abs(a - b) > tol:
            self.failures.append("%s: native %r, json %r (tolerance %r)" % (what, a, b, tol))


def numbers(binary, path):
    k = cli(binary, "kernels", path)
    s = cli(binary, "stats", path)
    o = cli(binary, "overview", path)
    return k, s, o


def summary(k, s, o):
    return {"kernels": k["kernel_count"], "kernel_rows": len(k["rows"]),
            "ops": sum(r["occurrences"] for r in s["rows"] if not r["is_idle"]),
            "op_rows": sum(1 for r in s["rows"] if not r["is_idle"]), "steps": o["step_count"]}


def compare(c, native, converted, per_event_ns):
    nk, ns, no = native
    jk, js, jo = converted
    c.eq("kernel_count", nk["kernel_count"], jk["kernel_count"])
    c.eq("kernel notes", nk["notes"], jk["notes"])
    tol = per_event_ns * max(1, nk["kernel_count"])
    c.near("total_kernel_ns", nk["total_kernel_ns"], jk["total_kernel_ns"], tol)
    # Kernels inside XLA command buffers are named by the HLO instruction each ran, which only the
    # XSpace's HLO tells; the JSON keeps the buffer as their op. Such files compare kernels by
    # (kernel, configuration) summed over ops, and device ops by their total only.
    buffered = any(str(r.get("op", "")).startswith("command_buffer_") for r in jk["rows"])
    if buffered:
        print("  (XLA command buffers: kernels compared without their op, device ops by their total)")
        key = lambda r: (r["name"], json.dumps(r.get("grid")), json.dumps(r.get("block")), r.get("registers_per_thread"))
    else:
        key = lambda r: (r["name"], r["op"], json.dumps(r.get("grid")), json.dumps(r.get("block")), r.get("registers_per_thread"))

    def merged(rows):
        out = {}
        for r in rows:
            m = out.setdefault(key(r), {"name": r["name"], "occurrences": 0, "total_ns": 0})
            m["occurrences"] += r["occurrences"]
            m["total_ns"] += r["total_ns"]
        return out

    krows = merged(jk["rows"])
    native_rows = merged(nk["rows"])
    c.eq("kernel rows", len(native_rows), len(krows))
    for k, r in native_rows.items():
        j = krows.get(k)
        if j is None:
            c.failures.append("kernel row missing in json: %r" % (k,))
            continue
        c.eq("kernel %s occurrences" % r["name"], r["occurrences"], j["occurrences"])
        c.near("kernel %s total_ns" % r["name"], r["total_ns"], j["total_ns"], per_event_ns * r["occurrences"])
    skey = lambda r: (r["side"], r["name"], r["type"])
    srows = {skey(r): r for r in js["rows"] if not r["is_idle"] and not (buffered and r["side"] == "device")}
    nrows = [r for r in ns["rows"] if not r["is_idle"] and not (buffered and r["side"] == "device")]
    c.eq("op rows", len(nrows), len(srows))
    total_ops = 0
    for r in nrows:
        total_ops += r["occurrences"]
        j = srows.get(skey(r))
        if j is None:
            c.failures.append("op row missing in json: %r" % (skey(r),))
            continue
        c.eq("op %r occurrences" % (skey(r),), r["occurrences"], j["occurrences"])
        c.near("op %r total_ns" % (skey(r),), r["total_ns"], j["total_ns"], per_event_ns * r["occurrences"])
    c.near("host_total_self_ns", ns["host_total_self_ns"] - ns["host_idle_ns"],
           js["host_total_self_ns"] - js["host_idle_ns"], per_event_ns * max(1, total_ops))
    c.near("device_total_self_ns", ns["device_total_self_ns"] - ns["device_idle_ns"],
           js["device_total_self_ns"] - js["device_idle_ns"], per_event_ns * max(1, total_ops))
    c.eq("device_type", no["environment"]["device_type"], jo["environment"]["device_type"])
    c.eq("device_count", no["environment"]["device_count"], jo["environment"]["device_count"])
    c.eq("step_count", no["step_count"], jo["step_count"])
    c.eq("step_source", no["step_source"], jo["step_source"])
    for a, b in zip(no["steps"], jo["steps"]):
        c.eq("step number", a["number"], b["number"])
        c.near("step %s duration_ns" % a["number"], a["duration_ns"], b["duration_ns"], 2 * per_event_ns)


# Keys the XProf JSON cannot match: allocator events are not in it (named by the notes).
MEMORY_KEYS = {"has_memory", "bytes_allocated", "allocations"}


def same_tree(c, what, a, b, ns_tol, skip=frozenset()):
    """Recursive comparison: equal structure, strings and counts; *_ns numbers within ns_tol,
    percentages within 0.5 points."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in ("warnings", "notes") or k in skip:
                continue
            if k not in a or k not in b:
                c.failures.append("%s.%s: only in %s" % (what, k, "native" if k in a else "json"))
                continue
            same_tree(c, what + "." + k, a[k], b[k], ns_tol, skip)
    elif isinstance(a, list) and isinstance(b, list):
        if skip:  # rows that only allocations make (e.g. the "(no op)" scope)
            only_memory = lambda x: (isinstance(x, dict) and x.get("occurrences") == 0 and x.get("bytes_allocated", 0) > 0
                                     and not x.get("device_ns") and not x.get("total_ns"))
            a = [x for x in a if not only_memory(x)]
            b = [x for x in b if not only_memory(x)]
        if len(a) != len(b):
            c.failures.append("%s: %d entries native, %d json (%r / %r)" % (
                what, len(a), len(b), [x.get("path", x.get("name")) for x in a if isinstance(x, dict)][:5],
                [x.get("path", x.get("name")) for x in b if isinstance(x, dict)][:5]))
            return
        named = lambda l: all(isinstance(x, dict) and "name" in x for x in l)
        if named(a) and named(b):
            # Rows sorted by a time: ties may fall either way after rounding; match by name.
            key = lambda x: x.get("path", x["name"])
            a, b = sorted(a, key=key), sorted(b, key=key)
        for i, (x, y) in enumerate(zip(a, b)):
            same_tree(c, "%s[%d]" % (what, i), x, y, ns_tol, skip)
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        key = what.rsplit(".", 1)[-1]
        if key.endswith("_ns") or "_ns[" in key:
            tol = ns_tol
        elif "percent" in key:
            tol = 0.5
        else:
            tol = 1e-9 * max(abs(a), abs(b))
        if abs(a - b) > tol:
            c.failures.append("%s: native %r, json %r" % (what, a, b))
    elif a != b:
        c.failures.append("%s: native %r, json %r" % (what, a, b))


# Keys of the step breakdown. On a CPU-only XSpace a step's host events are XProf's step group
# (_r/_p/_c stats); XProf's trace JSON drops those stats as internal, so there the host events
# in the step's window count (the overview's notes say so), and these keys may differ; so may the
# step set, which leaves out the steps without host compute.
BREAKDOWN_KEYS = {"wait_input_ns", "wait_percent", "wait_ns", "summary", "verdict", "step_set", "in_step_set",
                  "input_percent"}


def compare_pages(c, binary, native_path, json_path, ns_tol, memory_in_json, internal_events=False):
    """Scopes and Input Pipeline pages; with internal_events (an exporter that keeps the XSpace's
    allocator and tf.data hand-off events, whose stats come as strings) Memory Profile and tf.data
    too. Without them tf.data's critical path cannot cross threads, and differs."""
    skip = frozenset() if memory_in_json else MEMORY_KEYS
    grouped = lambda o: "grouped" in o["step_rule"]
    if grouped(cli(binary, "overview", native_path)) and not grouped(cli(binary, "overview", json_path)):
        print("  (CPU-only XSpace: its step groups need the _r/_p/_c stats the JSON drops; breakdown keys "
              "not compared: %s)" % ", ".join(sorted(BREAKDOWN_KEYS)))
        skip = frozenset(skip) | BREAKDOWN_KEYS
    commands = ("scopes", "input-pipeline") + (("memory", "tfdata") if internal_events else ())
    # Ops inside XLA command buffers are named from the XSpace's HLO, which the JSON lacks: the
    # Scopes page, a tree of op names, cannot agree there.
    if any(str(r.get("op", "")).startswith("command_buffer_") for r in cli(binary, "kernels", json_path)["rows"]):
        print("  (XLA command buffers: the Scopes page's op names need the XSpace's HLO; not compared)")
        commands = tuple(x for x in commands if x != "scopes")
    for command in commands:
        same_tree(c, command, cli(binary, command, native_path), cli(binary, command, json_path), ns_tol, skip)


def main(argv):
    binary = argv[argv.index("--cli") + 1]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ("--xprof", "--xprof-keep-internal"):
            if mode not in argv:
                continue
            # --xprof-keep-internal: as an exporter that keeps the allocator events; then the
            # memory numbers must match as well.
            keep = mode == "--xprof-keep-internal"
            import xspace_to_xprof_json as gen
            for path in argv[argv.index(mode) + 1:]:
                if path.startswith("--"):
                    break
                out = os.path.join(tmp, os.path.basename(path) + ".trace.json.gz")
                with open(path, "rb") as f:
                    text = gen.dumps(gen.convert(f.read(), keep_internal=keep))
                import gzip
                with gzip.open(out, "wt") as f:
                    f.write(text)
                c = Checker()
                info = cli(binary, "info", out)
                c.eq("producer", "xprof", info["producer"])
                # Events that overlap partially in the XSpace itself (JAX's python thread, GPU
                # streams) go to overflow lanes with a warning, as with any Chrome JSON: the
                # only warning allowed.
                c.eq("warnings", [], [w for w in info["warnings"] if "partially overlap" not in w["message"]])
                native, converted = numbers(binary, path), numbers(binary, out)
                compare(c, native, converted, 1)
                compare_pages(c, binary, path, out, 1000, keep, internal_events=keep)
                print("%-48s native %s json %s %s" % (os.path.basename(path), summary(*native), summary(*converted),
                                                      "OK" if not c.failures else "FAILED"))
                for f_ in c.failures[:20]:
                    print("   ", f_)
                failures += len(c.failures)
        if "--xprof-without-kernel-details" in argv:
            # A trace JSON whose exporter dropped kernel_details: the same kernels (the stream
            # line says they are kernels), and a note that launch parameters are unknown.
            import gzip
            import xspace_to_xprof_json as gen
            path = argv[argv.index("--xprof-without-kernel-details") + 1]
            out = os.path.join(tmp, "no_details.trace.json.gz")
            with open(path, "rb") as f:
                text = gen.dumps(gen.convert(f.read(), drop_stats={"kernel_details"}))
            with gzip.open(out, "wt") as f:
                f.write(text)
            c = Checker()
            nk, jk = cli(binary, "kernels", path), cli(binary, "kernels", out)
            c.eq("kernel_count", nk["kernel_count"], jk["kernel_count"])
            c.eq("total_kernel_ns", nk["total_kernel_ns"], jk["total_kernel_ns"])
            c.eq("native notes", [], nk["notes"])
            if not any("kernel_details" in n for n in jk["notes"]):
                c.failures.append("no note names the missing kernel_details: %r" % jk["notes"])
            print("%-48s without kernel_details: kernels %d/%d, notes %r %s" % (
                os.path.basename(path), nk["kernel_count"], jk["kernel_count"], jk["notes"],
                "OK" if not c.failures else "FAILED"))
            for f_ in c.failures[:20]:
                print("   ", f_)
            failures += len(c.failures)
        if "--xprof-tfdata-without-handoffs" in argv:
            # XProf's JSON export drops the TraceMe producer/consumer events: the critical path
            # cannot cross threads (the bottleneck may differ), and tfdata says so in its notes,
            # text output included; with the events kept, and on the XSpace, no note.
            import gzip
            import xspace_to_xprof_json as gen
            path = argv[argv.index("--xprof-tfdata-without-handoffs") + 1]
            c = Checker()
            native = cli(binary, "tfdata", path)
            c.eq("native has_tf_data", True, native["summary"]["has_tf_data"])
            c.eq("native notes", [], native["notes"])
            for keep in (False, True):
                out = os.path.join(tmp, "tfdata_%s.trace.json.gz" % ("kept" if keep else "dropped"))
                with open(path, "rb") as f:
                    text = gen.dumps(gen.convert(f.read(), keep_internal=keep))
                with gzip.open(out, "wt") as f:
                    f.write(text)
                j = cli(binary, "tfdata", out)
                c.eq("json has_tf_data (keep_internal=%s)" % keep, True, j["summary"]["has_tf_data"])
                named = [n for n in j["notes"] if "Produce" in n and ".xplane.pb" in n]
                if keep:
                    c.eq("notes with the hand-offs kept", [], j["notes"])
                    c.eq("bottlenecks with the hand-offs kept", [b["iterator_long_name"] for b in native["bottlenecks"]],
                         [b["iterator_long_name"] for b in j["bottlenecks"]])
                else:
                    if len(named) != 1:
                        c.failures.append("no note names the missing hand-off events: %r" % j["notes"])
                    r = subprocess.run([binary, "tfdata", out], capture_output=True, text=True, timeout=300)
                    if not r.stdout.startswith("Note: ") or ".xplane.pb" not in r.stdout.splitlines()[0]:
                        c.failures.append("text output does not start with the note: %r" % r.stdout[:200])
                    dropped_bottleneck = [b["iterator_name"] for b in j["bottlenecks"]]
                    dropped_notes = len(named)
            print("%-48s tfdata without hand-offs: bottleneck native %r json %r, notes %d %s" % (
                os.path.basename(path), [b["iterator_name"] for b in native["bottlenecks"]], dropped_bottleneck,
                dropped_notes, "OK" if not c.failures else "FAILED"))
            for f_ in c.failures[:20]:
                print("   ", f_)
            failures += len(c.failures)
        if "--xprof-pair" in argv:
            i = argv.index("--xprof-pair")
            native_path, json_path = argv[i + 1], argv[i + 2]
            c = Checker()
            info = cli(binary, "info", json_path)
            c.eq("producer", "xprof", info["producer"])
            c.eq("warnings", [], [w for w in info["warnings"] if "partially overlap" not in w["message"]])
            native, converted = numbers(binary, native_path), numbers(binary, json_path)
            compare(c, native, converted, 1)
            compare_pages(c, binary, native_path, json_path, 1000, False)
            print("%-48s native %s json %s %s" % (os.path.basename(json_path), summary(*native), summary(*converted),
                                                  "OK" if not c.failures else "FAILED"))
            for f_ in c.failures[:20]:
                print("   ", f_)
            failures += len(c.failures)
        tf1_pairs = []
        if "--tf1" in argv:
            i = argv.index("--tf1")
            tf1_pairs.append((argv[i + 1], argv[i + 2], None))
        if "--tf1-gpu" in argv:
            # A GPU step as TF1's GPU tracer records it (make_tf1_gpu_run_metadata.py), with
            # the numbers it was made with.
            rm = os.path.join(tmp, "tf1_gpu.pb")
            expected_path = os.path.join(tmp, "tf1_gpu.expected.json")
            subprocess.run([sys.executable, os.path.join(HERE, "make_tf1_gpu_run_metadata.py"), rm, expected_path],
                           check=True)
            with open(expected_path) as f:
                tf1_pairs.append((rm, "-", json.load(f)))
        for rm, timeline, expected in tf1_pairs:
            if timeline == "-":
                import run_metadata_to_tf1_timeline as tgen
                timeline = os.path.join(tmp, os.path.basename(rm) + ".timeline.json")
                with open(rm, "rb") as f:
                    text = tgen.dumps(tgen.convert(f.read()))
                with open(timeline, "w") as f:
                    f.write(text)
            c = Checker()
            c.eq("producer", "tf1-timeline", cli(binary, "info", timeline)["producer"])
            native, converted = numbers(binary, rm), numbers(binary, timeline)
            compare(c, native, converted, 1000)
            # Sums over all ops: 1 us of rounding per op at most.
            compare_pages(c, binary, rm, timeline, 1000 * max(1, summary(*native)["ops"]), True)
            if expected:
                for side, (k, s_, o) in (("native", native), ("json", converted)):
                    c.eq(side + " kernels", expected["kernels"], k["kernel_count"])
                    c.eq(side + " kernel_ns", expected["kernel_ns"], k["total_kernel_ns"])
                    dev = {r["name"]: r["total_ns"] for r in s_["rows"] if r["side"] == "device" and not r["is_idle"]}
                    c.eq(side + " device ops", expected["device_ops"], dev)
                    host = [r for r in s_["rows"] if r["side"] == "host" and not r["is_idle"]]
                    c.eq(side + " executor ops", expected["executor_ops"], sum(r["occurrences"] for r in host))
                    # stream:all and memcpy are one GPU, not two devices idle in turn.
                    c.eq(side + " device idle", expected["device_idle_ns"], s_["device_idle_ns"])
                    c.eq(side + " device count", 1, s_["device_count"])
            print("%-48s native %s json %s %s" % (os.path.basename(rm), summary(*native), summary(*converted),
                                                  "OK" if not c.failures else "FAILED"))
            for f_ in c.failures[:20]:
                print("   ", f_)
            failures += len(c.failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
