#!/usr/bin/env python3
"""Reference numbers for the memory profile, computed straight from the raw files with the
standard library only (no TraceScope code, no protobuf package):

  XSpace (.xplane.pb): MemoryAllocation / MemoryDeallocation events of every plane, read by
    walking the wire format (xspace_wire.py). Memory id = allocator_name. In use =
    bytes_reserved + bytes_allocated; lifetime peak = largest peak_bytes_in_use.
  Kineto JSON (.json / .json.gz): "[memory]" instants. Memory id = "cpu" (Device Type 0) or
    "cuda:<Device Id>" (Device Type 1). In use = Total Allocated, reserved = Total Reserved;
    without Total Allocated, the running sum of Bytes lifted so that its minimum is 0.

Per memory id: events, allocations, deallocations, peak_bytes (largest in use; ties: the
latest), peak_offset_ns (peak time minus the id's first event time, integer ns),
peak_reserved_bytes, lifetime_peak_bytes, and the allocations alive at the peak (matched by
address in time order): live_at_peak and live_bytes_at_peak; alive_at_end(_bytes) likewise
at the end. Times: XSpace ps rounded to ns per event, JSON microseconds parsed as decimals.

  memory_reference.py FILE...   -> JSON on stdout, keyed by file name
"""
import decimal
import gzip
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xspace_kernels import events, event_fields, parse_plane, ps_to_ns  # noqa: E402
from xspace_wire import fields, signed64  # noqa: E402


def xspace_events(path):
    buf = memoryview(open(path, "rb").read())
    out = []  # (time_ns, id, kind, in_use, reserved, bytes, addr, lifetime)
    for n, _, v in fields(buf):
        if n != 1:
            continue
        plane = parse_plane(v)
        for lb in plane["lines"]:
            ts_ns = 0
            for m, _, w in fields(lb):
                if m == 3:
                    ts_ns = signed64(w)
            _, _, evs = events(lb)
            for ev in evs:
                name, _, _, offset, st = event_fields(ev, plane)
                if name not in ("MemoryAllocation", "MemoryDeallocation"):
                    continue
                t = ps_to_ns(ts_ns * 1000 + (offset or 0))
                out.append((t, st.get("allocator_name", ""),
                            "alloc" if name == "MemoryAllocation" else "dealloc",
                            int(st.get("bytes_reserved", 0)) + int(st.get("bytes_allocated", 0)), None,
                            int(st.get("allocation_bytes", 0)), int(st.get("addr", 0)),
                            int(st.get("peak_bytes_in_use", -1))))
    return out


def to_ns(v):
    return int(decimal.Decimal(str(v)) * 1000)


def kineto_events(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = json.loads(f.read(), parse_float=decimal.Decimal)
    evs = data["traceEvents"] if isinstance(data, dict) else data
    raw = []
    for e in evs:
        if e.get("name") != "[memory]" or e.get("ph") not in ("i", "I"):
            continue
        a = e.get("args", {})
        dt, di = int(a.get("Device Type", -1)), int(a.get("Device Id", -1))
        mid = "cpu" if dt == 0 else ("cuda" if dt == 1 else "device%d" % dt) + ":%d" % max(di, 0)
        b = int(a.get("Bytes", 0))
        total = a.get("Total Allocated")
        reserved = a.get("Total Reserved")
        raw.append([to_ns(e["ts"]), mid, "alloc" if b >= 0 else "dealloc",
                    None if total is None else int(total), None if reserved is None else int(reserved),
                    abs(b), int(a.get("Addr", 0)), -1, b])
    # Ids without totals: in use = running sum of Bytes, lifted to a minimum of 0.
    by_id = {}
    for r in sorted(raw, key=lambda r: r[0]):
        by_id.setdefault(r[1], []).append(r)
    out = []
    for mid, rs in by_id.items():
        if any(r[3] is None for r in rs):
            s, low = 0, 0
            for r in rs:
                s += r[8]
                r[3] = s
                low = min(low, s)
            for r in rs:
                r[3] -= low
        out.extend(tuple(r[:8]) for r in rs)
    return out


def summarize(evs):
    res = {}
    by_id = {}
    for e in sorted(evs, key=lambda e: e[0]):  # stable: file order within a time
        by_id.setdefault(e[1], []).append(e)
    for mid, es in by_id.items():
        peak_i = max(range(len(es)), key=lambda i: (es[i][3], i))
        live = {}
        live_at_peak = None
        for i, e in enumerate(es):
            if e[6]:
                if e[2] == "alloc":
                    live[e[6]] = e[5]
                else:
                    live.pop(e[6], None)
            if i == peak_i:
                live_at_peak = dict(live)
        reserved = [e[4] for e in es if e[4] is not None]
        lifetime = max(e[7] for e in es)
        r = {"events": len(es),
             "allocations": sum(1 for e in es if e[2] == "alloc"),
             "deallocations": sum(1 for e in es if e[2] == "dealloc"),
             "peak_bytes": es[peak_i][3],
             "peak_offset_ns": es[peak_i][0] - es[0][0],
             "peak_reserved_bytes": max(reserved) if reserved else None,
             "live_at_peak": len(live_at_peak),
             "live_bytes_at_peak": sum(live_at_peak.values()),
             "alive_at_end": len(live),
             "alive_at_end_bytes": sum(live.values()),
             "in_use_sum": sum(e[3] for e in es)}
        if lifetime >= 0:
            r["lifetime_peak_bytes"] = lifetime
        res[mid] = r
    return res


def main(argv):
    out = {}
    for p in argv:
        evs = xspace_events(p) if p.endswith(".pb") else kineto_events(p)
        out[os.path.basename(p)] = summarize(evs)
    print(json.dumps(out, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
