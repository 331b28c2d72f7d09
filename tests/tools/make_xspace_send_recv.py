#!/usr/bin/env python3
"""Writes a tiny XSpace, byte by byte from the field numbers of tsl's xplane.proto (no
protobuf package, no TraceScope code), holding TensorFlow's internal send/recv ops beside
normal ones: the case for XProf's op-name rule (TSL's tf_op_utils.cc, IsTfOpName: a TF op
name begins with a letter, a digit or '.'; an event named "_send_y_0:_Send" is no TF op).

    make_xspace_send_recv.py OUT.xplane.pb

Times in ns from the lines' start (both planes' lines start at T0_NS):

/host:CPU, line 1 "tf_Compute":
    model/dense/MatMul:MatMul  [1000, 4000)
      _recv_x_0:_Recv          [1500, 2500)   nested in MatMul
    _send_y_0:_Send            [4200, 4800)
    n/_1:_HostRecv             [6000, 6400)   a valid name: "n/_1" begins with a letter
    _send_z_0:_Send            [8000, 9000)   after the line's last valid op
/host:CPU, line 2 "tf_inter_op":
    _send_w_0:_HostSend        [0, 500)       the line's only event
/device:GPU:0, line 7 "Stream #7(Kernel)":
    volta_sgemm_128x64_nn      [2000, 3500)   kernel, tf_op model/dense/MatMul:MatMul
    MemcpyDToH                 [4500, 4800)   copy, tf_op _send_y_0:_Send

The expected figures, worked out by hand, are in tests/analysis/tst_xprof_op_rule.cc and checked
against XProf itself by tests/peers (peers_xprof_send_recv).
"""
import sys

from xspace_wire import bfield, vfield

T0_NS = 1_700_000_000_000_000_000


# XStatMetadata ids (per plane; the same table is written into both planes).
STATS = {1: "tf_op", 2: "kernel_details", 3: "memcpy_details"}


def stat_str(metadata_id, text):  # XStat{metadata_id = 1, str_value = 5}
    return bfield(4, vfield(1, metadata_id) + bfield(5, text))


def event(metadata_id, start_ns, dur_ns, stats=b""):  # XEvent{metadata_id 1, offset_ps 2, duration_ps 3, stats 4}
    return bfield(4, vfield(1, metadata_id) + vfield(2, start_ns * 1000) + vfield(3, dur_ns * 1000) + stats)


def line(line_id, name, events):  # XLine{id 1, name 2, timestamp_ns 3, events 4}
    return bfield(3, vfield(1, line_id) + bfield(2, name) + vfield(3, T0_NS) + b"".join(events))


def plane(plane_id, name, event_names, lines):
    # XPlane{id 1, name 2, lines 3, event_metadata 4 (map<int64, XEventMetadata>), stat_metadata 5}
    body = vfield(1, plane_id) + bfield(2, name) + b"".join(lines)
    for mid, ename in event_names.items():
        body += bfield(4, vfield(1, mid) + bfield(2, vfield(1, mid) + bfield(2, ename)))
    for sid, sname in STATS.items():
        body += bfield(5, vfield(1, sid) + bfield(2, vfield(1, sid) + bfield(2, sname)))
    return bfield(1, body)  # XSpace{planes 1}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    host_names = {1: "model/dense/MatMul:MatMul", 2: "_recv_x_0:_Recv", 3: "_send_y_0:_Send",
                  4: "n/_1:_HostRecv", 5: "_send_z_0:_Send", 6: "_send_w_0:_HostSend"}
    host = plane(0, "/host:CPU", host_names, [
        line(1, "tf_Compute", [event(1, 1000, 3000), event(2, 1500, 1000), event(3, 4200, 600),
                               event(4, 6000, 400), event(5, 8000, 1000)]),
        line(2, "tf_inter_op", [event(6, 0, 500)]),
    ])
    kernel = stat_str(1, "model/dense/MatMul:MatMul") + stat_str(
        2, "regs:32 static_shared:0 dynamic_shared:0 grid:10,1,1 block:128,1,1")
    copy = stat_str(1, "_send_y_0:_Send") + stat_str(3, "kind_src:device kind_dst:host size:1024")
    device = plane(1, "/device:GPU:0", {1: "volta_sgemm_128x64_nn", 2: "MemcpyDToH"}, [
        line(7, "Stream #7(Kernel)", [event(1, 2000, 1500, kernel), event(2, 4500, 300, copy)]),
    ])
    with open(sys.argv[1], "wb") as f:
        f.write(host + device)


if __name__ == "__main__":
    main()
