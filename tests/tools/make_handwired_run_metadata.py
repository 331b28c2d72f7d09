#!/usr/bin/env python3
"""Writes a TF1 RunMetadata file byte by byte from TensorFlow's field numbers
(config.proto RunMetadata, step_stats.proto, tensor_description.proto,
allocation_description.proto), without any protobuf library or our own .proto,
plus the values a reader must find in it as JSON.

    make_handwired_run_metadata.py OUT.pb OUT.expected.json
"""
import json
import sys

from xspace_wire import bfield, vfield


T0_US = 1650000000000000
DEVICE = "/job:worker/replica:0/task:1/device:GPU:1"


def allocation_record(us, nbytes):            # AllocationRecord
    return vfield(1, us) + vfield(2, nbytes)  # alloc_micros = 1, alloc_bytes = 2


def node(name, label, start_us, dur_us, thread_id=0, memory=b"", outputs=b"", nanos=None):
    m = bfield(1, name)                        # node_name = 1
    m += vfield(2, start_us)                   # all_start_micros = 2
    m += vfield(3, 1)                          # op_start_rel_micros = 3
    m += vfield(4, dur_us)                     # op_end_rel_micros = 4
    m += vfield(5, dur_us)                     # all_end_rel_micros = 5
    m += memory                                # memory = 6 (AllocatorMemoryUsed)
    m += outputs                               # output = 7 (NodeOutput)
    m += bfield(8, label)                      # timeline_label = 8
    m += vfield(9, start_us - 2)               # scheduled_micros = 9
    m += vfield(10, thread_id)                 # thread_id = 10 (uint32)
    if nanos:
        m += vfield(13, nanos[0])              # all_start_nanos = 13
        m += vfield(16, nanos[1])              # all_end_rel_nanos = 16
    return m


def memory(allocator, records, in_use):        # AllocatorMemoryUsed
    m = bfield(1, allocator)                   # allocator_name = 1
    m += vfield(2, 4096) + vfield(3, 4096) + vfield(4, 0)  # total, peak, live bytes
    m += vfield(5, in_use)                     # allocator_bytes_in_use = 5
    for us, nbytes in records:
        m += bfield(6, allocation_record(us, nbytes))  # allocation_records = 6
    return bfield(6, m)


def output(slot, requested):                   # NodeOutput
    alloc = vfield(1, requested) + vfield(2, requested) + bfield(3, "GPU_1_bfc")  # AllocationDescription
    dims = bfield(2, vfield(1, 32)) + bfield(2, vfield(1, 4))   # TensorShapeProto.dim = 2, Dim.size = 1
    desc = vfield(1, 1) + bfield(2, dims) + bfield(4, alloc)    # dtype = 1, shape = 2, allocation_description = 4
    return bfield(7, vfield(1, slot) + bfield(3, desc))         # slot = 1, tensor_description = 3


nodes = [
    node("x", "x = Placeholder()", T0_US, 3, outputs=output(0, 512)),
    node("w", "w = VariableV2()", T0_US + 1, 2, thread_id=5, outputs=output(0, 2048)),
    node("mm", "mm = MatMul(x, w)", T0_US + 4, 10, thread_id=5,
         memory=memory("GPU_1_bfc", [(T0_US + 5, 4096), (T0_US + 12, -4096)], 8192),
         nanos=((T0_US + 4) * 1000 + 250, 9750)),
    node("out", "out = Softmax(mm)", T0_US + 6, 4),
]
dev = bfield(1, DEVICE) + b"".join(bfield(2, n) for n in nodes)  # device = 1, node_stats = 2
dev += bfield(3, vfield(1, 5) + bfield(2, "gpu_worker_5"))         # thread_names = 3: key = 1, value = 2
step_stats = bfield(1, dev)                                        # StepStats.dev_stats = 1
run = bfield(1, step_stats)                                        # RunMetadata.step_stats = 1
run += bfield(2, bfield(1, b"\x08\x01"))                           # cost_graph = 2 (skipped by readers)
run += bfield(3, bfield(1, bfield(1, "node")))                     # partition_graphs = 3 (skipped)

with open(sys.argv[1], "wb") as f:
    f.write(run)

# Greedy lanes in start order (first lane whose last end <= start):
# x [0,3) lane 0; w [1,3) lane 1; mm [4.25,14) lane 0; out [6,10) lane 1.
expected = {
    "device": DEVICE,
    "origin_unix_ns": T0_US * 1000,
    "slices": [
        {"name": "x", "op": "Placeholder", "start_ns": 0, "dur_ns": 3000, "lane": "lane 0", "inputs": []},
        {"name": "w", "op": "VariableV2", "start_ns": 1000, "dur_ns": 2000, "lane": "lane 1", "inputs": [],
         "thread_name": "gpu_worker_5"},
        {"name": "mm", "op": "MatMul", "start_ns": 4250, "dur_ns": 9750, "lane": "lane 0", "inputs": ["x", "w"],
         "thread_name": "gpu_worker_5"},
        {"name": "out", "op": "Softmax", "start_ns": 6000, "dur_ns": 4000, "lane": "lane 1", "inputs": ["mm"]},
    ],
    # x (lane 0) -> mm (lane 0) is on one lane: no arrow.
    "flows": [["w", "mm"]],
    "counter": {"name": "GPU_1_bfc", "time_ns": [5000, 12000], "value": [4096, 0]},
}
with open(sys.argv[2], "w") as f:
    json.dump(expected, f, indent=1)
    f.write("\n")
