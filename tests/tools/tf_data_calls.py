#!/usr/bin/env python3
"""An independent oracle for the tf.data analysis (no protobuf package, no TraceScope code):
reads an .xplane.pb with the wire walker, rebuilds each root iterator call as XProf's
xplane_to_tf_data_stats.cc describes it, and prints per call (slowest first) every iterator's
total, self, calls and blocking flag, its first start and last end relative to the call's start,
and "ahead" (its events' time before the call began), in ns rounded from the file's picoseconds.
With --events, each iterator event of the call follows (start offset, duration, its own self).

    tf_data_calls.py FILE.xplane.pb [--calls N] [--events]

Nesting on a line is by interval containment (the innermost enclosing event is the parent);
producer iterators (first iterator child of a *Produce event, keyed by (parent_id, element_id))
become children of the iterator directly enclosing the *Consume event with that element_id.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from count_xspace import (EVENT_DURATION, EVENT_MD_ID, EVENT_OFFSET, EVENT_STATS, LINE_EVENTS, LINE_TS,  # noqa: E402
                          PLANE_LINES, XSPACE_PLANES, decode_stat, plane_tables)
from xspace_wire import fields, signed64  # noqa: E402

HANDOFF = ("Prefetch", "ParallelInterleave", "ParallelMap", "MapAndBatch", "ParseExample", "ParallelBatch")


def read_events(path):
    with open(path, "rb") as f:
        buf = memoryview(f.read())
    lines = []
    for num, _, plane in fields(buf):
        if num != XSPACE_PLANES:
            continue
        events, stat_names = plane_tables(plane)
        for pnum, _, line in fields(plane):
            if pnum != PLANE_LINES:
                continue
            ts, evs = 0, []
            for lnum, _, lv in fields(line):
                if lnum == LINE_TS:
                    ts = signed64(lv)
                elif lnum == LINE_EVENTS:
                    md, off, dur, st = 0, 0, 0, []
                    for en, _, ev in fields(lv):
                        if en == EVENT_MD_ID:
                            md = signed64(ev)
                        elif en == EVENT_OFFSET:
                            off = signed64(ev)
                        elif en == EVENT_DURATION:
                            dur = signed64(ev)
                        elif en == EVENT_STATS:
                            st.append(ev)
                    name, _, mdstats = events.get(md, ("", "", []))
                    args = dict(decode_stat(s, stat_names) for s in mdstats)
                    args.update(decode_stat(s, stat_names) for s in st)
                    evs.append((off, dur, name, args))
            lines.append([{"start": ts * 1000 + off, "end": ts * 1000 + off + dur, "name": name, "args": args,
                           "children": [], "parent": None} for off, dur, name, args in evs])
    return lines


def u64(v):
    return v & ((1 << 64) - 1) if isinstance(v, int) else None


def main(argv):
    path = argv[1]
    max_calls = int(argv[argv.index("--calls") + 1]) if "--calls" in argv else 3
    lines = read_events(path)
    for evs in lines:
        evs.sort(key=lambda e: (e["start"], -(e["end"] - e["start"])))
        stack = []
        for e in evs:
            while stack and stack[-1]["end"] <= e["start"] and stack[-1]["end"] > stack[-1]["start"]:
                stack.pop()
            while stack and not (stack[-1]["start"] <= e["start"] and e["end"] <= stack[-1]["end"]):
                stack.pop()
            if stack:
                e["parent"] = stack[-1]
                if e["name"].startswith("Iterator::"):
                    stack[-1]["children"].append(e)
            stack.append(e)
    producers = {}
    for evs in lines:
        for e in evs:
            if e["name"] in [h + "Produce" for h in HANDOFF] and "element_id" in e["args"]:
                it = next((c for c in e["children"] if c["name"].startswith("Iterator::")), None)
                if it and "parent_id" in it["args"]:
                    producers.setdefault((u64(it["args"]["parent_id"]), u64(e["args"]["element_id"])), []).append(it)
    roots = []
    for evs in lines:
        for e in evs:
            p = e["parent"]
            if e["name"] in [h + "Consume" for h in HANDOFF] and "element_id" in e["args"] and p \
                    and p["name"].startswith("Iterator::") and "id" in p["args"]:
                p["children"].extend(producers.pop((u64(p["args"]["id"]), u64(e["args"]["element_id"])), []))
            if e["name"].startswith("Iterator::") and e["name"].count("::") == 1 and "id" in e["args"]:
                roots.append(e)

    def visit(e, stats, blocking, t0, depth=0):
        if depth > 100:
            return
        s = stats.setdefault(e["name"] + "#" + str(u64(e["args"]["id"])),
                             {"total": 0, "self": 0, "calls": 0, "blocking": False, "start": e["start"],
                              "end": e["end"], "ahead": 0, "events": []})
        self_ps = e["end"] - e["start"]
        for c in e["children"]:
            o = max(0, min(e["end"], c["end"]) - max(e["start"], c["start"]))
            visit(c, stats, blocking and o > 0, t0, depth + 1)
            self_ps -= o
        s["total"] += e["end"] - e["start"]
        s["self"] += self_ps
        s["calls"] += 1
        s["blocking"] = s["blocking"] or blocking
        s["start"] = min(s["start"], e["start"])
        s["end"] = max(s["end"], e["end"])
        s["ahead"] += max(0, min(e["end"], t0) - e["start"])
        s["events"].append((e["start"] - t0, e["end"] - e["start"], self_ps))

    def ns(ps):
        return round(ps / 1000)

    for root in sorted(roots, key=lambda r: r["start"] - r["end"])[:max_calls]:
        stats = {}
        t0 = root["start"]
        visit(root, stats, True, t0)
        print(f"call {root['name']}#{u64(root['args']['id'])} duration {ns(root['end'] - root['start'])} ns")
        for k, s in stats.items():
            print(f"  {k:70s} total {ns(s['total']):>10} self {ns(s['self']):>10} "
                  f"calls {s['calls']:>3} {'blocking' if s['blocking'] else '        '} "
                  f"start {ns(s['start'] - t0):>10} end {ns(s['end'] - t0):>10} ahead {ns(s['ahead']):>10}")
            if "--events" in argv:
                for start, dur, self_ps in sorted(s["events"]):
                    print(f"      event start {ns(start):>10} duration {ns(dur):>10} self {ns(self_ps):>10}")


if __name__ == "__main__":
    main(sys.argv)
