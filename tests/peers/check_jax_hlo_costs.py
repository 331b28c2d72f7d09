#!/usr/bin/env python3
"""XLA's own cost analysis as the reference for ours: JAX on the CPU compiles programs with dots,
convolutions, reductions, windowed reductions, transcendentals, fusions, a while loop and a sort;
`compiled.cost_analysis()` gives XLA's FLOPs, transcendentals and bytes accessed per program; the
programs then run under jax.profiler.trace(), and `tracescope-cli hlo-ops --json` on that capture
must report the same three numbers per program (flops_per_execution, transcendentals_per_execution,
bytes_per_execution), read from the HLO the profiler stored.

    check_jax_hlo_costs.py --cli TRACESCOPE_CLI [--keep DIR]

Then each program's memory view (`hlo-memory`) against XProf's memory viewer on the same capture:
the peak heap, and every named buffer XProf lists live at the peak, with its size.

Runs with the peers' Python (run_peer_test.sh); about 20 s. Every difference must be listed in
EXPECTED with its reason.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

# (module regex, quantity regex, reason)
EXPECTED = []


def mlp(x, w1, w2):
    h = jnp.maximum(x @ w1, 0.0)
    return jnp.tanh(h @ w2).sum(axis=1)


def conv(x, k):
    y = lax.conv_general_dilated(x, k, window_strides=(2, 2), padding="SAME",
                                 dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jnp.exp(y).mean()


def grouped_conv(x, k):
    return lax.conv_general_dilated(x, k, window_strides=(1, 1), padding=((1, 1), (2, 0)), rhs_dilation=(1, 2),
                                    dimension_numbers=("NCHW", "OIHW", "NCHW"), feature_group_count=2)


def pool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "VALID")


def transcendental(x):
    return jnp.log1p(jnp.exp(x)) / jnp.sqrt(x * x + 1.0) + jnp.sin(x)


def loop(x):
    return lax.fori_loop(0, 10, lambda i, v: v * 1.01 + jnp.tanh(v), x)


def sort_rows(x):
    return jnp.sort(x, axis=1)[:, :5]


def batched(a, b):
    return jnp.einsum("bij,bjk->bik", a, b)


def programs():
    f32 = jnp.float32
    ones = lambda *s: jnp.ones(s, f32)  # noqa: E731
    return [
        (mlp, (ones(64, 128), ones(128, 256), ones(256, 32))),
        (conv, (ones(2, 32, 32, 8), ones(3, 3, 8, 16))),
        (grouped_conv, (ones(2, 4, 16, 16), ones(6, 2, 3, 3))),
        (pool, (ones(2, 33, 33, 4),)),
        (transcendental, (ones(1000),)),
        (loop, (ones(256),)),
        (sort_rows, (ones(64, 100),)),
        (batched, (ones(8, 16, 32), ones(8, 32, 4))),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--keep")
    a = ap.parse_args()
    out = a.keep or tempfile.mkdtemp()
    reference = {}
    compiled = []
    for fn, args in programs():
        c = jax.jit(fn).lower(*args).compile()
        costs = c.cost_analysis()
        costs = costs[0] if isinstance(costs, list) else costs
        module = re.search(r"HloModule (\S+?),", c.as_text()).group(1)
        reference[module] = {k: float(costs.get(k, 0.0)) for k in ("flops", "transcendentals", "bytes accessed")}
        compiled.append((c, args))
    for c, args in compiled:  # compile outside the trace; run inside
        jax.block_until_ready(c(*args))
    with jax.profiler.trace(os.path.join(out, "trace")):
        for c, args in compiled:
            jax.block_until_ready(c(*args))
    files = glob.glob(os.path.join(out, "trace", "**", "*.xplane.pb"), recursive=True)
    if len(files) != 1:
        sys.exit(f"expected one capture, found {files}")
    r = subprocess.run([a.cli, "hlo-ops", files[0], "--json"], capture_output=True, text=True, check=False)
    if r.returncode != 0:
        sys.exit(f"hlo-ops failed ({r.returncode}): {r.stderr}")
    ours = {}
    for p in json.loads(r.stdout)["programs"]:
        ours.setdefault(p["module"], p)  # a module compiled twice keeps its first program

    checked, unexpected = 0, []
    for module, ref in sorted(reference.items()):
        mine = ours.get(module)
        if mine is None:
            unexpected.append(f"{module}: not in hlo-ops' programs ({sorted(ours)})")
            continue
        for key, ours_key in (("flops", "flops_per_execution"), ("transcendentals", "transcendentals_per_execution"),
                              ("bytes accessed", "bytes_per_execution")):
            checked += 1
            x, o = ref[key], float(mine[ours_key])
            ok = abs(x - o) <= 1e-9 * max(abs(x), abs(o), 1.0)
            line = f"{module:28} {key:16} XLA {x:>16.0f}  ours {o:>16.0f}"
            if ok:
                print(f"equal     {line}")
            elif any(re.fullmatch(e[0], module) and re.fullmatch(e[1], key) for e in EXPECTED):
                print(f"expected  {line}")
            else:
                unexpected.append(line)
        if not mine["cost_known"]:
            unexpected.append(f"{module}: cost marked unknown")
    # The memory view against XProf's memory viewer (which works on CPU captures): each program's
    # peak heap and the named buffers XProf lists live at the peak, with their sizes.
    r = subprocess.run([a.cli, "hlo-memory", files[0], "--json"], capture_output=True, text=True, check=False)
    if r.returncode != 0:
        sys.exit(f"hlo-memory failed ({r.returncode}): {r.stderr}")
    memory = {p["program"]: p for p in json.loads(r.stdout)["programs"] if p["module"] in reference}
    with tempfile.TemporaryDirectory() as tmp:
        tools = ["memory_viewer:" + name for name in sorted(memory)]
        x = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "xprof_tools.py"),
                            files[0], tmp, ",".join(tools)], capture_output=True, text=True, check=False)
        if x.returncode != 0:
            sys.exit(f"XProf's memory viewer failed: {x.stderr[-3000:]}")
        for name, mine in sorted(memory.items()):
            with open(os.path.join(tmp, "memory_viewer:" + name + ".json"), encoding="utf-8") as f:
                viewer = json.load(f)
            checked += 1
            peak = float(viewer["peakHeapMib"]) * 2**20
            line = f"{name:28} peak heap        XProf {peak:>16.0f}  ours {mine['peak_bytes']:>16.0f}"
            if abs(peak - mine["peak_bytes"]) <= 1e-9 * max(peak, 1.0):
                print(f"equal     {line}")
            else:
                unexpected.append(line)
            detail = subprocess.run([a.cli, "hlo-memory", files[0], "--program", name, "--json"], capture_output=True,
                                    text=True, check=True)
            live = {(b["instruction"], b["bytes"]) for b in json.loads(detail.stdout)["programs"][0]["live_at_peak"]}
            for b in viewer.get("maxHeap", []):
                if "instructionName" not in b:
                    continue  # XProf's entry for the small buffers it folds together
                checked += 1
                key = (b["instructionName"], round(float(b["logicalBufferSizeMib"]) * 2**20))
                if key not in live:
                    unexpected.append(f"{name}: {key} live at XProf's peak, not among ours")
    print(f"{checked} checks over {len(reference)} programs, {len(unexpected)} unexpected")
    for u in unexpected:
        print(f"UNEXPECTED {u}")
    sys.exit(1 if unexpected else 0)


if __name__ == "__main__":
    main()
