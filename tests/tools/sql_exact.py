#!/usr/bin/env python3
"""`tracescope-cli query` checked against plain SQLite: each raw trace is read here with the standard
library into in-memory tables of its own, a set of queries runs on both sides, and every answer row
must be equal (names, counts, nanosecond sums, arg sums, counter values).

    sql_exact.py --cli TRACESCOPE_CLI TRACE.json[.gz]|TRACE.xplane.pb|RUN_METADATA.pb...

Chrome/Kineto JSON, by the Trace Event Format:
  * Slices (all on thread tracks): complete ("X") events, and B/E pairs. Per thread, in ts order
    (file order on ties), an E closes the latest open B whatever its name; an E with none open is
    dropped; a B never closed lasts to the trace's end (the latest slice end, B, E, instant or
    counter sample; flow events do not count). An "X" without a numeric dur (a trace cut short
    writes them; the format requires one) is 0 long, as TraceScope reads it and warns. A nameless
    event's name is "". Times: ts and dur are exact decimal microseconds, ns = us * 1000 rounded
    to the nearest integer, halves away from zero (as the format's readers round sub-ns digits;
    Catapult's fuchsia trace has them), end = ns(ts) + ns(dur).
  * A thread is (pid, tid), an integer and a decimal string being the same id: Kineto writes tid
    25738 on a flow event and "25738" on the slices of that thread.
  * Flows (v1 only: a file with v2 fields, bind_id or flow_in/flow_out, skips the flow query): "s",
    "t" and "f" events keyed by (cat, name, id), in ts order (file order on ties). An "s" opens a
    chain; each "t" or "f" while one is open is an arrow from the chain's last point to it, and an
    "f" closes the chain; a "t" or "f" with none open is dropped. A point binds to a slice of its
    own thread: "s", "t" and an "f" with "bp":"e" to the deepest slice enclosing it (start <= ts <=
    end; of two at one depth meeting at ts, the one starting there); any other "f" to the first
    slice starting at or after it (the outermost at that start). An arrow with an end bound to no
    slice is dropped.
  * Counters: a "C" event gives one sample per numeric arg (not bools, not strings); its series
    belongs to the pid and is named "NAME KEY", or "NAME[ID] KEY" when the event has an id (the
    format keys a counter by name and id).
  * Args: the event's "args" as JSON, so extract_arg(arg_set_id, 'grid[0]') is json_extract(args,
    '$.grid[0]').

TF1 RunMetadata (.pb, or a bare StepStats): one slice per NodeExecStats on its device's process;
only the count and the duration sum per device are compared (node names and lanes follow TF1's
timeline labels, which tests/tools/run_metadata_to_tf1_timeline.py checks elsewhere).

XSpace (.xplane.pb, read with xspace_wire.py and xspace_kernels.py): every line of every plane is a
thread (process: the plane, by name, as the CLI numbers planes itself; tid: the line id), derived
lines (Steps, TensorFlow Ops, ...) included, as XProf's trace viewer shows them. A slice is an event
with an offset and duration > 0 (shorter ones are instants); start and duration are each ps rounded
to the nearest ns (halves up), the start from the line's timestamp_ns. Its name is the event
metadata's display_name when not empty, else its name.

Queries, each plain SQL on both sides (the CLI's times are relative to `info --json`'s origin_ns:
the window's bounds are shifted by it and its rows shifted back):
  names     per slice name on thread tracks: count, sum(dur)
  window    the thread with most slices (JSON: with an integer pid and tid): its slices (ts, dur,
            name) starting in the middle third of [its first start, its last end], by ts
  flows     per (name of the slice a flow leaves, name of the slice it enters): count; once with
            the columns renamed and once as written, both called "name", which --json must keep
  kernels   JSON: per name of the slices of category kernel (old Kineto: Kernel): count, sum of
            the "correlation" arg, sum of "grid[0]"; XSpace: per name of the slices of device
            planes ("/device:..."): count, sum(dur), sum of the correlation_id stat
  counters  JSON: the samples' count and sum; per (pid, counter track name): count, sum, min, max

Prints "ok" or the first differing rows per file and query; exit 1 on any difference. Exit 77
(CTest's skip) when a file is missing, 1 under CI=true.
"""
import argparse
import bisect
import gzip
import json
import os
import sqlite3
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_ops_sums  # noqa: E402  (torch.profiler's key_averages from the raw JSON)
import xspace_kernels  # noqa: E402  (an XSpace's planes and events, by hand)
import xspace_wire  # noqa: E402  (the protobuf wire format by hand)

KERNEL_CATS = ("kernel", "Kernel")  # Kineto's category for kernels (older releases capitalised it)


def ns(us):
    return int((Decimal(us) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def as_int(v):
    """An id the file gives as an integer or a decimal string, else None."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and v.lstrip("-").isdigit():
        return int(v)
    return None


def thread_key(pid, tid):
    # Kineto writes one thread's tid as 25738 on its flow events and "25738" on its slices.
    return tuple(str(v) if as_int(v) is None else as_int(v) for v in (pid, tid))


def number(v):
    return isinstance(v, (int, Decimal)) and not isinstance(v, bool)


def args_json(args):
    # Decimals become floats only for SQLite's JSON functions; the queried args are integers.
    return json.dumps(args if isinstance(args, dict) else {}, default=float)


def new_db():
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE slices(id INTEGER PRIMARY KEY, pid, tid, pid_int INTEGER, tid_int INTEGER,"
               " ts INTEGER, dur INTEGER, name TEXT, cat TEXT, args TEXT, device INTEGER, corr INTEGER)")
    db.execute("CREATE TABLE flows(out_id INTEGER, in_id INTEGER)")
    db.execute("CREATE TABLE counters(pid, track TEXT, ts INTEGER, value REAL)")
    return db


# Chrome JSON.
def chrome_db(events):
    """The slices, flows and counter samples of a Chrome JSON trace, as the module docstring says."""
    slices = []  # [pid, tid, start, end, name, cat, args, file index]
    open_b = {}
    times = []
    be = [(i, e) for i, e in enumerate(events) if e.get("ph") in ("B", "E") and "ts" in e]
    be.sort(key=lambda t: (ns(t[1]["ts"]), t[0]))
    for i, e in enumerate(events):
        ph = e.get("ph")
        if ph == "X" and "ts" in e:
            s = ns(e["ts"])
            end = s + ns(e["dur"]) if number(e.get("dur")) else s
            slices.append([e.get("pid"), e.get("tid"), s, end, e.get("name", ""), e.get("cat", ""),
                           e.get("args"), i])
            times.append(end)
        elif ph in ("i", "I", "C") and "ts" in e:
            times.append(ns(e["ts"]))
    for i, e in be:
        t = ns(e["ts"])
        times.append(t)
        stack = open_b.setdefault(thread_key(e.get("pid"), e.get("tid")), [])
        if e["ph"] == "B":
            stack.append([e.get("pid"), e.get("tid"), t, None, e.get("name", ""), e.get("cat", ""),
                          e.get("args"), i])
        elif stack:
            b = stack.pop()
            b[3] = t
            slices.append(b)
    end_of_trace = max(times) if times else 0
    for stack in open_b.values():
        for b in stack:
            b[3] = end_of_trace
            slices.append(b)
    slices.sort(key=lambda s: s[7])

    db = new_db()
    for n, (pid, tid, s, end, name, cat, args, _) in enumerate(slices):
        db.execute("INSERT INTO slices VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                   (n, str(pid), str(tid), as_int(pid), as_int(tid), s, end - s, name, cat or "",
                    args_json(args), 0, None))

    # Flow binding: per thread, the slices by (start, longer first, file order) with their depth.
    threads = {}
    for n, sl in enumerate(slices):
        threads.setdefault(thread_key(sl[0], sl[1]), []).append((sl[2], -sl[3], sl[7], n))
    index = {}
    for key, lst in threads.items():
        lst.sort()
        depth, stack = [], []
        for s, negend, _, _ in lst:
            while stack and not (stack[-1][0] <= s and -negend <= stack[-1][1]):
                stack.pop()
            depth.append(len(stack))
            stack.append((s, -negend))
        reach, far = [], None  # reach[i]: the latest end among slices 0..i, to stop a backward walk
        for t in lst:
            far = -t[1] if far is None else max(far, -t[1])
            reach.append(far)
        index[key] = ([t[0] for t in lst], [-t[1] for t in lst], depth, [t[3] for t in lst], reach)

    def enclosing(key, t):
        if key not in index:
            return None
        starts, ends, depth, ids, reach = index[key]
        best = None  # ((depth, start), slice) of the best so far
        i = bisect.bisect_right(starts, t) - 1
        while i >= 0 and reach[i] >= t:  # below that, every slice ended before t
            if ends[i] >= t:
                rank = (depth[i], starts[i])
                if best is None or rank > best[0]:
                    best = (rank, ids[i])
            i -= 1
        return best[1] if best else None

    def next_after(key, t):
        if key not in index:
            return None
        starts, _, _, ids, _ = index[key]
        i = bisect.bisect_left(starts, t)
        return ids[i] if i < len(starts) else None

    flow_events = [(ns(e["ts"]), i, e) for i, e in enumerate(events)
                   if e.get("ph") in ("s", "t", "f") and "ts" in e and "id" in e]
    flow_events.sort(key=lambda t: (t[0], t[1]))
    chains = {}
    for t, _, e in flow_events:
        key = (e.get("cat"), e.get("name"), str(e["id"]))
        thread = thread_key(e.get("pid"), e.get("tid"))
        if e["ph"] == "f" and e.get("bp") != "e":
            here = next_after(thread, t)
        else:
            here = enclosing(thread, t)
        if e["ph"] == "s":
            chains[key] = here
            continue
        if key not in chains:
            continue  # no open "s": dropped
        prev = chains[key]
        if prev is not None and here is not None:
            db.execute("INSERT INTO flows VALUES (?,?)", (prev, here))
        if e["ph"] == "f":
            del chains[key]
        else:
            chains[key] = here

    for e in events:
        if e.get("ph") != "C" or "ts" not in e or not isinstance(e.get("args"), dict):
            continue
        base = e.get("name", "") + (f"[{e['id']}]" if "id" in e else "")
        for k, v in e["args"].items():
            if number(v):
                db.execute("INSERT INTO counters VALUES (?,?,?,?)",
                           (as_int(e.get("pid")), f"{base} {k}", ns(e["ts"]), float(v)))
    return db


# XSpace.
def xspace_db(path):
    """The slices of an XSpace's lines, as the module docstring says."""
    db = new_db()
    buf = memoryview(open(path, "rb").read())
    n = 0
    for f, _, v in xspace_wire.fields(buf):
        if f != 1:
            continue
        plane = xspace_kernels.parse_plane(v)
        device = plane["name"].startswith("/device:")
        for lb in plane["lines"]:
            lid, ts, evs = 0, 0, []
            for m, _, w in xspace_wire.fields(lb):
                if m == 1:
                    lid = xspace_wire.signed64(w)
                elif m == 3:
                    ts = xspace_wire.signed64(w)
                elif m == 4:
                    evs.append(w)
            for ev in evs:
                name, display, dur, offset, stats = xspace_kernels.event_fields(ev, plane)
                if offset is None or dur <= 0:
                    continue
                start = xspace_kernels.ps_to_ns(ts * 1000 + offset)
                corr = stats.get("correlation_id")
                db.execute("INSERT INTO slices VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                           (n, plane["name"], lid, None, lid, start, xspace_kernels.ps_to_ns(dur),
                            display or name, "", "{}", int(device), corr if isinstance(corr, int) else None))
                n += 1
    return db


def run_metadata_db(path):
    """The nodes of a TF1 RunMetadata (or bare StepStats) as slices of their device: start
    all_start_nanos (else all_start_micros x 1000), duration all_end_rel_nanos (else
    all_end_rel_micros x 1000), the wire format walked by hand (NodeExecStats fields 2, 5, 13, 16)."""
    db = new_db()
    data = memoryview(open(path, "rb").read())
    n = 0
    for device, nodes in run_metadata_devices(data):
        for node in nodes:
            db.execute("INSERT INTO slices VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                       (n, device, 0, None, 0, node[0], node[1], "", "", "{}", 0, None))
            n += 1
    return db


def run_metadata_devices(data):
    """[(device, [(start ns, duration ns)])] of RunMetadata (StepStats is its field 1) or StepStats."""
    def nodes_of(step_stats):
        out = []
        for num, wt, v in xspace_wire.fields(step_stats):
            if num != 1 or wt != 2:
                continue
            name, nodes = "", []
            for dnum, _, dv in xspace_wire.fields(v):
                if dnum == 1:
                    name = xspace_wire.text(dv)
                elif dnum == 2:
                    f = {m: w for m, _, w in xspace_wire.fields(dv) if m in (2, 5, 13, 16)}
                    start = f.get(13) or f.get(2, 0) * 1000
                    dur = f.get(16, 0) if (f.get(16) or (f.get(13) and not f.get(5))) else f.get(5, 0) * 1000
                    nodes.append((start, dur))
            out.append((name, nodes))
        return out

    first = next(xspace_wire.fields(data), None)
    if first is None:
        return []
    inner = next(xspace_wire.fields(first[2]), None) if first[1] == 2 else None
    # RunMetadata: field 1 is StepStats, whose field 1 is a DeviceStepStats starting with a name;
    # a bare StepStats starts with the DeviceStepStats' device name ("/job:...").
    if inner is not None and inner[1] == 2 and bytes(inner[2][:1]) != b"/":
        return nodes_of(first[2])
    return nodes_of(data)


# The CLI.
def cli_rows(cli, path, sql):
    r = subprocess.run([cli, "query", path, sql, "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"query failed on {path}: {sql}\n{r.stderr}")
    doc = json.loads(r.stdout)
    return [tuple(row[c] for c in doc["columns"]) for row in doc["rows"]]


def origin_of(cli, path):
    r = subprocess.run([cli, "info", path, "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"info failed on {path}: {r.stderr}")
    return json.loads(r.stdout)["origin_ns"]


def compare(label, want, got, ordered=False):
    """Rows equal as lists (ordered) or as multisets; prints ok or the first differences."""
    if not ordered:
        want, got = sorted(want, key=repr), sorted(got, key=repr)
    if want == got:
        print(f"{label}: ok ({len(want)} rows)")
        return 0
    print(f"{label}: differs ({len(want)} rows expected, {len(got)} got)")
    if ordered:
        shown = 0
        for i in range(max(len(want), len(got))):
            w = want[i] if i < len(want) else None
            g = got[i] if i < len(got) else None
            if w != g:
                print(f"  row {i}: expected {w}, got {g}")
                shown += 1
                if shown == 8:
                    break
        return 1
    missing = [r for r in want if r not in set(got)]
    extra = [r for r in got if r not in set(want)]
    for r in missing[:5]:
        print(f"  expected, not got: {r}")
    for r in extra[:5]:
        print(f"  got, not expected: {r}")
    return 1


def window_of(db, xspace):
    """The thread with most slices (JSON: among integer (pid, tid)s; XSpace: a plane's name and a
    line id) and the middle third of its span: (our filter, its parameters, the CLI's filter, window
    start, window end), the bounds on the file's clock."""
    if xspace:
        row = db.execute("SELECT pid, tid, count(*) n FROM slices GROUP BY pid, tid"
                         " ORDER BY n DESC, pid, tid LIMIT 1").fetchone()
    else:
        row = db.execute("SELECT pid_int, tid_int, count(*) n FROM slices"
                         " WHERE pid_int IS NOT NULL AND tid_int IS NOT NULL"
                         " GROUP BY pid_int, tid_int ORDER BY n DESC, pid_int, tid_int LIMIT 1").fetchone()
    if row is None:
        return None
    pid, tid, _ = row
    ref = "pid = ? AND tid = ?" if xspace else "pid_int = ? AND tid_int = ?"
    lo, hi = db.execute(f"SELECT min(ts), max(ts + dur) FROM slices WHERE {ref}", (pid, tid)).fetchone()
    # XSpace planes carry no pid of their own: the CLI numbers them, so the plane goes by its name.
    ours = f"process_name = '{pid}' AND tid = {tid}" if xspace else f"pid = {pid} AND tid = {tid}"
    return ref, (pid, tid), ours, lo + (hi - lo) // 3, lo + 2 * (hi - lo) // 3


def check(cli, path):
    if path.endswith(".pb") and not path.endswith(".xplane.pb"):  # TF1 RunMetadata
        db = run_metadata_db(path)
        want = db.execute("SELECT pid, count(*), sum(dur) FROM slices GROUP BY pid").fetchall()
        got = cli_rows(cli, path, "SELECT process_name, count(*), sum(dur) FROM thread_slice GROUP BY process_name")
        return compare(f"{path} nodes per device", [tuple(r) for r in want], got)
    xspace = path.endswith(".xplane.pb")
    events = [] if xspace else load(path)
    db = xspace_db(path) if xspace else chrome_db(events)
    origin = origin_of(cli, path)
    failures = 0

    def q(label, ref_sql, our_sql, ref_params=(), ordered=False, shift=None):
        want = db.execute(ref_sql, ref_params).fetchall()
        got = cli_rows(cli, path, our_sql)
        if shift is not None:  # the CLI's times back onto the file's clock
            got = [tuple(v + origin if i == shift and v is not None else v for i, v in enumerate(r))
                   for r in got]
        return compare(f"{path} {label}", [tuple(r) for r in want], got, ordered)

    failures += q("names", "SELECT name, count(*), sum(dur) FROM slices GROUP BY name",
                  "SELECT slice.name, count(*), sum(slice.dur) FROM slice JOIN track"
                  " ON track.id = slice.track_id WHERE track.kind = 'thread' GROUP BY slice.name")

    w = window_of(db, xspace)
    if w:
        ref, params, ours, lo, hi = w
        failures += q(f"window {ours} ts [{lo - origin}, {hi - origin}]",
                      f"SELECT ts, dur, name FROM slices WHERE {ref} AND ts BETWEEN ? AND ?"
                      " ORDER BY ts, dur, name",
                      f"SELECT ts, dur, name FROM thread_slice WHERE {ours}"
                      f" AND ts BETWEEN {lo - origin} AND {hi - origin} ORDER BY ts, dur, name",
                      params + (lo, hi), ordered=True, shift=0)

    if xspace:
        failures += q("kernels (device planes)",
                      "SELECT name, count(*), sum(dur), sum(corr) FROM slices WHERE device GROUP BY name",
                      "SELECT s.name, count(*), sum(s.dur), sum(extract_arg(s.arg_set_id, 'correlation_id'))"
                      " FROM thread_slice s WHERE s.process_name LIKE '/device:%' GROUP BY s.name")
        return failures

    if any(k in e for e in events for k in ("bind_id", "flow_in", "flow_out")):
        print(f"{path} flows: skipped (v2 flow fields are not read here)")
    else:
        flows_ref = ("SELECT o.name, i.name, count(*) FROM flows f JOIN slices o ON o.id = f.out_id"
                     " JOIN slices i ON i.id = f.in_id GROUP BY o.name, i.name")
        failures += q("flows", flows_ref,
                      "SELECT o.name AS out_name, i.name AS in_name, count(*) FROM flow f"
                      " JOIN slice o ON o.id = f.slice_out JOIN slice i ON i.id = f.slice_in"
                      " GROUP BY o.name, i.name")
        # The self-join as one writes it, both result columns called "name": --json has to keep
        # both, so this differs from the renamed one above only when the output loses a column.
        failures += q("flows (columns both named name)", flows_ref,
                      "SELECT o.name, i.name, count(*) FROM flow f JOIN slice o ON o.id = f.slice_out"
                      " JOIN slice i ON i.id = f.slice_in GROUP BY o.name, i.name")
    cats = ", ".join(f"'{c}'" for c in KERNEL_CATS)
    failures += q("kernels",
                  "SELECT name, count(*), sum(json_extract(args, '$.correlation')),"
                  f" sum(json_extract(args, '$.grid[0]')) FROM slices WHERE cat IN ({cats}) GROUP BY name",
                  "SELECT name, count(*), sum(extract_arg(arg_set_id, 'correlation')),"
                  f" sum(extract_arg(arg_set_id, 'grid[0]')) FROM slice WHERE category IN ({cats})"
                  " GROUP BY name")
    if not xspace:
        # torch.profiler's key_averages, as torch_ops_sums.py computes it from the raw JSON.
        want = [(r["name"], int(r["on_device"]), r["calls"], r["cpu_total_ns"], r["self_cpu_ns"], r["cuda_total_ns"],
                 r["self_cuda_ns"]) for r in torch_ops_sums.summarize(path)["rows"]]
        got = cli_rows(cli, path, "SELECT name, on_device, calls, cpu_total_ns, self_cpu_ns, cuda_total_ns,"
                                  " self_cuda_ns FROM torch_ops")
        if want or got:
            failures += compare(f"{path} torch_ops", want, got)
    failures += q("counter totals", "SELECT count(*), sum(value) FROM counters",
                  "SELECT count(*), sum(value) FROM counter")
    failures += q("counters",
                  "SELECT pid, track, count(*), sum(value), min(value), max(value) FROM counters"
                  " GROUP BY pid, track",
                  "SELECT p.pid, t.name, count(*), sum(c.value), min(c.value), max(c.value) FROM counter c"
                  " JOIN track t ON t.id = c.track_id JOIN process p ON p.upid = t.upid GROUP BY t.id")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    missing = [p for p in a.traces if not os.path.exists(p)]
    if missing:
        print("missing: " + ", ".join(missing))
        return 1 if os.environ.get("CI") == "true" else 77
    failures = sum(check(a.cli, p) for p in a.traces)
    print(f"{failures} queries differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
