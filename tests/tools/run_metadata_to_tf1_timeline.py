#!/usr/bin/env python3
"""Writes the Chrome trace JSON that TF1's timeline.Timeline(step_stats)
.generate_chrome_trace_format() writes for a RunMetadata (or bare StepStats) file, the way
that class does it (reference perfetto_chrome.md §1.9), walking the protobuf wire format by
hand (xspace_wire.py; no protobuf package, no TraceScope code):

  * {"traceEvents": [...]}, pretty-printed with indent 4, all "M" events first;
  * pid 0 "Allocators", then per device "<device> Compute" and "<device> Tensors" (process_name
    only: no thread names, no sort indices);
  * one "X" event per NodeExecStats: cat "Op", name = op type, integer microseconds
    ts = all_start_micros, dur = all_end_rel_micros, tid = a lane (the first lane whose last
    end is before the start), args {"name": node, "op": type, "input0": ...} from the
    timeline label "name = Op(in0, in1)"; on the GPU tracer's devices ("/stream:", "/memcpy")
    node and op come from the kernel label's "@@node:Op#" part;
  * dataflow arrows "s"/"t" (cat "DataFlow", name = tensor) from the producing op's end to
    the consuming op's start when they are on different pids or lanes (inputs with a "/_N"
    suffix are looked up without it).

  run_metadata_to_tf1_timeline.py IN.pb OUT.json
"""
import json
import re
import sys

from xspace_wire import fields, text

LABEL = re.compile(r"(.*) = (.*)\((.*)\)")


def node_stats(buf):
    n = {"name": "", "start": 0, "end_rel": 0, "op_end_rel": 0, "label": "", "outputs": []}
    for num, _, v in fields(buf):
        if num == 1:
            n["name"] = text(v)
        elif num == 2:
            n["start"] = v
        elif num == 4:
            n["op_end_rel"] = v
        elif num == 5:
            n["end_rel"] = v
        elif num == 7:
            slot = 0
            for onum, _, ov in fields(v):
                if onum == 1:
                    slot = ov
            n["outputs"].append(slot)
        elif num == 8:
            n["label"] = text(v)
    return n


def devices(data):
    """[(device name, [node stats])] from RunMetadata (field 1 StepStats) or a bare StepStats."""
    def dev_stats(step_stats):
        out = []
        for num, wt, v in fields(step_stats):
            if num != 1 or wt != 2:
                continue
            name, nodes = "", []
            for dnum, _, dv in fields(v):
                if dnum == 1:
                    name = text(dv)
                elif dnum == 2:
                    nodes.append(node_stats(dv))
            out.append((name, nodes))
        return out

    first = next(fields(data), None)
    if first is None:
        return []
    # RunMetadata: field 1 is StepStats whose field 1 is a DeviceStepStats starting with a name.
    step = first[2]
    inner = next(fields(step), None)
    if inner is not None and inner[1] == 2 and bytes(inner[2][:1]) != b"/":
        return dev_stats(step)
    return dev_stats(data)


def parse_label(label):
    m = LABEL.match(label)
    if not m:
        return None, None, []
    nn, op, inputs = m.groups()
    return nn, op, (inputs.split(", ") if inputs else [])


def kernel_label(label, node_name):
    start, end = label.find("@@"), label.find("#")
    if start >= 0 and end >= 0 and start + 2 < end:
        node_name = label[start + 2:end]
    name, op = (node_name.split(":") + ["unknown"])[:2]
    return name, op


def convert(data):
    devs = devices(data)
    events = [{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "Allocators"}}]
    pids = {}
    pid = 1
    for name, _ in devs:
        pids[name] = pid
        events.append({"name": "process_name", "ph": "M", "pid": pid, "args": {"name": name + " Compute"}})
        events.append({"name": "process_name", "ph": "M", "pid": pid + 1, "args": {"name": name + " Tensors"}})
        pid += 2
    # Lanes: the first lane whose last end is before the start (strictly).
    for _, nodes in devs:
        lanes = [0]
        for n in nodes:
            lane = -1
            for i, last in enumerate(lanes):
                if n["start"] > last:
                    lane = i
                    lanes[i] = n["start"] + n["end_rel"]
                    break
            if lane < 0:
                lane = len(lanes)
                lanes.append(n["start"] + n["end_rel"])
            n["lane"] = lane
    flow_starts = {}
    for dname, nodes in devs:
        for n in nodes:
            for slot in n["outputs"]:
                tensor = n["name"] if slot == 0 else "%s:%d" % (n["name"], slot)
                flow_starts[tensor] = (n["start"] + n["end_rel"], pids[dname], n["lane"])
    flows = []
    flow_id = 0
    for dname, nodes in devs:
        gputrace = "/stream:" in dname or "/memcpy" in dname
        dpid = pids[dname]
        for n in nodes:
            inputs = []
            if gputrace:
                node, op = kernel_label(n["label"], n["name"])
            elif n["name"] == "RecvTensor":
                node, op = n["name"], "RecvTensor"
            else:
                _, op, inputs = parse_label(n["label"])
                node = n["name"]
                if op is None:
                    op = n["name"]
            args = {"name": node, "op": op}
            for i, iname in enumerate(inputs):
                args["input%d" % i] = iname
            events.append({"ph": "X", "cat": "Op", "name": op, "pid": dpid, "tid": n["lane"], "ts": n["start"],
                           "dur": n["end_rel"], "args": args})
            for iname in inputs:
                if iname not in flow_starts:
                    k = iname.rfind("/_")
                    if k > 0:
                        iname = iname[:k]
                if iname in flow_starts:
                    t0, p0, l0 = flow_starts[iname]
                    if p0 != dpid or l0 != n["lane"]:
                        flows.append({"ph": "s", "cat": "DataFlow", "name": iname, "pid": p0, "tid": l0, "ts": t0,
                                      "id": flow_id})
                        flows.append({"ph": "t", "cat": "DataFlow", "name": iname, "pid": dpid, "tid": n["lane"],
                                      "ts": n["start"], "id": flow_id})
                        flow_id += 1
    return events + flows


def dumps(events):
    return json.dumps({"traceEvents": events}, indent=4)


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    with open(argv[1], "rb") as f:
        data = f.read()
    with open(argv[2], "w") as f:
        f.write(dumps(convert(data)))


if __name__ == "__main__":
    main(sys.argv)
