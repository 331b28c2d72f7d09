#!/usr/bin/env python3
"""Writes a TF1 RunMetadata of a GPU step as TF1's executor and GPU tracer (CUPTI) record
it, byte by byte from TensorFlow's field numbers (step_stats.proto), plus the numbers a
reader must find in it:

  * "/job:localhost/replica:0/task:0/device:GPU:0": the executor's ops (label "n = Op(in)");
  * "/device:GPU:0/stream:all": every kernel (node_name = kernel, label "<kernel> @@node:Op#id=..#");
  * "/device:GPU:0/memcpy": every copy (label "MEMCPYHtoD ... @@node:Op#...#");
  * "/device:GPU:0/stream:7" and "/stream:8": each kernel and copy again, on its stream.

  make_tf1_gpu_run_metadata.py OUT.pb OUT.expected.json
"""
import json
import sys

from xspace_wire import bfield, vfield



T0 = 1700000000000000  # us


def node(name, label, start_us, dur_us, thread_id=0):
    m = bfield(1, name) + vfield(2, start_us) + vfield(3, 0) + vfield(4, dur_us) + vfield(5, dur_us)
    return m + bfield(8, label) + vfield(10, thread_id)


def device(name, nodes):
    return bfield(1, bfield(1, name) + b"".join(bfield(2, n) for n in nodes))


executor = [
    node("x", "x = _Recv()", T0, 5),
    node("dense/MatMul", "dense/MatMul = MatMul(x, dense/kernel)", T0 + 6, 4),
    node("dense/Relu", "dense/Relu = Relu(dense/MatMul)", T0 + 11, 2),
    node("out", "out = _Send(dense/Relu)", T0 + 14, 3),
]
# (kernel or copy name, node:Op, start, duration, stream, is copy)
activity = [
    ("MEMCPYHtoD", "x:_Recv", 20, 8, 8, True),
    ("volta_sgemm_128x64_nn", "dense/MatMul:MatMul", 30, 25, 7, False),
    ("Eigen::internal::EigenMetaKernel", "dense/Relu:Relu", 57, 6, 7, False),
    ("volta_sgemm_128x64_nn", "dense/MatMul:MatMul", 64, 24, 7, False),
    ("MEMCPYDtoH", "out:_Send", 90, 7, 8, True),
]
stream_all, memcpy, streams = [], [], {}
for i, (kname, nodeop, start, dur, stream, copy) in enumerate(activity):
    label = "%s @@%s#id=%d,iter=0#" % (kname, nodeop, i)
    n = node(kname, label, T0 + start, dur)
    (memcpy if copy else stream_all).append(n)
    streams.setdefault(stream, []).append(n)
devices = device("/job:localhost/replica:0/task:0/device:GPU:0", executor)
devices += device("/device:GPU:0/stream:all", stream_all)
devices += device("/device:GPU:0/memcpy", memcpy)
for s, nodes in sorted(streams.items()):
    devices += device("/device:GPU:0/stream:%d" % s, nodes)
with open(sys.argv[1], "wb") as f:
    f.write(bfield(1, devices))  # RunMetadata.step_stats = 1 { dev_stats = 1 ... }

kernels = [a for a in activity if not a[5]]
copies = [a for a in activity if a[5]]

def idle_ns(intervals):
    """Span from the first start to the last end, minus the time covered by any interval."""
    covered, end = 0, None
    for s, e in sorted(intervals):
        if end is None or s >= end:
            covered += e - s
            end = e
        elif e > end:
            covered += e - end
            end = e
    return (max(e for _, e in intervals) - min(s for s, _ in intervals) - covered) * 1000


expected = {
    "kernels": len(kernels),
    "kernel_ns": sum(a[3] for a in kernels) * 1000,
    "copies": len(copies),
    "copy_ns": sum(a[3] for a in copies) * 1000,
    "executor_ops": len(executor),
    # One GPU: its kernels (stream:all) and copies (memcpy) together; here 77 us of span, 70 busy.
    "device_idle_ns": idle_ns([(a[2], a[2] + a[3]) for a in activity]),
    # Device ops by node: kernels and copies attributed to the node in their label.
    "device_ops": {nodeop.split(":")[0]: sum(a[3] * 1000 for a in activity if a[1] == nodeop)
                   for _, nodeop, _, _, _, _ in activity},
}
with open(sys.argv[2], "w") as f:
    json.dump(expected, f, indent=1)
    f.write("\n")
