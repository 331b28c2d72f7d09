#!/usr/bin/env python3
"""Kernel occurrences and durations of XSpace (.xplane.pb) files, read by walking the
protobuf wire format directly (no protobuf package, no TraceScope code).

A kernel is, as in XProf's GPU kernel stats: an event on a /device:GPU:N plane, on a
line that is not derived (derived line ids are [0xDEADBEEF, 0xDEADBEEF+289] as int32, or
the derived names "Steps", "XLA Ops", ...), with duration > 0 and a non-empty
`kernel_details` stat (on the event or its metadata). Durations are ps rounded to the
nearest ns per event (halves up), summed per kernel name (the metadata name).

Device steps: events of the GPU planes' "Steps" lines grouped by their name (the step), each
step's duration being the longest of its events (XProf: the longest device marker).

  xspace_kernels.py FILE...          JSON: per file, kernel count, total ns, per-name rows, steps
  xspace_kernels.py --explore FILE   prints lines and a few events with their stats
"""
import json
import os
import struct
import sys

from xspace_wire import fields, signed64, text


DERIVED_BASE = signed64(0xFFFFFFFFDEADBEEF)  # 0xDEADBEEF as int32, sign-extended
DERIVED_NAMES = {"Steps", "XLA Ops", "XLA Modules", "Framework Ops", "TensorFlow Ops", "Framework Name Scope",
                 "TensorFlow Name Scope", "Launch Stats", "Source code", "Async XLA Ops", "Host Offload Ops"}


def ps_to_ns(ps):
    q, r = divmod(ps, 1000)
    return q + 1 if r >= 500 else q


def stat_value(stat, stat_names):
    mid, val = 0, None
    for n, _, v in fields(stat):
        if n == 1:
            mid = signed64(v)
        elif n == 2:
            val = struct.unpack("<d", struct.pack("<Q", v))[0]
        elif n == 3:
            val = v
        elif n == 7:  # ref_value: the text is the name of the referenced stat metadata
            val = stat_names.get(signed64(v), "")
        elif n == 4:
            val = signed64(v)
        elif n in (5, 6):
            val = text(v)
    return stat_names.get(mid, str(mid)), val


def parse_plane(pbuf):
    plane = {"name": "", "lines": [], "md": {}, "stat_names": {}}
    raw_md, raw_stats_md = [], []
    for n, _, v in fields(pbuf):
        if n == 2:
            plane["name"] = text(v)
        elif n == 3:
            plane["lines"].append(v)
        elif n == 4:
            raw_md.append(v)
        elif n == 5:
            raw_stats_md.append(v)
    for entry in raw_stats_md:  # map entry: key=1, value=2 (XStatMetadata: id=1, name=2)
        for n, _, v in fields(entry):
            if n == 2:
                sid, name = 0, ""
                for m, _, w in fields(v):
                    if m == 1:
                        sid = signed64(w)
                    elif m == 2:
                        name = text(w)
                plane["stat_names"][sid] = name
    for entry in raw_md:
        for n, _, v in fields(entry):
            if n == 2:
                mid, name, disp, stats = 0, "", "", {}
                for m, _, w in fields(v):
                    if m == 1:
                        mid = signed64(w)
                    elif m == 2:
                        name = text(w)
                    elif m == 4:
                        disp = text(w)
                    elif m == 5:
                        k, val = stat_value(w, plane["stat_names"])
                        stats[k] = val
                plane["md"][mid] = (name, disp, stats)
    return plane


def events(line_buf):
    lid, lname = 0, ""
    evs = []
    for n, _, v in fields(line_buf):
        if n == 1:
            lid = signed64(v)
        elif n == 2:
            lname = text(v)
        elif n == 4:
            evs.append(v)
    return lid, lname, evs


def event_fields(ev, plane):
    mid, dur, stats, offset = 0, 0, {}, None
    for n, _, v in fields(ev):
        if n == 1:
            mid = signed64(v)
        elif n == 2:
            offset = signed64(v)
        elif n == 3:
            dur = signed64(v)
        elif n == 4:
            k, val = stat_value(v, plane["stat_names"])
            stats[k] = val
    name, disp, mdstats = plane["md"].get(mid, ("", "", {}))
    merged = dict(mdstats)
    merged.update(stats)
    return name, disp, dur, offset, merged


def kernels_of(path):
    buf = memoryview(open(path, "rb").read())
    rows = {}
    steps = {}
    count = total = 0
    for n, _, v in fields(buf):
        if n != 1:
            continue
        plane = parse_plane(v)
        if not plane["name"].startswith("/device:GPU:"):
            continue
        for lb in plane["lines"]:
            lid, lname, evs = events(lb)
            if lname == "Steps":
                for ev in evs:
                    name, _, dur, offset, stats = event_fields(ev, plane)
                    steps[name] = max(steps.get(name, 0), ps_to_ns(dur))
            if DERIVED_BASE <= lid <= DERIVED_BASE + 289 or lname in DERIVED_NAMES:
                continue
            for ev in evs:
                name, _, dur, offset, stats = event_fields(ev, plane)
                if offset is None or dur <= 0 or not stats.get("kernel_details"):
                    continue
                ns = ps_to_ns(dur)
                r = rows.setdefault(name, {"name": name, "occurrences": 0, "total_ns": 0})
                r["occurrences"] += 1
                r["total_ns"] += ns
                count += 1
                total += ns
    return {"kernel_count": count, "total_ns": total,
            "steps": [{"name": k, "duration_ns": v} for k, v in sorted(steps.items())],
            "rows": sorted(rows.values(), key=lambda r: (-r["total_ns"], r["name"]))}


def explore(path):
    buf = memoryview(open(path, "rb").read())
    for n, _, v in fields(buf):
        if n != 1:
            continue
        plane = parse_plane(v)
        print("PLANE", plane["name"], len(plane["lines"]), "lines")
        for lb in plane["lines"]:
            lid, lname, evs = events(lb)
            print("  LINE", lid, lname, len(evs), "events")
            for ev in evs[:3]:
                name, disp, dur, offset, stats = event_fields(ev, plane)
                print("    EV", repr(name[:100]), repr(disp[:60]), dur, {k: str(x)[:80] for k, x in stats.items()})


def main(argv):
    if argv and argv[0] == "--explore":
        explore(argv[1])
        return 0
    print(json.dumps({os.path.basename(p): kernels_of(p) for p in argv}, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
