#!/usr/bin/env python3
"""Call stacks recomputed with the standard library over raw Chrome/Kineto JSON or XSpace files and
compared with `tracescope-cli flame`: the folded stacks of every metric (self, wall, device, count),
with and without a range, (JSON) --by-thread and --under one frame name, and the samples of the gzipped pprof profile, to the
nanosecond.

    flame_exact.py --cli TRACESCOPE_CLI TRACE.json[.gz]|TRACE.xplane.pb...

The rules, from the flame graph's definition: frames are the complete ("X") events of host threads
(a process is a device when any event in it is a kernel, copy, memset or GPU annotation);
Kineto's profiler spans (category "Trace") are not frames. XSpace: the lines of non-device planes
are threads, derived lines are skipped, zero-length events are instants (see xspace_events). Per
thread, events in (start, longer first) order, in file order on ties; an event's parent is the top
of a stack after popping every open event that does not wholly contain it. A range keeps the events
that overlap it, each counting its part inside it. Self time: the part minus the union of the
children's parts. Device time: a kernel, copy or memset counts its duration for the host event with
the same "correlation" arg (XSpace: correlation_id stat). A stack's values are summed over the events
at exactly that name path. JSON times: ts and dur as exact decimals, ns = int(us * 1000),
end = ns(ts) + ns(dur). Exit 77 (CTest's skip) when a file is missing, 1 under CI=true.
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xspace_kernels  # noqa: E402  (an XSpace's planes and events, by hand)
import xspace_wire  # noqa: E402  (the protobuf wire format by hand)

DEVICE = {"kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset", "gpu_user_annotation",
          "mtia_ccp_events"}
ACTIVITY = {"kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset", "mtia_ccp_events"}


def ns(us):
    return int(Decimal(us) * 1000)


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def frame(name):
    return name.replace(";", ":").replace("\n", " ").replace("\r", " ")


def thread_names(events):
    procs, threads = {}, {}
    for e in events:
        if e.get("ph") != "M":
            continue
        if e.get("name") == "process_name":
            procs[e.get("pid")] = e.get("args", {}).get("name", "")
        elif e.get("name") == "thread_name":
            threads[(e.get("pid"), e.get("tid"))] = e.get("args", {}).get("name", "")
    return procs, threads


def chrome_events(events):
    """Complete events as (thread, start, end, name, category, correlation, device activity), file order."""
    complete = [e for e in events if e.get("ph") == "X" and "ts" in e and "dur" in e]
    device_pids = {e.get("pid") for e in complete if e.get("cat") in DEVICE}
    out = []
    for e in complete:
        s = ns(e["ts"])
        out.append({"thread": (e.get("pid"), e.get("tid")), "start": s, "end": s + ns(e["dur"]),
                    "name": e.get("name", ""), "cat": e.get("cat"),
                    "corr": (e.get("args") or {}).get("correlation"),
                    "device": e.get("pid") in device_pids, "activity": e.get("cat") in ACTIVITY})
    return out


def xspace_events(path):
    """An XSpace's events in the same shape: host planes' lines are threads, device planes' events
    with a correlation_id are device activities; zero-length events are instants, not slices. Times: ps from the line's timestamp_ns, start and
    duration each rounded to the nearest ns (halves up). Names: the stat long_name, else the event
    metadata's name."""
    buf = memoryview(open(path, "rb").read())
    out = []
    for n, _, v in xspace_wire.fields(buf):
        if n != 1:
            continue
        plane = xspace_kernels.parse_plane(v)
        device = plane["name"].startswith("/device:")
        for lb in plane["lines"]:
            lid, lname, ts, evs = 0, "", 0, []
            for m, _, w in xspace_wire.fields(lb):
                if m == 1:
                    lid = xspace_wire.signed64(w)
                elif m == 2:
                    lname = xspace_wire.text(w)
                elif m == 3:
                    ts = xspace_wire.signed64(w)
                elif m == 4:
                    evs.append(w)
            derived = xspace_kernels.DERIVED_BASE <= lid <= xspace_kernels.DERIVED_BASE + 289 or \
                lname in xspace_kernels.DERIVED_NAMES
            if derived:
                continue
            for ev in evs:
                name, _, dur, offset, stats = xspace_kernels.event_fields(ev, plane)
                if offset is None or dur == 0:  # aggregated events; zero-length ones are instants
                    continue
                start = xspace_kernels.ps_to_ns(ts * 1000 + offset)
                out.append({"thread": (plane["name"], lid), "start": start,
                            "end": start + xspace_kernels.ps_to_ns(dur),
                            "name": stats.get("long_name") or name, "cat": None,
                            "corr": stats.get("correlation_id"), "device": device,
                            "activity": device})
    return out


def stacks(evs_all, rng=None, under=None):
    """Per (thread, name path): self, wall, device, count. With `under` (a frame name) only the
    events of that name and what they enclose count, each path starting at the outermost one."""
    launched = {}
    for e in evs_all:
        if e["activity"] and e["corr"] is not None:
            launched.setdefault(e["corr"], []).append(e["end"] - e["start"])
    by_thread = {}
    for i, e in enumerate(evs_all):
        if e["device"] or e["cat"] == "Trace":
            continue
        s, end = e["start"], e["end"]
        if rng and not (s < rng[1] and (end > rng[0] or (s == end and s >= rng[0]))):
            continue
        by_thread.setdefault(e["thread"], []).append((s, -end, i, e))
    out = {}
    for key, evs in by_thread.items():
        evs.sort(key=lambda t: (t[0], t[1], t[2]))
        open_ = []  # [start, end, clip_start, clip_end, path, covered, watermark]

        def close():
            f = open_.pop()
            if f[4] is None:
                return
            self_ = max(0, f[3] - f[2] - f[5])
            out[(key, f[4])][0] += self_

        for s, negend, _, e in evs:
            end = -negend
            while open_ and not (open_[-1][0] <= s and end <= open_[-1][1]):
                close()
            cs, ce = (max(s, rng[0]), min(end, rng[1])) if rng else (s, end)
            inside = open_ and open_[-1][4] is not None
            if under is not None and not inside and frame(e["name"]) != under:
                open_.append([s, end, cs, ce, None, 0, cs])  # open, not counted
                continue
            part = max(0, ce - cs)
            if open_ and open_[-1][4] is not None:
                p = open_[-1]
                frm = max(cs, p[6])
                if ce > frm:
                    p[5] += ce - frm
                p[6] = max(p[6], ce)
            path = (open_[-1][4] if inside else ()) + (frame(e["name"]),)
            v = out.setdefault((key, path), [0, 0, 0, 0])
            v[1] += part
            v[3] += 1
            if e["corr"] is not None and not e["activity"]:
                v[2] += sum(launched.get(e["corr"], []))
            open_.append([s, end, cs, ce, path, 0, cs])
        while open_:
            close()
    return out


def folded(out, metric, names=None):
    index = {"self": 0, "wall": 1, "device": 2, "count": 3}[metric]
    merged = {}
    for (key, path), v in out.items():
        if names is not None:
            pid, tid = key
            # Without metadata the importer names them "Process PID" and "Thread TID".
            proc = names[0].get(pid, f"Process {pid}")
            thread = names[1].get(key, f"Thread {tid}")
            path = (frame(f"{proc}: {thread}"),) + path
        merged[";".join(path)] = merged.get(";".join(path), 0) + v[index]
    return {k: v for k, v in merged.items() if v > 0}


def run_folded(cli, path, extra):
    r = subprocess.run([cli, "flame", path, "--folded"] + extra, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"flame failed on {path}: {r.stderr}")
    got = {}
    for line in r.stdout.splitlines():
        stack, _, value = line.rpartition(" ")
        if stack in got:
            raise SystemExit(f"{path}: stack twice in --folded: {stack}")
        got[stack] = int(value)
    return got


def read_pprof(path):
    """Decodes the gzipped profile.proto: per stack (root first, by function system names) its values."""
    with gzip.open(path, "rb") as f:
        buf = f.read()
    strings, samples, locations, functions, types = [], [], {}, {}, []

    def packed(v, wt):
        if wt == 0:
            return [v]
        vals, pos = [], 0
        while pos < len(v):
            x, pos = xspace_wire.varint(v, pos)
            vals.append(x)
        return vals

    for num, wt, v in xspace_wire.fields(buf):
        if num == 6:
            strings.append(bytes(v).decode("utf-8"))
        elif num == 1:
            types.append({n: x for n, _, x in xspace_wire.fields(v)})
        elif num == 2:
            ids, vals = [], []
            for n, w, x in xspace_wire.fields(v):
                if n == 1:
                    ids += packed(x, w)
                elif n == 2:
                    vals += [xspace_wire.signed64(y) for y in packed(x, w)]
            samples.append((ids, vals))
        elif num == 4:
            loc = {"lines": []}
            for n, w, x in xspace_wire.fields(v):
                if n == 1:
                    loc["id"] = x
                elif n == 4:
                    loc["lines"].append({k: y for k, _, y in xspace_wire.fields(x)})
            locations[loc["id"]] = loc
        elif num == 5:
            fn = {k: y for k, _, y in xspace_wire.fields(v)}
            functions[fn[1]] = fn
    if not strings or strings[0] != "":
        raise SystemExit(f"{path}: string_table[0] is not empty")
    type_names = [strings[t.get(1, 0)] for t in types]
    result = {}
    for ids, vals in samples:
        names = [strings[functions[locations[i]["lines"][0][1]].get(3, 0)] for i in ids]
        key = ";".join(frame(n) for n in reversed(names))
        if key in result:
            raise SystemExit(f"{path}: two samples for one stack: {key}")
        result[key] = dict(zip(type_names, vals))
    return result


def compare(label, want, got):
    bad = []
    for k in sorted(set(want) | set(got)):
        if want.get(k, 0) != got.get(k, 0):
            bad.append(f"  {k[:160]}: expected {want.get(k, 0)}, got {got.get(k, 0)}")
    if bad:
        print(f"{label}: {len(bad)} stacks differ")
        print("\n".join(bad[:10]))
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    missing = [p for p in a.traces if not os.path.exists(p)]
    if missing:
        print("missing: " + ", ".join(missing))
        return 1 if os.environ.get("CI") == "true" else 77
    failures, figures = 0, 0
    for path in a.traces:
        xspace = path.endswith(".xplane.pb")
        events = [] if xspace else load(path)
        evs = xspace_events(path) if xspace else chrome_events(events)
        out = stacks(evs)
        names = thread_names(events)
        for metric in ("self", "wall", "device", "count"):
            want = folded(out, metric)
            failures += compare(f"{path} --metric {metric}", want, run_folded(a.cli, path, ["--metric", metric]))
            figures += len(want)
        if not xspace:  # thread names as the Chrome JSON's metadata gives them
            want = folded(out, "self", names)
            failures += compare(f"{path} --by-thread", want, run_folded(a.cli, path, ["--by-thread"]))
            figures += len(want)
        # A range that cuts slices: the middle third of the host events. The CLI's times are relative
        # to the trace's origin (info --json's origin_ns, on the file's clock).
        info = subprocess.run([a.cli, "info", path, "--json"], capture_output=True, text=True)
        origin = json.loads(info.stdout)["origin_ns"]
        starts = sorted(e["start"] for e in evs)
        if starts:
            lo, hi = starts[0], starts[-1]
            rng = (lo + (hi - lo) // 3, lo + 2 * (hi - lo) // 3)
            ranged = stacks(evs, rng)
            flag = f"{rng[0] - origin}:{rng[1] - origin}"
            for metric in ("self", "device"):
                want = folded(ranged, metric)
                failures += compare(f"{path} --range {flag} --metric {metric}", want,
                                    run_folded(a.cli, path, ["--range", flag, "--metric", metric]))
                figures += len(want)
        # A set of slices: the frames named like the heaviest stack's second frame, and what they enclose.
        deep = [(v[1], path) for (_, path), v in out.items() if len(path) >= 2]
        if deep:
            name = max(deep)[1][1]
            want = folded(stacks(evs, under=name), "self")
            pattern = "^" + re.escape(name) + "$"
            failures += compare(f"{path} --under {pattern}", want, run_folded(a.cli, path, ["--under", pattern]))
            figures += len(want)
        with tempfile.TemporaryDirectory() as tmp:
            out_path = os.path.join(tmp, "profile.pb.gz")
            r = subprocess.run([a.cli, "flame", path, "--pprof", out_path], capture_output=True, text=True)
            if r.returncode != 0:
                raise SystemExit(f"flame --pprof failed on {path}: {r.stderr}")
            samples = read_pprof(out_path)
            want_wall, want_device = folded(out, "self"), folded(out, "device")
            failures += compare(f"{path} pprof wall", want_wall, {k: v.get("wall", 0) for k, v in samples.items()})
            failures += compare(f"{path} pprof device", want_device,
                                {k: v.get("device", 0) for k, v in samples.items()})
            figures += len(want_wall) + len(want_device)
        print(f"{path}: {len(out)} stacks checked")
    print(f"{figures} figures compared, {failures} comparisons differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
