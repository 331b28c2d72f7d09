#!/usr/bin/env python3
"""XProf as the reference: compares tracescope-cli's JSON with XProf's own converters on
one XSpace (.xplane.pb).

    compare_xprof.py --cli TRACESCOPE_CLI --peer-python VENV_PYTHON FILE.xplane.pb
                     [--xprof-dir DIR] [--report OUT.json]

XProf runs in a separate process (xprof_tools.py, in the peers' virtual environment); this
script only reads JSON and needs no package. One function per tool:

  framework_op_stats       <-> stats --json          per (side, op): occurrences, total, self time
  kernel_stats             <-> kernels --json        per kernel row: op, occurrences, total/min/max,
                                                     registers, shared memory, grid, block, TC flags
  overview_page            <-> overview --json       step count, step times, step-time breakdown
  input_pipeline_analyzer  <-> input-pipeline --json input-bound verdict, host input-op table
  memory_profile           <-> memory --json, --timeline-csv   per memory id: peak, stack/heap/free/
                                                     fragmentation at the peak, capacity, lifetime
                                                     peak, peak time and step, allocation and
                                                     deallocation counts, allocations alive at the peak
  trace_viewer             <-> convert --to chrome-json   events per (process, thread)

Tolerance: times are equal within 1 ns per occurrence + 1 ns (XProf sums picoseconds and
prints microseconds with 3 decimals; we round each event to nanoseconds). Counts, names,
launch parameters and flags are exact.

Every mismatch must be listed in EXPECTED below with its reason, or the test fails. An
expected difference that no longer occurs is reported ("now agrees") so the list can shrink;
it does not fail the test (other work fixes our figures while this list is being kept).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))


# ----------------------------------------------------------------------------------------
# Expected differences: a mismatch is expected when its tool is equal and its check, its
# subject and its file's base name each match the entry's regular expression (re.fullmatch).
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Expected:
    tool: str
    check: str    # regex over the check's name
    subject: str  # regex over the subject (op, kernel, step, thread)
    files: str    # regex over the file's base name
    reason: str

    def matches(self, m, base):
        return (self.tool == m.tool and re.fullmatch(self.check, m.check) and re.fullmatch(self.subject, m.subject)
                and re.fullmatch(self.files, base))


EXPECTED = []  # filled in below, next to the tool each entry belongs to

# The files the entries name (base names in ../shared/testdata and tests/data/peers).
JAX_NVIDIA = r"jax_mlp_h100\.xplane\.pb|jax0\.11\.2_h100_(steady|warmup)_emit_xspace\.xplane\.pb"
JAX_ROCM = r"tw003\.xplane\.pb|934987a2fc2f\.xplane\.pb"
TF24_GPU = r"34\.83\.195\.179_6003\.xplane\.pb"
# check_capture.py saves what it captures from the real servers under these names before comparing
JAX_CPU = r"jax_train_steps\.xplane\.pb|jax_default_capture\.xplane\.pb|captured_jax_cpu\.xplane\.pb"
TF_DATA_CPU = r"tf_data_slow_map\.xplane\.pb|captured_tf_cpu\.xplane\.pb"
TF_MEMORY_CPU = r"tf_memory_heavy\.xplane\.pb"
TF_KERAS_CPU = r"tf_keras_fit\.xplane\.pb"
GPU_FILES = f"{JAX_NVIDIA}|{JAX_ROCM}|{TF24_GPU}"
# Hand-made (tests/tools/make_xspace_send_recv.py): TensorFlow's internal _send/_recv ops beside normal ones
SEND_RECV = r"xprof_send_recv\.xplane\.pb"


# ----------------------------------------------------------------------------------------
# Plumbing
# ----------------------------------------------------------------------------------------
@dataclass
class Mismatch:
    tool: str
    check: str
    subject: str
    ours: object
    xprof: object

    def line(self):
        return f"{self.tool} / {self.check} / {self.subject}: ours {self.ours!r}, XProf {self.xprof!r}"


@dataclass
class Result:
    compared: dict = field(default_factory=dict)   # tool -> number of values compared
    agreed: dict = field(default_factory=dict)     # tool -> number of values equal
    mismatches: list = field(default_factory=list)
    notes: list = field(default_factory=list)

    def check(self, tool, check, subject, ours, xprof, equal):
        self.compared[tool] = self.compared.get(tool, 0) + 1
        if equal:
            self.agreed[tool] = self.agreed.get(tool, 0) + 1
        else:
            self.mismatches.append(Mismatch(tool, check, subject, ours, xprof))

    def same(self, tool, check, subject, ours, xprof):
        self.check(tool, check, subject, ours, xprof, ours == xprof)

    def time(self, tool, check, subject, ours_ns, xprof_ns, occurrences=1):
        tol = 1 + max(int(occurrences), 1)
        equal = ours_ns is not None and xprof_ns is not None and abs(ours_ns - xprof_ns) <= tol
        self.check(tool, check, subject, ours_ns, None if xprof_ns is None else round(xprof_ns), equal)


def us_to_ns(v):
    return None if v is None else float(v) * 1000.0


def ms_to_ns(v):
    return None if v is None else float(v) * 1e6


def datatable_rows(table):
    """A Google DataTable ({"cols": [{"id"}], "rows": [{"c": [{"v"}]}]}) as a list of dicts."""
    ids = [c.get("id") for c in table.get("cols", [])]
    return [{k: (cell or {}).get("v") for k, cell in zip(ids, r.get("c", []))} for r in table.get("rows", [])]


def run_cli(cli, *args):
    out = subprocess.run([cli, *args], check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return out.stdout


def cli_json(cli, command, path, *extra):
    return json.loads(run_cli(cli, command, path, *extra, "--json"))


def xprof_outputs(peer_python, path, out_dir):
    """XProf's tool outputs for `path`, made in a separate process unless out_dir has them."""
    if not os.path.exists(os.path.join(out_dir, "trace_viewer.json")):
        run = subprocess.run([peer_python, os.path.join(HERE, "xprof_tools.py"), path, out_dir],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            sys.exit(f"XProf's converters failed on {path}:\n{run.stderr[-4000:]}")
    tools = {}
    for name in os.listdir(out_dir):
        if name.endswith(".json"):
            with open(os.path.join(out_dir, name), encoding="utf-8") as f:
                tools[name[:-5]] = json.load(f)
    return tools


# ----------------------------------------------------------------------------------------
# framework_op_stats <-> stats --json
# ----------------------------------------------------------------------------------------
XPROF_OP_ROWS_PER_SIDE = 500  # XProf keeps the 500 ops with the most self time per side

EXPECTED += [
    Expected("framework_op_stats", r"total time|self time|self time incl\. IDLE", r"device( IDLE)?", GPU_FILES,
             "device IDLE: both measure each device over its active window (XProf's device total with IDLE is "
             "exactly the first-to-last activity on its stream lines); XProf's IDLE is that window minus its device "
             "op rows, which leave out activity without a framework op (next entries), ours the window minus the "
             "union of all device activity; and our total with IDLE exceeds the window where kernels overlap, as "
             "op self times are summed (jax_mlp 39,239 ns, tw003 4,200 ns, TF 2.4 94,240 ns)"),
    Expected("framework_op_stats", r"busy self time|op only in ours", r"device.*", JAX_NVIDIA,
             "JAX on NVIDIA: every kernel's tf_op is the generic 'XlaModule:' and XProf finds no op_name for its "
             "HLO instruction (the steady/warmup files hold no HLO protos; jax_mlp's kernels run in a command "
             "buffer, which has none), so XProf attributes no device time to a framework op (no device rows, all "
             "of it IDLE); we fall back to the HLO op (hlo_op stat; inside jax_mlp's command buffer, the HLO "
             "instruction each kernel ran, found from the program's HLO): one row per HLO op"),
    Expected("framework_op_stats", r"busy self time|op only in ours|op only in XProf|type", r"device.*", JAX_ROCM,
             "XProf names a device op by the op_name of the kernel's HLO instruction, read from the HLO protos "
             "in /host:metadata ('jit(loss_fn)/jvp()/concatenate'), else the HLO op with type Unknown, and leaves "
             "out kernels without an HLO op (ROCm runtime kernels: __amd_rocclr_copyBuffer, Im3d2Col); we do not "
             "read the HLO protos: our rows are HLO ops, and a kernel without one is a row of its own (tw003: "
             "the busy totals differ by exactly those kernels, 586,401 ns)"),
    Expected("framework_op_stats", r"busy self time|op only in ours", r"device.*", TF24_GPU,
             "TF 2.4 GPU kernels carry no tf_op stat, only the annotation stack ('level 0'): XProf 2.24 "
             "attributes them to no framework op (no device rows, all device time IDLE); we take the op from the "
             "outermost annotation"),
    Expected("framework_op_stats", r"op only in XProf|busy self time|self time incl\. IDLE|total time|self time",
             r"host( .*)?", f"{JAX_ROCM}|jax0\\.11\\.2_h100_warmup_emit_xspace\\.xplane\\.pb",
             "XProf counts every host event with a tf_op stat as a host op: JAX's launch events tagged "
             "'XlaModule:' (row XlaModule) and compile passes ('HLO Transforms'); we count only events named as "
             "framework ops (TF 'name:Type', tf.data 'Iterator::'), so host IDLE moves by the same time (the host "
             "total with IDLE agrees where we have host ops)"),
    Expected("framework_op_stats", r"occurrences|op only in XProf", r"host .*", f"{TF24_GPU}|{TF_MEMORY_CPU}|{TF_KERAS_CPU}",
             "MemoryAllocation/MemoryDeallocation markers (zero length) carry the tf_op of the op that allocated: "
             "XProf counts each as one more occurrence of that op (gradient_tape/replica_4/Tile: the op + one "
             "allocation = 2, same time; tf_keras_fit's adam/Pow: 8 ops + 8 allocations = 16); we count the op "
             "only. An op that ran only inside a wrapper we do not count as an op (tf_keras_fit's 'EagerLocalExecute: "
             "OptionalHasValue') is an XProf row of its 8 allocation markers alone"),
    Expected("framework_op_stats", r"total time|self time|self time incl\. IDLE", r"host( IDLE)?", TF_KERAS_CPU,
             "host IDLE: both measure each host thread from its first to its last op; XProf's ops include the "
             "allocation markers above and the tf.data threads' events it takes as ops. Summed over threads, the "
             "spans of ops named 'name:Type' come to 1,080.9 ms, with the tf_op markers 1,089.9 ms (XProf: "
             "1,087.4 ms), ours 945.6 ms; the rest of the gap is not explained yet"),
    Expected("framework_op_stats", r"total time|self time|self time incl\. IDLE", r"host( IDLE)?", TF24_GPU,
             "the same markers stretch the per-thread span XProf measures host IDLE over: recomputed with them "
             "3,323.32 ms (XProf 3,323.51 ms), without them 1,338.18 ms (ours)"),
]


def compare_op_stats(res, ours, xprof):
    tool = "framework_op_stats"
    xrows = datatable_rows(xprof[0])  # [0]: with IDLE, [1]: without
    theirs = {}
    for r in xrows:
        side = r["host_or_device"].lower()
        theirs[(side, r["operation"])] = r
    mine = {(r["side"], r["name"]): r for r in ours["rows"]}
    for side in ("host", "device"):
        x_side = {k: v for k, v in theirs.items() if k[0] == side}
        o_side = {k: v for k, v in mine.items() if k[0] == side}
        # Per-side totals: the sum of self time, IDLE included, and the busy part without it.
        x_total = sum(us_to_ns(r["total_self_time"]) for r in x_side.values())
        o_total = sum(r["self_ns"] for r in o_side.values())
        capped = len(x_side) >= XPROF_OP_ROWS_PER_SIDE
        if not capped:
            n = sum(int(r["occurrences"]) for r in x_side.values())
            x_busy = sum(us_to_ns(r["total_self_time"]) for k, r in x_side.items() if k[1] != "IDLE")
            o_busy = sum(r["self_ns"] for k, r in o_side.items() if k[1] != "IDLE")
            res.time(tool, "busy self time", side, o_busy, x_busy, n)
            res.time(tool, "self time incl. IDLE", side, o_total, x_total, n)
        for key, x in sorted(x_side.items()):
            o = o_side.get(key)
            subject = f"{side} {key[1]}"
            if o is None and key[1] == "IDLE" and us_to_ns(x["total_self_time"]) == 0:
                o = {"total_ns": 0, "self_ns": 0}  # we list no IDLE row for a side without ops
            if o is None:
                res.check(tool, "op only in XProf", subject, None, x["occurrences"], False)
                continue
            occ = int(x["occurrences"])
            if key[1] != "IDLE":
                res.same(tool, "occurrences", subject, o["occurrences"], occ)
                res.same(tool, "type", subject, o["type"], x["type"])
            res.time(tool, "total time", subject, o["total_ns"], us_to_ns(x["total_time"]), occ)
            res.time(tool, "self time", subject, o["self_ns"], us_to_ns(x["total_self_time"]), occ)
        floor = min((us_to_ns(r["total_self_time"]) for r in x_side.values()), default=0)
        for key, o in sorted(o_side.items()):
            if key in x_side:
                continue
            if capped and o["self_ns"] < floor:
                continue  # below XProf's 500-row cut
            res.check(tool, "op only in ours", f"{side} {key[1]}", o["occurrences"], None, False)
        if capped:
            res.notes.append(f"{tool}: XProf lists only its top {XPROF_OP_ROWS_PER_SIDE} {side} ops "
                             f"(ours {len(o_side)}); rows below its cut are not compared")


# ----------------------------------------------------------------------------------------
# kernel_stats <-> kernels --json
# ----------------------------------------------------------------------------------------
XPROF_KERNEL_ROWS = 1000

EXPECTED += [
    Expected("kernel_stats", r"op", r".*", JAX_NVIDIA,
             "JAX on NVIDIA: XProf's kernel op is the tf_op stat, the generic 'XlaModule' placeholder; ours is "
             "the HLO op (hlo_op stat), as in our op stats"),
    Expected("kernel_stats", r"rows", r"all", r"jax_mlp_h100\.xplane\.pb",
             "jax_mlp's kernels run in an XLA command buffer: XProf's rows are (kernel, configuration) under the "
             "one placeholder op, ours (kernel, configuration, HLO instruction it ran): a kernel XLA shares between "
             "identical fusions (fusion_34 runs fusion.34, .33 and .32) and a cuBLAS kernel of several GEMM calls "
             "are a row per instruction (30 against 24; kernel count and time agree)"),
    Expected("kernel_stats", r"op|TensorCore eligible", r".*", JAX_ROCM,
             "XProf's kernel op is the op_name of the kernel's HLO instruction from the HLO protos in "
             "/host:metadata ('jit(forward_3d_conv)/conv_general_dilated'; '' without one); ours is the HLO op "
             "(hlo_op stat); eligibility follows the op (XProf: conv/dot_general ops are eligible)"),
    Expected("kernel_stats", r"kernel only in XProf|kernel only in ours|rows", r".*", JAX_ROCM,
             "ROCm kernel_details give group_mem (LDS) instead of static_shared/dynamic_shared: we report "
             "group_mem as shared memory, XProf 2.24 parses only the CUDA keys and shows 0, so the same kernel "
             "has another row key (the kernel count and total kernel time agree)"),
    Expected("kernel_stats", r"op", r".*", SEND_RECV,
             "our kernel table's op column is the kernel's whole tf_op ('model/dense/MatMul:MatMul'), XProf's the op's "
             "name ('model/dense/MatMul'); for an op XProf does not take ('_send_y_0:_Send') both show the whole text"),
    Expected("kernel_stats", r"op|rows", r".*", TF24_GPU,
             "TF 2.4 kernels have no tf_op stat: XProf leaves the op empty and merges each launch configuration "
             "into one row (15 rows); we take the op from the annotation stack, one row per (configuration, op) "
             "(1,330 rows); per configuration the occurrences and times agree"),
]


def kernel_key(name, grid, block, regs, shmem):
    return (name, tuple(grid), tuple(block), int(regs), int(shmem))


def dims(text):
    return [int(x) for x in str(text).split(",")]


def compare_kernel_stats(res, ours, xprof):
    tool = "kernel_stats"
    x_rows = datatable_rows(xprof)
    theirs = {}
    for r in x_rows:
        k = kernel_key(r["kernel_name"], dims(r["grid_dim"]), dims(r["block_dim"]), r["registers_per_thread"],
                       r["shmem_bytes"])
        theirs.setdefault(k, []).append(r)
    mine = {}
    for r in ours["rows"]:
        k = kernel_key(r["name"], r["grid"], r["block"], r["registers"], r["shared_mem_bytes"])
        mine.setdefault(k, []).append(r)
    res.same(tool, "rows", "all", len(ours["rows"]), len(x_rows))
    x_total = sum(us_to_ns(r["total_duration_us"]) for r in x_rows)
    x_occ = sum(int(r["occurrences"]) for r in x_rows)
    if len(x_rows) < XPROF_KERNEL_ROWS:
        res.time(tool, "kernel time", "all", ours["total_kernel_ns"], x_total, x_occ)
        res.same(tool, "kernel count", "all", ours["kernel_count"], x_occ)
    for k, xs in sorted(theirs.items()):
        os_ = mine.get(k, [])
        subject = f"{k[0]} grid {k[1]} block {k[2]} regs {k[3]} shmem {k[4]}"
        if not os_:
            res.check(tool, "kernel only in XProf", subject, None, sum(int(x["occurrences"]) for x in xs), False)
            continue
        # A configuration may split by op and flags: compare the set of ops, then the sums.
        res.same(tool, "op", subject, sorted(o["op"] for o in os_), sorted(x["op_name"] for x in xs))
        occ = sum(int(x["occurrences"]) for x in xs)
        res.same(tool, "occurrences", subject, sum(o["occurrences"] for o in os_), occ)
        res.time(tool, "total time", subject, sum(o["total_ns"] for o in os_),
                 sum(us_to_ns(x["total_duration_us"]) for x in xs), occ)
        res.time(tool, "min time", subject, min(o["min_ns"] for o in os_), min(us_to_ns(x["min_duration_us"]) for x in xs))
        res.time(tool, "max time", subject, max(o["max_ns"] for o in os_), max(us_to_ns(x["max_duration_us"]) for x in xs))
        res.same(tool, "uses TensorCore", subject, sorted({o["uses_tensor_core"] for o in os_}),
                 sorted({bool(x["is_kernel_using_tensor_core"]) for x in xs}))
        res.same(tool, "TensorCore eligible", subject, sorted({o["tensor_core_eligible"] for o in os_}),
                 sorted({bool(x["is_op_tensor_core_eligible"]) for x in xs}))
        o_occ = [o.get("occupancy_pct") for o in os_]
        x_occ_pct = [x.get("occupancy_pct") for x in xs]
        if all(v is not None for v in o_occ + x_occ_pct):
            res.check(tool, "occupancy %", subject, sorted(o_occ), sorted(x_occ_pct),
                      all(abs(a - b) < 0.01 for a, b in zip(sorted(o_occ), sorted(x_occ_pct))))
    if len(x_rows) < XPROF_KERNEL_ROWS:
        for k, os_ in sorted(mine.items()):
            if k not in theirs:
                res.check(tool, "kernel only in ours", f"{k[0]} grid {k[1]} block {k[2]} regs {k[3]} shmem {k[4]}",
                          sum(o["occurrences"] for o in os_), None, False)


# ----------------------------------------------------------------------------------------
# overview_page <-> overview --json: steps and the step-time breakdown
# ----------------------------------------------------------------------------------------
# XProf's step-time graph columns and our category names.
BREAKDOWN = {
    "deviceComputeTimeMs": "Device compute",
    "deviceToDeviceTimeMs": "Device to device",
    "deviceCollectivesTimeMs": "Device collective communication",
    "hostComputeTimeMs": "Host compute",
    "kernelLaunchTimeMs": "Kernel launch",
    "infeedTimeMs": "Input",
    "outfeedTimeMs": "Output",
    "compileTimeMs": "Compilation",
    "otherTimeMs": "All others",
}

EXPECTED += [
    Expected("overview_page", r"step count|step time|step set|average step time \(0\.1 ms\)", r".*",
             r"jax_mlp_h100\.xplane\.pb",
             "XProf's GPU step time is the device step (first to last kernel of the step, ~0.466 ms) when the "
             "host marker does not contain it, as here (JAX dispatches asynchronously: the 'train' annotation, "
             "~1 ms, ends before its kernels), and XProf drops the first and last step as incomplete (10 -> 8); "
             "our steps are the host annotations"),
    Expected("overview_page", r"step count|step set", r"all", r"jax0\.11\.2_h100_steady_emit_xspace\.xplane\.pb",
             "XProf finds no step: on a GPU profile it drops steps without device compute, and it attributes no "
             "kernel to these 'train_step' annotations; we keep the 524 host annotations as steps, and our breakdown "
             "takes the kernels in each step's time window (520 of 524 steps have some), so our step set (XProf's "
             "rule on our breakdown) holds 518"),
    Expected("overview_page", r"step count \(inferred steps\)", r"all", r".*",
             "the file has no step marker: XProf finds no step, we infer iterations from a repeating top-level "
             "annotation or the period of the device work (overview's step_rule says which)"),
    Expected("overview_page", r"breakdown (Host compute|All others)|(input|other)_percent \(0\.1%\)",
             r"step train \d+|all", JAX_CPU,
             "CPU-only JAX: both take a step's host events from XProf's grouping (step_groups.h: the events "
             "nested in the 'train' annotation or linked to it by _p/_c stats), and agree in most steps; XProf "
             "also adds 'ThreadpoolListener::Region' events (StartRegion to StopRegion) and its PriorityTracker "
             "(event_span.cc) sorts a zero-length event's end before its start, so a grouped StartRegion at a "
             "moment when no other event of the step runs leaves Host compute on until the next event of the "
             "step ends (jax_train_steps step 2: from StartRegion at 1,787.926 us to the end of "
             "CommonPjRtBuffer::Await at 2,583.305 us, +794.7 us; step 4 +1.4 us; with the ThreadpoolListener "
             "events deleted from the file XProf gives ours exactly, and that boundary order applied to our groups gives XProf's "
             "Host compute in every step of jax_train_steps and of a live capture, 588 of 588); we count only time "
             "events cover. Tested: 'overview_page (marks removed)' compares ours with XProf on a copy of the file "
             "without the zero-length ThreadpoolListener marks, where every step, breakdown and percentage must agree "
             "(jax_default_capture: All others 64.3% in both; with the marks XProf says 36.0%)"),
    Expected("overview_page", r"breakdown .*|(input|other)_percent \(0\.1%\)", r"step 0|all", TF24_GPU,
             "TF 2.4 multi-GPU: XProf 2.24 makes a GPU profile's step breakdown from device events only "
             "(xplane_to_op_stats.cc uses the host step events only without a device plane), so its step 0 has "
             "only device compute and All others; ours also classifies the host events in the step window (Host "
             "compute 2.45 ms, Input 2.39 ms, Kernel launch 0.17 ms), and the overview's notes say so; device "
             "compute differs by 10.2 us (0.07%), not explained: XProf counts only device events grouped to the "
             "step (group_id) and classifies copies by their op name, which TF 2.4's MemcpyH2D/MemcpyD2H may not "
             "match (our Output is 12.1 us)"),
]


def xprof_step_number(stepnum):
    """XProf's step label: "12", or the step marker's name and number ("train 3")."""
    m = re.search(r"(\d+)$", str(stepnum))
    return int(m.group(1)) if m else None


def steps_inferred(ours):
    """Our steps came from step inference (no step marker in the file)."""
    return str(ours.get("step_source", "")).startswith("inferred")


def xprof_conclusion_percent(text, what):
    """The percentage XProf's input conclusion quotes for `what` ("waiting for input" or "spent on
    'All Others'"), or None when the conclusion is about the other one."""
    m = re.search(r"([0-9.]+)% of the total step time sampled is " + re.escape(what), text)
    return float(m.group(1)) if m else None


def compare_steps(res, ours, xprof, tool="overview_page"):
    x_steps = datatable_rows(xprof[1])
    inferred = steps_inferred(ours)
    count = "step count (inferred steps)" if inferred else "step count"
    # XProf lists its step set (steps with compute, without the first and the last when more than
    # 5); ours lists every step and names the set the averages are taken over.
    res.same(tool, count, "all", ours["step_set"]["count"], len(x_steps))
    x_numbers = sorted(xprof_step_number(x["stepnum"]) for x in x_steps)
    if not inferred:
        res.same(tool, "step set", "all", sorted(ours["step_set"]["numbers"]), x_numbers)
    p = xprof[1].get("p", {})
    if x_steps and not inferred:
        # XProf prints the average step time and the percentages with one decimal.
        avg_ms = ours["average_step_ns"] / 1e6
        res.check(tool, "average step time (0.1 ms)", "all", round(avg_ms, 2), p.get("steptime_ms_average"),
                  abs(avg_ms - float(p.get("steptime_ms_average", "nan"))) <= 0.05 + 1e-9)
        conclusion = p.get("input_conclusion", "")
        for what, key in (("waiting for input", "input_percent"), ("spent on 'All Others'", "other_percent")):
            theirs = xprof_conclusion_percent(conclusion, what)
            if theirs is not None:
                res.check(tool, f"{key} (0.1%)", "all", round(ours[key], 2), theirs,
                          abs(ours[key] - theirs) <= 0.05 + 1e-9)
    by_number = {}
    for s in ours["steps"]:
        by_number.setdefault(s["number"], s)
    for x in x_steps:
        number = xprof_step_number(x["stepnum"])
        o = by_number.get(number)
        subject = f"step {x['stepnum']}"
        if o is None:
            res.check(tool, "step only in XProf", subject, None, x["stepTimeMs"], False)
            continue
        before = len(res.mismatches)
        res.time(tool, "step time", subject, o["duration_ns"], ms_to_ns(x["stepTimeMs"]))
        if len(res.mismatches) != before:
            continue  # another step boundary: its breakdown cannot be compared
        for col, cat in BREAKDOWN.items():
            res.time(tool, "breakdown " + cat, subject, o["breakdown_ns"].get(cat), ms_to_ns(x.get(col)))


# ----------------------------------------------------------------------------------------
# input_pipeline_analyzer <-> input-pipeline --json: verdict and host input ops
# ----------------------------------------------------------------------------------------
EXPECTED += [
    Expected("input_pipeline_analyzer", r"input-bound verdict", r"all", r"jax_mlp_h100\.xplane\.pb",
             "follows from the steps: XProf's device steps are 1.4% All others (NOT input-bound), our host "
             "annotations 45% (POTENTIALLY input-bound)"),
    Expected("input_pipeline_analyzer", r"input-bound verdict", r"all",
             r"jax0\.11\.2_h100_steady_emit_xspace\.xplane\.pb",
             "follows from the steps: XProf has none (no verdict), ours are the host annotations"),
    Expected("input_pipeline_analyzer", r"input-bound verdict", r"all", TF24_GPU,
             "follows from the step breakdown: XProf has Input 0% and All others 30% (POTENTIALLY), ours Input "
             "11.2% (MODERATELY)"),
]


EXPECTED += [
    Expected("input_pipeline_analyzer", r"input-bound verdict \(inferred steps\)", r"all", r".*",
             "follows from the steps: without a step marker XProf has no step and no verdict; ours comes from the "
             "inferred steps"),
]


def xprof_verdict(text):
    t = text.lower()
    for word in ("highly", "moderately", "potentially"):
        if f"is {word} input-bound" in t:
            return f"{word} input-bound"
    if "is not input-bound" in t:
        return "not input-bound"
    if "no step time measured" in t:
        return "unknown"
    return text


def compare_input_pipeline(res, ours, xprof):
    tool = "input_pipeline_analyzer"
    verdict = xprof_verdict(xprof[1]["p"].get("input_conclusion", ""))
    check = "input-bound verdict (inferred steps)" if steps_inferred(ours) else "input-bound verdict"
    res.same(tool, check, "all", ours["verdict"], verdict)
    x_ops = {r["opName"]: r for r in datatable_rows(xprof[2])}
    o_ops = {r["name"]: r for r in ours["ops"]}
    for name in sorted(set(x_ops) | set(o_ops)):
        x, o = x_ops.get(name), o_ops.get(name)
        if x is None or o is None:
            res.check(tool, "input op only in " + ("ours" if x is None else "XProf"), name,
                      None if o is None else o["count"], None if x is None else x["count"], False)
            continue
        res.same(tool, "input op count", name, o["count"], int(x["count"]))
        res.same(tool, "input op category", name, o["category"], x["category"])
        res.time(tool, "input op time", name, o["total_ns"], ms_to_ns(x["timeInMs"]), o["count"])
        res.time(tool, "input op self time", name, o["self_ns"], ms_to_ns(x["selfTimeInMs"]), o["count"])


# ----------------------------------------------------------------------------------------
# memory_profile <-> memory --json and --timeline-csv: per memory id (allocator)
# ----------------------------------------------------------------------------------------
XPROF_MAX_SNAPSHOTS = 1000  # XProf's sampled timeline holds every event up to this many

EXPECTED += [
    Expected("memory_profile", r"lifetime peak", r".*", r".*",
             "XProf's lifetime peak is the peak_bytes_in_use stat of the last memory event it reads "
             "(xplane_to_memory_profile.cc overwrites it per event, line after line); ours is the largest value "
             "the allocator reported (TF 2.4 GPU_4_bfc: XProf 5,006,386,688, ours 6,208,853,760 = its peak in "
             "the window, which the allocator's own lifetime peak cannot be below)"),
    Expected("memory_profile", r"peak step", r".*",
             r"jax0\.11\.2_h100_(steady|warmup)_emit_xspace\.xplane\.pb|" + JAX_ROCM,
             "XProf finds no step group in these files (no step marker it groups by: its overview has no step), so "
             "every memory event is its step 0 (UpdateStepId fills events without a group_id with the last step "
             "+ 1); our peak step is the step of our step list (the host annotations in steady, the inferred "
             "iterations in warmup and ROCm) whose window holds the peak, none where no step does. Our note on "
             "XProf's breakdown uses XProf's step ids"),
    Expected("memory_profile", r"peak time after the first event", r".*", r"tw003\.xplane\.pb",
             "XProf's memory event time is the event's offset within its line (time_offset_ps), not a time on "
             "one clock: tw003's allocator events come from threads whose lines start at different times, so "
             "XProf's times of one allocator are shifted by 6 us to -863 us against each other (ours are on the "
             "trace's clock); the peak's bytes agree"),
    Expected("memory_profile", r"our note on XProf's breakdown .*", r"GPU_[1-7]_bfc", r"tw003\.xplane\.pb",
             "XProf sorts the events and ends its walk at the peak by each event's offset within its line; tw003's "
             "lines start at different times (entry above) and a trace keeps no line's start, so our note walks on "
             "the trace's clock: 4 allocations and 8,388,608 bytes where XProf lists 3 and 9,043,968 (the same walk "
             "over the raw file by line offsets gives XProf's figures, by line start + offset ours)"),
    Expected("memory_profile", r"peak step", r".*", TF24_GPU,
             "XProf's step of a memory event is its group_id, and an event without one takes the last step seen "
             "+ 1 (UpdateStepId); our peak step is the step whose time window holds the peak, none outside every "
             "step (GPU_1's, GPU_4's and the host allocator's peaks fall outside step 0, which is GPU_6's window). "
             "Our note on XProf's breakdown uses XProf's step ids"),
    Expected("memory_profile", r"peak step", r".*", r"tf_keras_fit\.xplane\.pb",
             "XProf's step id is the step group's id, counted from 0 in the profile; our peak step is the step's "
             "number, its step_num (Keras' batch index: the profile starts at batch 1), so ours is XProf's + 1 "
             "(XProf 5, ours 6); our note on XProf's breakdown names both"),
]


def read_csv_rows(path):
    import csv
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def alive_at(events, peak_index):
    """Allocations made up to events[peak_index] and not freed by then: {address: event}."""
    alive = {}
    for e in events[:peak_index + 1]:
        if e["event"] == "allocation":
            alive[e["address"]] = e
        elif e["event"] == "deallocation":
            alive.pop(e["address"], None)
    return alive


def compare_memory(res, ours, timeline_rows, xprof):
    tool = "memory_profile"
    theirs = {k: v for k, v in (xprof.get("memoryProfilePerAllocator") or {}).items()
              if v.get("memoryProfileSnapshots") or v.get("sampledTimelineSnapshots")}
    mine = {m["memory_id"]: m for m in ours.get("memory_ids", []) if m.get("source") == "xspace"}
    for mid in sorted(set(theirs) | set(mine)):
        x, o = theirs.get(mid), mine.get(mid)
        if x is None or o is None:
            res.check(tool, "memory id only in " + ("ours" if x is None else "XProf"), mid,
                      None if o is None else o["events"], None if x is None else len(x["sampledTimelineSnapshots"]),
                      False)
            continue
        summary = x["profileSummary"]
        peak = summary["peakStats"]
        res.same(tool, "peak bytes", mid, o["peak_bytes"], int(peak["peakBytesInUse"]))
        res.same(tool, "heap at peak", mid, o["heap_bytes_at_peak"], int(peak["heapAllocatedBytes"]))
        res.same(tool, "stack at peak", mid, o["stack_bytes_at_peak"], int(peak["stackReservedBytes"]))
        res.same(tool, "free at peak", mid, o["free_bytes_at_peak"], int(peak["freeMemoryBytes"]))
        frag = o["fragmentation_at_peak"]
        res.check(tool, "fragmentation at peak", mid, frag, peak["fragmentation"],
                  frag is not None and abs(frag - float(peak["fragmentation"])) < 1e-6)
        res.same(tool, "capacity", mid, o["capacity_bytes"], int(summary["memoryCapacity"]))
        res.same(tool, "lifetime peak", mid, o["lifetime_peak_bytes"], int(summary["peakBytesUsageLifetime"]))

        events = [r for r in timeline_rows if r["memory_id"] == mid]
        sampled = x["sampledTimelineSnapshots"]
        complete = len(sampled) == len(events) and len(events) <= XPROF_MAX_SNAPSHOTS
        if complete:
            # Every event on both sides: counts, and the peak's time from the allocator's first event
            # (the two clocks have different origins).
            kinds = [s["activityMetadata"]["memoryActivity"] for s in sampled]
            res.same(tool, "allocations", mid, o["allocations"], kinds.count("ALLOCATION"))
            res.same(tool, "deallocations", mid, o["deallocations"], kinds.count("DEALLOCATION"))
            x_first = min(int(s["timeOffsetPs"]) for s in sampled)
            o_first = min(int(e["time_ns"]) for e in events)
            res.time(tool, "peak time after the first event", mid, o["peak_time_ns"] - o_first,
                     (int(summary["peakStatsTimePs"]) - x_first) / 1000.0)
        else:
            res.notes.append(f"{tool}: {mid}: XProf sampled {len(sampled)} of the events (ours {len(events)}): "
                             "counts and peak time not compared")
        # The peak's step: XProf's is that of the last snapshot (in time) at the peak value; every row
        # of its breakdown carries it, else the last snapshot at the peak's time stands in.
        snaps = x.get("memoryProfileSnapshots", [])
        x_rows = [snaps[int(a["snapshotIndex"])]["activityMetadata"] for a in x.get("activeAllocations", [])
                  if int(a["snapshotIndex"]) >= 0] + x.get("specialAllocations", [])
        x_peak_snaps = [s for s in snaps + sampled if int(s["timeOffsetPs"]) == int(summary["peakStatsTimePs"])]
        x_peak_step = (int(x_rows[0]["stepId"]) if x_rows else
                       int(x_peak_snaps[-1]["activityMetadata"]["stepId"]) if x_peak_snaps else None)
        if x_peak_step is not None:
            res.same(tool, "peak step", mid, o["peak_step"], x_peak_step)

        # Allocations alive at the peak: XProf's breakdown lists those made in the peak's step (each
        # is alive at the peak on our timeline too, same address and sizes); the rest of the heap is
        # its "unused preallocated device memory". Ours lists every allocation alive at the peak.
        peak_index = next((i for i, e in enumerate(events)
                           if int(e["time_ns"]) == o["peak_time_ns"] and int(e["heap_bytes"]) +
                           int(e["stack_bytes"] or 0) == o["peak_bytes"]), None)
        if peak_index is None:
            res.check(tool, "peak event on our timeline", mid, None, summary["peakStatsTimePs"], False)
            continue
        alive = alive_at(events, peak_index)
        x_active = []
        for a in x.get("activeAllocations", []):
            i = int(a["snapshotIndex"])
            if i >= 0:
                x_active += [snaps[i]["activityMetadata"]] * int(a["numOccurrences"])
        for m in x_active:
            mine_alloc = alive.get(str(int(m["address"])))
            subject = f"{mid} address {m['address']}"
            if mine_alloc is None:
                res.check(tool, "allocation alive at the peak only in XProf", subject, None, m["allocationBytes"],
                          False)
                continue
            res.same(tool, "alive at the peak: bytes", subject,
                     (int(mine_alloc["allocation_bytes"]), int(mine_alloc["requested_bytes"] or -1)),
                     (int(m["allocationBytes"]), int(m["requestedBytes"])))
            if m["tfOpName"]:
                res.same(tool, "alive at the peak: op", subject, mine_alloc["op"], m["tfOpName"])
        special = sum(int(s["allocationBytes"]) for s in x.get("specialAllocations", [])
                      if s["tfOpName"] == "unused preallocated device memory")
        ours_rows = sum(r["allocation_bytes"] for r in o.get("breakdown", []))
        res.same(tool, "breakdown total", mid, ours_rows,
                 sum(int(m["allocationBytes"]) for m in x_active) + special)
        # Our note names XProf's breakdown with its figures worked out as XProf works them out:
        # the allocations it lists, its peak step, its "unused preallocated device memory" (0: no row).
        named = next((re.search(r"XProf's Memory Profile lists the (\d+) allocations? made in its peak's step \(XProf's step "
                                r"id (-?\d+)[^)]*\) and alive at its peak, and (?:shows the other (-?\d+) bytes|no \"unused)", n)
                      for n in o.get("notes", []) if n.startswith("XProf's Memory Profile lists")), None)
        res.same(tool, "our note on XProf's breakdown (allocations, step, other bytes)", mid,
                 named and tuple(int(g or 0) for g in named.groups()),
                 (len(x_active), x_peak_step, special))
        res.notes.append(f"{tool}: {mid}: breakdown at the peak: XProf lists the {len(x_active)} allocation(s) made "
                         f"in the peak's step and {special:,} bytes of 'unused preallocated device memory'; ours "
                         f"lists all {len(alive)} alive at the peak")


# ----------------------------------------------------------------------------------------
# trace_viewer <-> convert --to chrome-json: events per (process, thread)
# ----------------------------------------------------------------------------------------
XPROF_DERIVED_LINES = ("Steps", "XLA Ops", "XLA Modules", "Framework Ops", "Framework Name Scope", "Source code",
                       "Launch Stats", "Command Buffers", "TensorFlow Ops", "TensorFlow Name Scope")
EXPECTED += [
    Expected("trace_viewer", r"thread only in XProf", rf".* \| ({'|'.join(XPROF_DERIVED_LINES)})( - from #\d+)?",
             r".*", "a line XProf derives when it converts (from the HLO protos and the step groups); we show the "
             "lines the file holds (the TF 2.4 file holds its derived lines, and there they agree)"),
    Expected("trace_viewer", r"events by name|thread only in ours",
             r".* \| (MemoryAllocation|MemoryDeallocation|PrefetchProduce|PrefetchConsume|MapAndBatchProduce|MapAndBatchConsume|ParallelMapProduce|ParallelMapConsume)",
             r".*",
             "XProf's trace viewer leaves out these internal event types (memory markers, tf.data "
             "producer/consumer markers); we show them as instants"),
    Expected("trace_viewer", r"events by name", r".* \| ThreadpoolListener::Region", r".*",
             "XProf's preprocessing adds one 'ThreadpoolListener::Region' slice per StartRegion/StopRegion pair "
             "of XLA's thread pools; we show the recorded events"),
]


def events_per_thread(trace):
    """{"process | thread": {event name: count}} over complete and instant events."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    pname, tname = {}, {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            pname[e.get("pid")] = e["args"]["name"]
        elif e.get("ph") == "M" and e.get("name") == "thread_name":
            tname[(e.get("pid"), e.get("tid"))] = e["args"]["name"]
    threads = {}
    for e in events:
        if e.get("ph") in ("X", "i", "I"):
            key = f"{pname.get(e.get('pid'), e.get('pid'))} | {tname.get((e.get('pid'), e.get('tid')), e.get('tid'))}"
            names = threads.setdefault(key, {})
            names[e.get("name")] = names.get(e.get("name"), 0) + 1
    return threads


def compare_trace_viewer(res, ours, xprof):
    tool = "trace_viewer"
    o, x = events_per_thread(ours), events_per_thread(xprof)
    for key in sorted(set(o) | set(x)):
        if key not in o:
            res.check(tool, "thread only in XProf", key, None, sum(x[key].values()), False)
            continue
        if key not in x:
            for name, n in sorted(o[key].items()):
                res.check(tool, "thread only in ours", f"{key} | {name}", n, None, False)
            continue
        on, xn = dict(o[key]), {}
        for name, n in x[key].items():
            # XProf names step markers "train 3" (name and step number); we keep "train".
            base = re.sub(r" \d+$", "", name)
            if name not in on and base in on:
                name = base
            xn[name] = xn.get(name, 0) + n
        if on == xn:
            res.same(tool, "events", key, sum(on.values()), sum(xn.values()))
        else:
            for name in sorted(set(on) | set(xn)):
                if on.get(name, 0) != xn.get(name, 0):
                    res.check(tool, "events by name", f"{key} | {name}", on.get(name, 0), xn.get(name, 0), False)


def compare_xprof_json_kernels(res, cli, tmp, ours_kernels, xprof_trace):
    """Opened as a file, XProf's own trace JSON of the XSpace must give the kernels the XSpace gives:
    the lines XProf derives per stream ("XLA Ops - from #14") are no streams of their own."""
    path = os.path.join(tmp, "xprof.trace.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(xprof_trace, f)
    theirs = cli_json(cli, "kernels", path)
    total = lambda k: sum(r["total_ns"] for r in k["rows"])
    occurrences = sum(r["occurrences"] for r in ours_kernels["rows"])
    res.check("trace_viewer", "kernel time of XProf's trace JSON", "all", total(theirs), total(ours_kernels),
              abs(total(theirs) - total(ours_kernels)) <= 1 + occurrences)


# ----------------------------------------------------------------------------------------
def compare_file(cli, peer_python, path, xprof_dir=None):
    res = Result()
    with tempfile.TemporaryDirectory() as tmp:
        xp = xprof_outputs(peer_python, path, xprof_dir or os.path.join(tmp, "xprof"))
        ours_trace = os.path.join(tmp, "ours.json")
        run_cli(cli, "convert", path, "--to", "chrome-json", ours_trace)
        with open(ours_trace, encoding="utf-8") as f:
            chrome = json.load(f)
        compare_op_stats(res, cli_json(cli, "stats", path), xp["framework_op_stats"])
        kernels = cli_json(cli, "kernels", path)
        compare_kernel_stats(res, kernels, xp["kernel_stats"])
        compare_xprof_json_kernels(res, cli, tmp, kernels, xp["trace_viewer"])
        overview = cli_json(cli, "overview", path)
        compare_steps(res, overview, xp["overview_page"])
        if re.fullmatch(JAX_CPU, os.path.basename(path)):
            # The named difference below (XProf's zero-length ThreadpoolListener marks), tested: without
            # the marks XProf's steps, breakdowns and percentages must equal ours exactly.
            stripped = os.path.join(tmp, os.path.basename(path))
            subprocess.run([peer_python, os.path.join(HERE, "strip_zero_length.py"), path, stripped], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            xs = xprof_outputs(peer_python, stripped, os.path.join(tmp, "xprof-stripped"))
            compare_steps(res, overview, xs["overview_page"], tool="overview_page (marks removed)")
        compare_input_pipeline(res, cli_json(cli, "input-pipeline", path), xp["input_pipeline_analyzer"])
        timeline_csv = os.path.join(tmp, "memory.csv")
        memory = json.loads(run_cli(cli, "memory", path, "--json", "--timeline-csv", timeline_csv))
        compare_memory(res, memory, read_csv_rows(timeline_csv) if os.path.exists(timeline_csv) else [],
                       xp["memory_profile"])
        compare_trace_viewer(res, chrome, xp["trace_viewer"])
    return res


def classify(res, base):
    """Splits mismatches into expected (with the entry) and unexpected; lists stale entries."""
    expected, unexpected, used = [], [], set()
    for m in res.mismatches:
        hit = next((e for e in EXPECTED if e.matches(m, base)), None)
        if hit is None:
            unexpected.append(m)
        else:
            expected.append((m, hit))
            used.add(hit)
    # Entries for all files (files ".*") describe general behaviour: not reported when unused.
    stale = [e for e in EXPECTED if e.files != r".*" and re.fullmatch(e.files, base) and e not in used]
    return expected, unexpected, stale


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--peer-python", required=True)
    ap.add_argument("--report", help="write the result as JSON here")
    ap.add_argument("--xprof-dir", help="keep XProf's outputs here (reused when present)")
    ap.add_argument("file")
    args = ap.parse_args()

    base = os.path.basename(args.file)
    res = compare_file(args.cli, args.peer_python, args.file, args.xprof_dir)
    expected, unexpected, stale = classify(res, base)

    print(f"{base}: XProf's converters vs tracescope-cli")
    for tool in sorted(res.compared):
        print(f"  {tool:25s} {res.agreed.get(tool, 0):6d} of {res.compared[tool]:6d} values agree")
    for n in res.notes:
        print("  note:", n)
    reasons = {}
    for m, e in expected:
        reasons.setdefault(e, []).append(m)
    for e, ms in reasons.items():
        print(f"  expected difference ({len(ms)}): {e.tool} / {e.check}: {e.reason}")
        for m in ms[:3]:
            print("      " + m.line())
        if len(ms) > 3:
            print(f"      ... and {len(ms) - 3} more")
    for e in stale:
        print(f"  now agrees (expected difference no longer seen): {e.tool} / {e.check} / {e.subject}: {e.reason}")
    for m in unexpected:
        print("  UNEXPECTED: " + m.line())
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump({"file": base, "compared": res.compared, "agreed": res.agreed,
                       "expected": [{"mismatch": m.line(), "reason": e.reason} for m, e in expected],
                       "unexpected": [m.line() for m in unexpected],
                       "now_agrees": [f"{e.tool} / {e.check} / {e.subject}" for e in stale]}, f, indent=1)
    if unexpected:
        print(f"FAIL: {len(unexpected)} unexpected difference(s) from XProf")
        return 1
    print("OK: equal within tolerance, or a named expected difference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
