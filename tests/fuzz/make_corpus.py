#!/usr/bin/env python3
"""Writes the hand-made seed inputs of the fuzz targets into tests/fuzz/corpus/<target>/.
The files are committed; run this again after changing it. `make_corpus.py wrap-reply
xspace|tool_data < XSPACE > REPLY` wraps an XSpace as a ProfileResponse (for make_seeds.sh). No protobuf library: the
XSpace and RunMetadata seeds are written with the wire format by hand."""
import gzip
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def vf(n, v):
    return varint(n << 3) + varint(v)


def lf(n, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(n << 3 | 2) + varint(len(payload)) + payload


def df(n, v):
    return varint(n << 3 | 1) + struct.pack("<d", v)


def stat(meta, kind, value):
    body = vf(1, meta)
    if kind == "u":
        body += vf(3, value)
    elif kind == "i":
        body += vf(4, value)
    elif kind == "s":
        body += lf(5, value)
    elif kind == "d":
        body += df(2, value)
    elif kind == "r":
        body += vf(7, value)
    return body


def xspace(extreme=False):
    # Stat metadata: 1 correlation_id, 2 tf_op, 3 group_id, 4 step_num, 5 kernel_details, 6 hlo_op
    stat_names = {1: "correlation_id", 2: "tf_op", 3: "group_id", 4: "step_num", 5: "kernel_details", 6: "hlo_op"}
    smeta = b"".join(lf(5, vf(1, k) + lf(2, vf(1, k) + lf(2, n))) for k, n in stat_names.items())
    host_emeta = {1: "Step 0", 2: "train_step", 3: "cudaLaunchKernel", 4: "MemoryAllocation"}
    dev_emeta = {1: "fusion.1", 2: "gemm_kernel"}

    def emeta(d):
        return b"".join(lf(4, vf(1, k) + lf(2, vf(1, k) + lf(2, n))) for k, n in d.items())

    ts = (1 << 62) if extreme else 1_700_000_000_000_000_000
    big_ps = (1 << 63) - 1 if extreme else 5_000_000
    host_events = (
        lf(4, vf(1, 1) + vf(2, 0) + vf(3, 100_000_000) + lf(4, stat(3, "i", 0)) + lf(4, stat(4, "i", 0)))
        + lf(4, vf(1, 2) + vf(2, 1_000_000) + vf(3, 50_000_000) + lf(4, stat(2, "s", "model/dense/MatMul:MatMul")))
        + lf(4, vf(1, 3) + vf(2, 2_000_000) + vf(3, big_ps) + lf(4, stat(1, "u", 7)))
        + lf(4, vf(1, 4) + vf(2, 3_000_000) + vf(3, 0) + lf(4, stat(6, "d", 1.5)))
    )
    host_line = vf(1, 1) + lf(2, "python") + vf(3, ts) + host_events
    host_plane = vf(1, 1) + lf(2, "/host:CPU") + lf(3, host_line) + emeta(host_emeta) + smeta
    dev_events = (
        lf(4, vf(1, 1) + vf(2, 0) + vf(3, 4_000_000) + lf(4, stat(6, "s", "fusion.1")) + lf(4, stat(1, "u", 7)))
        + lf(4, vf(1, 2) + vf(2, 4_000_000) + vf(3, 2_000_000) + lf(4, stat(5, "s", "regs:32 static_shared:0 grid:1,1,1 block:128,1,1")))
    )
    dev_line = vf(1, 2) + lf(2, "Stream #7(Compute)") + vf(3, ts + 1000) + dev_events
    ops_line = vf(1, 3) + lf(2, "XLA Ops") + vf(3, ts + 1000) + dev_events
    dev_plane = vf(1, 2) + lf(2, "/device:GPU:0") + lf(3, dev_line) + lf(3, ops_line) + emeta(dev_emeta) + smeta
    return lf(1, host_plane) + lf(1, dev_plane) + lf(4, "host0")


def hlo_proto():
    """An xla.HloProto: a fused add-multiply, a dot, a convolution-free reduce with its reducer, a
    cuBLAS call with its backend config, and a buffer assignment with a heap simulation."""
    def shape(etype, dims):
        return vf(2, etype) + b"".join(vf(3, d) for d in dims) + lf(5, b"".join(vf(1, k) for k in reversed(range(len(dims)))))

    def instr(iid, name, opcode, etype, dims, operands=(), called=(), extra=b""):
        return lf(2, lf(1, name) + lf(2, opcode) + lf(3, shape(etype, dims)) + vf(35, iid)
                  + b"".join(vf(36, o) for o in operands) + b"".join(vf(38, c) for c in called) + extra)

    f32 = 11
    fused = (lf(1, "fused") + vf(5, 100) + vf(6, 3)
             + instr(1, "fp0", "parameter", f32, [8]) + instr(2, "fp1", "parameter", f32, [8])
             + instr(3, "fm", "multiply", f32, [8], [1, 2]))
    reducer = (lf(1, "add") + vf(5, 101) + vf(6, 6)
               + instr(4, "r0", "parameter", f32, []) + instr(5, "r1", "parameter", f32, []) + instr(6, "rs", "add", f32, [], [4, 5]))
    dot_dims = lf(30, vf(1, 1) + vf(2, 0))
    gemm_config = lf(43, '{"gemm_backend_config":{"dot_dimension_numbers":{"lhs_contracting_dimensions":["1"]}}}')
    main = (lf(1, "main") + vf(5, 102) + vf(6, 16)
            + instr(10, "x", "parameter", f32, [8, 8]) + instr(11, "y", "parameter", f32, [8])
            + instr(12, "fusion.1", "fusion", f32, [8], [11, 11], [100], lf(11, "kLoop"))
            + instr(13, "dot.1", "dot", f32, [8, 8], [10, 10], extra=dot_dims)
            + instr(14, "zero", "constant", f32, [])
            + instr(15, "reduce.1", "reduce", f32, [8], [13, 14], [101], vf(14, 1))
            + instr(16, "gemm", "custom-call", f32, [8, 8], [10, 10], extra=lf(28, "__cublas$gemm") + gemm_config))
    module = lf(1, "jit_fuzz") + lf(3, fused) + lf(3, reducer) + lf(3, main) + vf(6, 102)
    buffers = b"".join(lf(1, vf(1, k) + vf(2, 32 * k) + lf(3, vf(4, 10 + k))) for k in range(1, 5))
    allocations = lf(3, vf(1, 0) + vf(2, 256) + vf(5, 1) + lf(9, vf(1, 1) + vf(3, 32))) + lf(3, vf(1, 1) + vf(2, 512))
    events = b"".join(lf(1, vf(1, kind) + vf(2, buf)) for kind, buf in ((0, 2), (0, 3), (1, 2), (0, 4), (2, 3), (1, 3), (1, 4)))
    assignment = buffers + allocations + lf(4, events + vf(2, 1))
    return lf(1, module) + lf(3, assignment)


def run_metadata():
    # RunMetadata{1 step_stats{1 dev_stats{1 device, 2 node_stats{1 node_name, 2 all_start_micros,
    # 3 op_start_rel_micros, 4 op_end_rel_micros, 5 all_end_rel_micros, 6 memory, 8 timeline_label}}}}
    node = lf(1, "MatMul") + vf(2, 1_600_000_000_000_000) + vf(3, 1) + vf(4, 9) + vf(5, 10) + lf(8, "MatMul = MatMul(a, b)")
    node2 = lf(1, "Add") + vf(2, 1_600_000_000_000_005) + vf(3, 0) + vf(4, 3) + vf(5, 3) + lf(8, "Add = Add(MatMul, c)")
    dev = lf(1, "/job:localhost/replica:0/task:0/device:GPU:0") + lf(2, node) + lf(2, node2)
    dev2 = lf(1, "/job:localhost/replica:0/task:0/device:GPU:0/stream:all") + lf(2, node)
    return lf(1, lf(1, dev) + lf(1, dev2))


def kineto():
    return {
        "schemaVersion": 1,
        "deviceProperties": [{"id": 0, "name": "NVIDIA H100", "computeMajor": 9, "computeMinor": 0, "numSms": 132}],
        "traceEvents": [
            {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 100},
            {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 110, "dur": 30,
             "args": {"Input Dims": [[2, 3], [3, 4]], "Input type": ["float", "float"], "External id": 5}},
            {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 115, "dur": 5,
             "args": {"correlation": 42, "External id": 5}},
            {"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 0, "tid": 7, "ts": 125, "dur": 10,
             "args": {"correlation": 42, "device": 0, "stream": 7, "grid": [1, 1, 1], "block": [128, 1, 1],
                      "registers per thread": 32, "shared memory": 0}},
            {"ph": "f", "id": 42, "pid": 0, "tid": 7, "ts": 125, "cat": "ac2g", "name": "ac2g", "bp": "e"},
            {"ph": "s", "id": 42, "pid": 1, "tid": 1, "ts": 115, "cat": "ac2g", "name": "ac2g"},
            {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 7, "ts": 140, "dur": 3,
             "args": {"correlation": 43, "bytes": 1024}},
            {"ph": "X", "cat": "python_function", "name": "train.py(10): step", "pid": 1, "tid": 1, "ts": 105, "dur": 90},
            {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1, "ts": 120, "s": "t",
             "args": {"Total Allocated": 4096, "Bytes": 4096, "Device Id": 0, "Addr": 1}},
            {"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "GPU 0"}},
            {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7"}},
        ],
    }


def chrome_misc():
    return [
        {"ph": "B", "name": "outer", "pid": 1, "tid": 1, "ts": 0},
        {"ph": "X", "name": "inner", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": {"a": {"b": [1, 2.5, "x", None, True]}}},
        {"ph": "E", "pid": 1, "tid": 1, "ts": 5},
        {"ph": "X", "name": "overlap", "pid": 1, "tid": 1, "ts": 4, "dur": 4},
        {"ph": "C", "name": "ctr", "pid": 1, "ts": 2, "args": {"v": 3, "w": 1.5}},
        {"ph": "b", "cat": "c", "name": "async", "id": "0x1", "pid": 1, "ts": 1},
        {"ph": "n", "cat": "c", "name": "step", "id": "0x1", "pid": 1, "ts": 2},
        {"ph": "e", "cat": "c", "name": "async", "id": "0x1", "pid": 1, "ts": 6},
        {"ph": "S", "name": "legacy", "id": 2, "pid": 1, "ts": 1},
        {"ph": "F", "name": "legacy", "id": 2, "pid": 1, "ts": 3},
        {"ph": "i", "name": "global", "s": "g", "ts": 3},
        {"ph": "I", "name": "proc", "s": "p", "pid": 1, "ts": 3},
        {"ph": "s", "name": "flow", "id": 9, "pid": 1, "tid": 1, "ts": 1},
        {"ph": "t", "name": "flow", "id": 9, "pid": 1, "tid": 2, "ts": 2},
        {"ph": "f", "name": "flow", "id": 9, "pid": 1, "tid": 2, "ts": 3, "bp": "e"},
        {"ph": "X", "name": "t2", "pid": 1, "tid": 2, "ts": 2, "dur": 2, "tts": 1, "tdur": 1},
        {"ph": "M", "name": "thread_sort_index", "pid": 1, "tid": 2, "args": {"sort_index": -1}},
        {"ph": "O", "name": "snap", "id": "0x2", "pid": 1, "ts": 4, "args": {"snapshot": {}}},
        {"ph": "X", "name": "\u00e9\ud83d\ude00", "pid": "str-pid", "tid": "str-tid", "ts": "7", "dur": "1"},
    ]


def profile_response(xspace_bytes=None, tool_data=(), empty_trace=False):
    """A tensorflow.ProfileResponse (model/proto/profiler_service.proto): 6 tool_data
    {1 name, 2 data}, 7 empty_trace, 8 xspace."""
    out = b"".join(lf(6, lf(1, name) + lf(2, data)) for name, data in tool_data)
    if empty_trace:
        out += vf(7, 1)
    if xspace_bytes is not None:
        out += lf(8, xspace_bytes)
    return out


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main():
    k = json.dumps(kineto()).encode()
    m = json.dumps(chrome_misc()).encode()
    extreme = json.dumps([
        {"ph": "X", "name": "min", "pid": 1, "tid": 1, "ts": -9223372036854775, "dur": 1},
        {"ph": "X", "name": "max", "pid": 1, "tid": 1, "ts": 9223372036854775, "dur": 9223372036854775},
        {"ph": "X", "name": "e", "pid": 1, "tid": 2, "ts": 9.2e15, "dur": 9.2e15},
        {"ph": "B", "name": "open", "pid": 1, "tid": 3, "ts": -9.2e15},
        {"ph": "C", "name": "c", "pid": 1, "ts": 9223372036854775, "args": {"v": 1e308}},
    ]).encode()
    tf1 = json.dumps({"traceEvents": [
        {"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "/job:localhost/replica:0/task:0/device:GPU:0 Compute"}},
        {"ph": "X", "cat": "Op", "name": "MatMul", "pid": 0, "tid": 0, "ts": 10, "dur": 5,
         "args": {"name": "dense/MatMul", "op": "MatMul"}},
    ]}).encode()
    for name, data in [("kineto.json", k), ("misc.json", m), ("extreme_ts.json", extreme), ("tf1.json", tf1),
                       ("ws_lead.json", b"\n" * 300 + b" \t" + m)]:
        write("chrome_json", name, data)
        write("detect", name, data)
        write("analyses", name, data)
    write("chrome_gzip", "kineto", b"\x00\x00" + k)
    write("chrome_gzip", "misc_cut", b"\x40\xa0" + m)
    write("chrome_gzip", "misc_raw", b"\xff" + gzip.compress(m, mtime=0))
    write("chrome_gzip", "two_members", b"\xff" + gzip.compress(m[:40], mtime=0) + gzip.compress(m[40:], mtime=0))
    write("hlo", "hand.hlo.pb", hlo_proto())
    x, xe, rm = xspace(), xspace(extreme=True), run_metadata()
    for t in ("xspace", "detect", "analyses"):
        write(t, "hand.xplane.pb", x)
        write(t, "extreme.xplane.pb", xe)
    for t in ("run_metadata", "detect", "analyses"):
        write(t, "hand_run_metadata.pb", rm)
    run = "plugins/profile/2024_01_02_03_04_05/"
    write("logdir", "one_run", (run + "host0.xplane.pb\x01").encode() + x)
    write("logdir", "two_runs", (run + "a.xplane.pb\x01").encode() + x + b"\0" +
          ("plugins/profile/2023_12_31_23_59_59/b.xplane.pb\x01").encode() + x + b"\0" +
          b"plugins/profile/bad_name/\0")
    write("logdir", "special", (run + "host0.xplane.pb\x03\0" + run + "h1.xplane.pb\x02" + run + "\0" +
                                "train/plugins/profile/2024_01_01_00_00_00/x.xplane.pb\x01").encode() + xe)
    # A PyTorch profiler folder (tensorboard_trace_handler): two workers, two cycles each.
    k = b'{"traceEvents":[{"ph":"X","name":"ProfilerStep#1","ts":1,"dur":5,"pid":1,"tid":1}]}'
    write("logdir", "torch_cycles", b"\0".join(
        (name + "\x01").encode() + k for name in ("host_1.1700000000000000001.pt.trace.json",
                                                  "host_1.1700000000500000000.pt.trace.json",
                                                  "host_2.1700000000000000002.pt.trace.json",
                                                  "host_2.1700000000500000001.pt.trace.json")))
    # Replies of the three server generations (reference: TSL profiler_service_impl.cc), and
    # one that says the server wrote the file itself (its last byte is odd: the fuzz target
    # then plays the server and writes the file).
    write("capture_reply", "emit_xspace", profile_response(x))
    write("capture_reply", "emit_xspace_extreme", profile_response(xe))
    write("capture_reply", "tool_data", profile_response(tool_data=[("overview_page.pb", b"not an xspace"),
                                                                    ("xplane.pb", x)]))
    write("capture_reply", "empty_trace", profile_response(x, empty_trace=True))
    write("capture_reply", "server_wrote_file", profile_response(tool_data=[("trace.json.gz", b"\x01")]))
    write("capture_reply", "server_file_elsewhere", profile_response(tool_data=[("trace.json.gz", b"\x02")]))


def wrap_reply(mode, data):
    """make_seeds.sh: a real XSpace reply's bytes as a ProfileResponse, in `mode`."""
    if mode == "xspace":
        return profile_response(data)
    return profile_response(tool_data=[("xplane.pb", data)])


if __name__ == "__main__":
    import sys
    if len(sys.argv) == 3 and sys.argv[1] == "wrap-reply":
        sys.stdout.buffer.write(wrap_reply(sys.argv[2], sys.stdin.buffer.read()))
    else:
        main()
