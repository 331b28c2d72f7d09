#!/usr/bin/env python3
"""Counts the events of XSpace (.xplane.pb) files by walking the protobuf wire
format by hand (no protobuf package), independently of the C++ importer.

For every plane and every line it prints how many events have a duration > 0,
a duration == 0 (both only for events with a start offset) and how many are
aggregated (num_occurrences set instead of an offset). Per file it also counts
the flows a viewer should draw between events that have a duration:
  launch_flows   device stream events whose correlation_id also appears on a
                 host (/host:...) event (one arrow per device event)
  context_flows  producer -> consumer pairs with equal (_pt, _p) == (_ct, _c),
                 skipping groups with >= 64 producers and >= 64 consumers
Metadata planes (/host:metadata, Task Environment) have no lines.

  count_xspace.py FILE...            JSON with the counts of each file (keyed by the path as given)
  count_xspace.py --event NAME FILE  stats of the first events named NAME

The test data's expected counts are made with (from the shared testdata folder):
  count_xspace.py $(find . -name '*.xplane.pb' | sort) > tests/data/xspace_expected_counts.json
"""
import json
import os
import struct
import sys

from xspace_wire import fields, signed64, text

# Field numbers (xplane.proto).
XSPACE_PLANES, XSPACE_HOSTNAMES = 1, 4
PLANE_ID, PLANE_NAME, PLANE_LINES, PLANE_EVENT_MD, PLANE_STAT_MD, PLANE_STATS = 1, 2, 3, 4, 5, 6
LINE_ID, LINE_NAME, LINE_TS, LINE_EVENTS, LINE_DISPLAY_ID, LINE_DISPLAY_NAME = 1, 2, 3, 4, 10, 11
EVENT_MD_ID, EVENT_OFFSET, EVENT_DURATION, EVENT_STATS, EVENT_NUM_OCC = 1, 2, 3, 4, 5


def count_line(line):
    info = {"id": 0, "display_id": 0, "name": "", "display_name": "", "timestamp_ns": 0,
            "duration_gt0": 0, "duration_eq0": 0, "num_occurrences": 0}
    for num, _, v in fields(line):
        if num == LINE_ID:
            info["id"] = signed64(v)
        elif num == LINE_DISPLAY_ID:
            info["display_id"] = signed64(v)
        elif num == LINE_NAME:
            info["name"] = text(v)
        elif num == LINE_DISPLAY_NAME:
            info["display_name"] = text(v)
        elif num == LINE_TS:
            info["timestamp_ns"] = signed64(v)
        elif num == LINE_EVENTS:
            duration = 0
            aggregated = False
            for enum, _, ev in fields(v):
                if enum == EVENT_DURATION:
                    duration = signed64(ev)
                elif enum == EVENT_NUM_OCC:
                    aggregated = True
                elif enum == EVENT_OFFSET:
                    aggregated = False  # oneof: the last one written wins
            if aggregated:
                info["num_occurrences"] += 1
            elif duration > 0:
                info["duration_gt0"] += 1
            else:
                info["duration_eq0"] += 1
    return info


def count_file(path):
    with open(path, "rb") as f:
        buf = memoryview(f.read())
    out = {"planes": [], "hostnames": []}
    for num, _, v in fields(buf):
        if num == XSPACE_HOSTNAMES:
            out["hostnames"].append(text(v))
        if num != XSPACE_PLANES:
            continue
        plane = {"id": 0, "name": "", "lines": [], "event_metadata": 0, "stat_metadata": 0, "stats": 0}
        for pnum, _, pv in fields(v):
            if pnum == PLANE_ID:
                plane["id"] = signed64(pv)
            elif pnum == PLANE_NAME:
                plane["name"] = text(pv)
            elif pnum == PLANE_LINES:
                plane["lines"].append(count_line(pv))
            elif pnum == PLANE_EVENT_MD:
                plane["event_metadata"] += 1
            elif pnum == PLANE_STAT_MD:
                plane["stat_metadata"] += 1
            elif pnum == PLANE_STATS:
                plane["stats"] += 1
        for key in ("duration_gt0", "duration_eq0", "num_occurrences"):
            plane[key] = sum(l[key] for l in plane["lines"])
        out["planes"].append(plane)
    for key in ("duration_gt0", "duration_eq0", "num_occurrences"):
        out[key] = sum(p[key] for p in out["planes"])
    return out


def plane_tables(plane_buf):
    """(event metadata id -> (name, display name, stats), stat metadata id -> name)."""
    events, stats = {}, {}
    for num, _, v in fields(plane_buf):
        if num not in (PLANE_EVENT_MD, PLANE_STAT_MD):
            continue
        key, value = 0, None
        for mnum, _, mv in fields(v):  # map entry: key = 1, value = 2
            if mnum == 1:
                key = signed64(mv)
            elif mnum == 2:
                value = mv
        if value is None:
            continue
        if num == PLANE_STAT_MD:
            stats[key] = next((text(x) for n, _, x in fields(value) if n == 2), "")
        else:
            name, display, st = "", "", []
            for n, _, x in fields(value):
                if n == 2:
                    name = text(x)
                elif n == 4:
                    display = text(x)
                elif n == 5:
                    st.append(x)
            events[key] = (name, display, st)
    return events, stats


def decode_stat(buf, stat_names):
    md, value = 0, None
    for num, wt, v in fields(buf):
        if num == 1:
            md = signed64(v)
        elif num == 2:
            value = struct.unpack("<d", struct.pack("<Q", v))[0]
        elif num == 3:
            value = v
        elif num == 4:
            value = signed64(v)
        elif num == 5:
            value = text(v)
        elif num == 6:
            value = "<%d bytes>" % len(v)
        elif num == 7:
            value = stat_names.get(v, "")
    return stat_names.get(md, str(md)), value


DERIVED_LO, DERIVED_HI = -559038737, -559038737 + 290  # 0xDEADBEEF + k as int32
DERIVED_NAMES = {"XLA Modules", "XLA Ops", "Steps", "Framework Ops", "TensorFlow Ops", "Framework Name Scope",
                 "TensorFlow Name Scope", "Source code", "Launch Stats"}


def count_flows(path):
    """(launch_flows, context_flows) as described in the module comment."""
    with open(path, "rb") as f:
        buf = memoryview(f.read())
    host_corr, device_corr = set(), []
    producers, consumers = {}, {}
    event_index = 0  # identifies an event (one event can be both producer and consumer)
    for num, _, plane in fields(buf):
        if num != XSPACE_PLANES:
            continue
        events, stat_names = plane_tables(plane)
        pname = next((text(x) for n, _, x in fields(plane) if n == PLANE_NAME), "")
        is_host, is_device = pname.startswith("/host:"), pname.startswith("/device:") or pname.startswith(
            "/virtualdevice:")
        for pnum, _, line in fields(plane):
            if pnum != PLANE_LINES:
                continue
            lname, lid = "", 0
            for lnum, _, lv in fields(line):
                if lnum == LINE_NAME:
                    lname = text(lv)
                elif lnum == LINE_ID:
                    lid = signed64(lv)
            stream = is_device and lname not in DERIVED_NAMES and not (DERIVED_LO <= lid < DERIVED_HI)
            for lnum, _, lv in fields(line):
                if lnum != LINE_EVENTS:
                    continue
                md, dur, aggregated, st = 0, 0, False, []
                for en, _, ev in fields(lv):
                    if en == EVENT_MD_ID:
                        md = signed64(ev)
                    elif en == EVENT_DURATION:
                        dur = signed64(ev)
                    elif en == EVENT_NUM_OCC:
                        aggregated = True
                    elif en == EVENT_OFFSET:
                        aggregated = False
                    elif en == EVENT_STATS:
                        st.append(ev)
                if aggregated or dur <= 0:
                    continue
                stats = dict(decode_stat(s, stat_names) for s in events.get(md, ("", "", []))[2])
                stats.update(decode_stat(s, stat_names) for s in st)
                event_index += 1
                key = event_index
                corr = stats.get("correlation_id")
                if isinstance(corr, int):
                    corr &= (1 << 64) - 1
                    if stream:
                        device_corr.append(corr)
                    elif is_host:
                        host_corr.add(corr)
                for t_name, i_name, table in (("_pt", "_p", producers), ("_ct", "_c", consumers)):
                    t, i = stats.get(t_name), stats.get(i_name)
                    if isinstance(t, int) and isinstance(i, int):
                        table.setdefault((t & (1 << 64) - 1, i & (1 << 64) - 1), []).append(key)
    launch = sum(1 for c in device_corr if c in host_corr)
    context = 0
    for k, prods in producers.items():
        cons = consumers.get(k, [])
        if len(prods) >= 64 and len(cons) >= 64:
            continue
        context += sum(1 for p in prods for c in cons if p != c)
    return launch, context


def find_events(path, wanted, limit=3):
    with open(path, "rb") as f:
        buf = memoryview(f.read())
    found = []
    for num, _, plane in fields(buf):
        if num != XSPACE_PLANES:
            continue
        events, stat_names = plane_tables(plane)
        pname = next((text(x) for n, _, x in fields(plane) if n == PLANE_NAME), "")
        for pnum, _, line in fields(plane):
            if pnum != PLANE_LINES:
                continue
            lname, ts = "", 0
            for lnum, _, lv in fields(line):
                if lnum == LINE_NAME:
                    lname = text(lv)
                elif lnum == LINE_TS:
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
                    name, display, mdstats = events.get(md, ("", "", []))
                    if name != wanted:
                        continue
                    args = dict(decode_stat(s, stat_names) for s in mdstats)
                    args.update(decode_stat(s, stat_names) for s in st)
                    found.append({"plane": pname, "line": lname, "display_name": display,
                                  "start_ps": ts * 1000 + off, "duration_ps": dur, "stats": args})
                    if len(found) >= limit:
                        return found
    return found


def main(argv):
    if len(argv) >= 3 and argv[0] == "--event":
        print(json.dumps(find_events(argv[2], argv[1]), indent=1))
        return 0
    result = {}
    for path in argv:
        counts = count_file(path)
        counts["launch_flows"], counts["context_flows"] = count_flows(path)
        result[path] = counts
    print(json.dumps(result, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
