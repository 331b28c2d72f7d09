#!/usr/bin/env python3
"""Writes the trace JSON that XProf/TSL writes for an XSpace (.xplane.pb), the way that
exporter does it, from the XProf schema (reference xprof.md §4.2-4.3), walking the protobuf
wire format by hand (xspace_wire.py; no protobuf package, no TraceScope code):

  * top level {"displayTimeUnit":"ns","metadata":{"highres-ticks":true},"traceEvents":[...]},
    the event array ending with an empty object {};
  * one process per plane: host planes (/host:..., sorted by name) pid 701, 702, ...;
    /device:GPU:N and /device:TPU:N pid 1 + plane id; /device:CUSTOM:N pid 501 + plane id;
    process_name "<hostname> <plane name>", process_sort_index = pid;
  * one thread per non-empty line: tid = display id (else id) truncated to uint32, name =
    display name (else name); thread_sort_index = tid on devices, 1..n in line order on hosts;
  * complete events "ph":"X" with ts/dur in microseconds at picosecond precision (dur at
    least 1 ps), name = display name (the full name in arg long_name when they differ) or the
    step_name stat, args = the event metadata's stats then the event's, as strings (internal
    and bytes stats dropped);
  * flows in the "flow v2" style on the events themselves: bind_id + flow_out on the host
    launch, bind_id + flow_in on the device activity with the same correlation_id; TraceMe
    producer/consumer pairs (_pt,_p)/(_ct,_c) likewise;
  * lines named "_counters_" as counter events "ph":"C" (with --entries, one compact
    counter event per series with an "entries" array of [ts, value]);
  * MemoryAllocation/MemoryDeallocation and *Produce/*Consume events dropped (XProf's
    internal events), lines starting "counters_" and "Async XLA Ops" skipped, aggregated
    events (num_occurrences) skipped, metadata planes not drawn.

  xspace_to_xprof_json.py IN.xplane.pb OUT.json[.gz] [--entries] [--keep-internal] [--drop-stats=a,b]
  (--drop-stats: as exporters that treat those stats as internal, e.g. kernel_details)
"""
import gzip
import json
import struct
import sys

from xspace_wire import fields, signed64, text

XSPACE_PLANES, XSPACE_HOSTNAMES = 1, 4
PLANE_ID, PLANE_NAME, PLANE_LINES, PLANE_EVENT_MD, PLANE_STAT_MD, PLANE_STATS = 1, 2, 3, 4, 5, 6
LINE_ID, LINE_NAME, LINE_TS, LINE_EVENTS, LINE_DISPLAY_ID, LINE_DISPLAY_NAME = 1, 2, 3, 4, 10, 11
EVENT_MD_ID, EVENT_OFFSET, EVENT_DURATION, EVENT_STATS, EVENT_NUM_OCC = 1, 2, 3, 4, 5

INTERNAL_STATS = {"_pt", "_ct", "_p", "_c", "_r", "_a", "flow", "step_name"}
INTERNAL_EVENTS = {"MemoryAllocation", "MemoryDeallocation"}


def plane_tables(plane):
    events, stats = {}, {}
    for num, _, v in fields(plane):
        if num not in (PLANE_EVENT_MD, PLANE_STAT_MD):
            continue
        key, value = 0, None
        for mnum, _, mv in fields(v):
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


def stat_of(buf, stat_names):
    """(name, value as the exporter prints it or None for bytes, number or None)."""
    md, value, number = 0, None, None
    for num, _, v in fields(buf):
        if num == 1:
            md = signed64(v)
        elif num == 2:
            number = struct.unpack("<d", struct.pack("<Q", v))[0]
            value = repr(number)
        elif num == 3:
            number = v
            value = str(v)
        elif num == 4:
            number = signed64(v)
            value = str(number)
        elif num == 5:
            value = text(v)
        elif num == 6:
            value = None
        elif num == 7:
            value = stat_names.get(v, "")
    return stat_names.get(md, str(md)), value, number


def micros(ps):
    """Picoseconds as microsecond text at full precision."""
    sign = "-" if ps < 0 else ""
    ps = abs(ps)
    whole, frac = divmod(ps, 1000000)
    return ("%s%d.%06d" % (sign, whole, frac)).rstrip("0") if frac else "%s%d" % (sign, whole)


def read_planes(data):
    planes, hostnames = [], []
    for num, _, v in fields(data):
        if num == XSPACE_PLANES:
            planes.append(v)
        elif num == XSPACE_HOSTNAMES:
            hostnames.append(text(v))
    out = []
    for p in planes:
        info = {"id": 0, "name": "", "lines": [], "buf": p, "stats": []}
        for num, _, v in fields(p):
            if num == PLANE_ID:
                info["id"] = signed64(v)
            elif num == PLANE_NAME:
                info["name"] = text(v)
            elif num == PLANE_LINES:
                info["lines"].append(v)
            elif num == PLANE_STATS:
                info["stats"].append(v)
        out.append(info)
    return out, hostnames


def profile_start_ns(planes):
    for p in planes:
        if p["name"] != "Task Environment":
            continue
        _, stat_names = plane_tables(p["buf"])
        for s in p["stats"]:
            name, _, number = stat_of(s, stat_names)
            if name == "profile_start_time" and number:
                return int(number)
    return None


def line_info(line):
    info = {"id": 0, "display_id": 0, "name": "", "display_name": "", "ts": 0, "events": []}
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
            info["ts"] = signed64(v)
        elif num == LINE_EVENTS:
            info["events"].append(v)
    return info


def convert(data, entries=False, keep_internal=False, drop_stats=()):
    planes, hostnames = read_planes(data)
    host = hostnames[0] if hostnames else ""
    drawn = []
    hosts = sorted((p for p in planes if p["name"].startswith("/host:") and p["name"] != "/host:metadata"),
                   key=lambda p: p["name"])
    for i, p in enumerate(hosts):
        drawn.append((701 + i, p))
    for p in planes:
        n = p["name"]
        if n.startswith("/device:GPU:") or n.startswith("/device:TPU:"):
            drawn.append((1 + p["id"] if 0 <= p["id"] < 500 else 1, p))
        elif n.startswith("/device:CUSTOM:"):
            drawn.append((501 + (p["id"] if 0 <= p["id"] < 200 else 0), p))
    # Times relative to the profile start (as jax's perfetto_trace.json), else to the earliest line.
    starts = [line_info(l)["ts"] for _, p in drawn for l in p["lines"]]
    first_ns = min(starts) if starts else 0
    base_ns = profile_start_ns(planes)
    if base_ns is None or not (0 <= first_ns - base_ns < 3600 * 10**9):
        base_ns = first_ns  # a start time in another clock than the lines'

    meta, events, counters = [], [], {}
    launches, activities, producers, consumers = {}, {}, {}, {}
    for pid, plane in drawn:
        ev_md, stat_names = plane_tables(plane["buf"])
        pname = ("%s %s" % (host, plane["name"])) if host else plane["name"]
        is_host = plane["name"].startswith("/host:")
        lines = [line_info(l) for l in plane["lines"]]
        lines = [l for l in lines if l["events"]]
        meta.append({"ph": "M", "pid": pid, "name": "process_name", "args": {"name": pname}})
        meta.append({"ph": "M", "pid": pid, "name": "process_sort_index", "args": {"sort_index": pid}})
        seen_tids = set()
        for order, line in enumerate(lines):
            lname = line["display_name"] or line["name"]
            if line["name"].startswith("counters_") or line["name"] == "Async XLA Ops":
                continue
            tid = (line["display_id"] or line["id"]) & 0xFFFFFFFF
            counter_line = line["name"] == "_counters_"
            if not counter_line and tid not in seen_tids:
                seen_tids.add(tid)
                meta.append({"ph": "M", "pid": pid, "tid": tid, "name": "thread_name", "args": {"name": lname}})
                meta.append({"ph": "M", "pid": pid, "tid": tid, "name": "thread_sort_index",
                             "args": {"sort_index": order + 1 if is_host else tid}})
            for ev in line["events"]:
                md, offset, duration, stats, aggregated = 0, 0, 0, [], False
                for en, _, x in fields(ev):
                    if en == EVENT_MD_ID:
                        md = signed64(x)
                    elif en == EVENT_OFFSET:
                        offset, aggregated = signed64(x), False
                    elif en == EVENT_DURATION:
                        duration = signed64(x)
                    elif en == EVENT_STATS:
                        stats.append(x)
                    elif en == EVENT_NUM_OCC:
                        aggregated = True
                if aggregated:
                    continue
                name, display, md_stats = ev_md.get(md, ("", "", []))
                if not keep_internal and (name in INTERNAL_EVENTS or name.endswith("Produce")
                                          or name.endswith("Consume")):
                    continue
                ts_ps = (line["ts"] - base_ns) * 1000 + offset
                decoded = [stat_of(s, stat_names) for s in md_stats] + [stat_of(s, stat_names) for s in stats]
                values = {}
                args = {}
                for k, v, number in decoded:
                    values[k] = (v, number)
                    if k in INTERNAL_STATS or k in drop_stats or v is None:
                        continue
                    args[k] = v
                if counter_line:
                    value = values.get(name, (None, None))[1]
                    if value is None:
                        value = next((n for _, _, n in decoded if n is not None), None)
                    if value is not None:
                        counters.setdefault((pid, name), []).append((ts_ps, value))
                    continue
                shown = display or name
                step_name = values.get("step_name", (None, None))[0]
                if step_name:
                    shown = step_name
                if shown != name:
                    args["long_name"] = name
                e = {"ph": "X", "pid": pid, "tid": tid, "ts": micros(ts_ps), "dur": micros(max(duration, 1)),
                     "name": shown}
                if args:
                    e["args"] = args
                events.append(e)
                corr = values.get("correlation_id", (None, None))[1]
                if corr is not None:
                    (launches if is_host else activities).setdefault(int(corr), []).append(e)
                pt, p = values.get("_pt", (None, None))[1], values.get("_p", (None, None))[1]
                ctype, c = values.get("_ct", (None, None))[1], values.get("_c", (None, None))[1]
                if pt is not None and p is not None:
                    producers.setdefault((int(pt), int(p)), []).append(e)
                if ctype is not None and c is not None:
                    consumers.setdefault((int(ctype), int(c)), []).append(e)

    # Flow v2: the flow's id and direction on the events themselves (one flow per event).
    next_id = [1]

    def bind(src, dst, cat):
        if "bind_id" in src or "bind_id" in dst:
            return
        fid = next_id[0]
        next_id[0] += 1
        src.update({"bind_id": fid, "flow_out": True, "cat": cat})
        dst.update({"bind_id": fid, "flow_in": True, "cat": cat})

    for corr, devs in sorted(activities.items()):
        hs = launches.get(corr)
        if hs:
            for d in devs:
                bind(hs[0], d, "launch")
    for key, ps in sorted(producers.items()):
        cs = consumers.get(key)
        if cs and len(ps) == 1 and len(cs) == 1:
            bind(ps[0], cs[0], "producer_consumer")

    out_events = meta + events
    for (pid, name), samples in sorted(counters.items()):
        samples.sort()
        if entries:
            # As XProf's AddCounterEvent writes it: "event_stats" names the first stat.
            out_events.append({"pid": pid, "name": name, "ph": "C", "event_stats": name,
                               "entries": [[micros(t), v] for t, v in samples]})
        else:
            for t, v in samples:
                out_events.append({"ph": "C", "pid": pid, "name": name, "ts": micros(t), "args": {name: v}})
    return out_events


def dumps(events):
    """Numbers written as the exporter writes them: ts/dur as plain decimals."""
    parts = []
    for e in events:
        text_ = json.dumps(e, separators=(",", ":"))
        parts.append(text_)
    body = ",\n".join(parts)
    # ts/dur were kept as text to stay exact: unquote them.
    import re
    body = re.sub(r'"(ts|dur)":"(-?[0-9.]+)"', r'"\1":\2', body)
    return ('{"displayTimeUnit":"ns","metadata":{"highres-ticks":true},"traceEvents":[\n' + body +
            (",\n" if parts else "") + "{}]}\n")


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    with open(args[0], "rb") as f:
        data = f.read()
    drop = next((a.split("=", 1)[1].split(",") for a in argv if a.startswith("--drop-stats=")), [])
    events = convert(data, entries="--entries" in argv, keep_internal="--keep-internal" in argv, drop_stats=set(drop))
    text_ = dumps(events)
    if "--entries" in argv:
        import re
        text_ = re.sub(r'\["(-?[0-9.]+)",', r'[\1,', text_)
    opener = gzip.open if args[1].endswith(".gz") else open
    with opener(args[1], "wt") as f:
        f.write(text_)


if __name__ == "__main__":
    main(sys.argv)
