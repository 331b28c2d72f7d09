#!/usr/bin/env python3
"""Multi-rank PyTorch profiler traces of collectives on the CPU: WORLD=4 processes on one
machine, torch.distributed with the gloo backend (TCP on 127.0.0.1), each rank profiled with
torch.profiler (CPU activity, record_shapes) over 4 steps, schedule(wait=0, warmup=1, active=3)
so that ProfilerStep#1..#3 are recorded. Each step does a small matmul and then, on the default
group (all 4 ranks), in this order:

    all_reduce              1,000,003 float32 (sum)
    all_reduce                262,144 float32 (sum)   rank 2 sleeps 30 ms just before it
    all_gather_into_tensor     65,536 float32 per rank  -> 262,144
    all_gather (tensor list)   10,000 bfloat16 per rank -> 4 x 10,000
    reduce_scatter_tensor     400,000 float32 -> 100,000 per rank (sum)
    broadcast                 100,000 int64 from rank 0
    reduce                     50,000 float16 (sum) to rank 1
    all_to_all_single          40,000 float32 (10,000 to each rank)
    all_reduce                123,457 float32 (sum) on new_group([0, 1]); ranks 0 and 1 only
    barrier

gloo took every one of these (torch 2.15.0). Rank 2 is a deliberate straggler: its 30 ms sleep
before the second all_reduce makes the other ranks wait in that collective.

torch is large (its Linux wheel pulls the CUDA libraries, several GB), so this does not run in
CI: run it locally in an environment of its own and commit its outputs.

    python3.12 -m venv /tmp/torchenv && /tmp/torchenv/bin/pip install torch==2.15.0
    /tmp/torchenv/bin/python torch_gloo_collectives.py OUT     (OUT: tests/data/peers)

Writes OUT/collectives/gloo_rank{0..3}.pt.trace.json.gz (prof.export_chrome_trace() of each
rank, gzipped) and OUT/collectives/gloo.producer.json: torch and Python versions, world size,
the schedule, per rank the collectives it issued in order (step, kind, group ranks, element
counts, dtype, root; step N is ProfilerStep#N, step 0 the unrecorded warm-up) and where the
straggler slept.
"""
import gzip
import json
import os
import platform
import shutil
import socket
import sys
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.profiler import ProfilerActivity, profile, schedule

WORLD = 4
WAIT, WARMUP, ACTIVE = 0, 1, 3
STEPS = WAIT + WARMUP + ACTIVE
STRAGGLER = 2
STRAGGLER_SLEEP_S = 0.030
SUBGROUP = [0, 1]


def dtype_name(dt):
    return str(dt).replace("torch.", "")


def run_step(rank, step, sub, log):
    """One step: a matmul and the collectives; appends what it issues to log."""
    everyone = list(range(WORLD))
    pg_names = {tuple(everyone): dist.group.WORLD.group_name}
    if rank in SUBGROUP:  # elsewhere new_group() gave a non-member marker, no group
        pg_names[tuple(SUBGROUP)] = sub.group_name

    def note(kind, group, in_n, out_n, dtype, **extra):
        log.append(dict(step=step, kind=kind, group_ranks=group, pg_name=pg_names[tuple(group)],
                        in_nelems=in_n, out_nelems=out_n, dtype=dtype and dtype_name(dtype), **extra))

    a = torch.full((128, 128), 0.01 * (rank + 1))
    b = torch.mm(a, a)

    x = torch.full((1_000_003,), float(rank))
    dist.all_reduce(x)
    note("all_reduce", everyone, x.numel(), x.numel(), x.dtype, op="sum")

    y = torch.full((262_144,), float(rank)) + b[0, 0]
    if rank == STRAGGLER:
        time.sleep(STRAGGLER_SLEEP_S)
    dist.all_reduce(y)
    note("all_reduce", everyone, y.numel(), y.numel(), y.dtype, op="sum",
         **({"straggler_sleep_before_ms": STRAGGLER_SLEEP_S * 1000} if rank == STRAGGLER else {}))

    g_in = torch.full((65_536,), float(rank))
    g_out = torch.empty(65_536 * WORLD)
    dist.all_gather_into_tensor(g_out, g_in)
    note("all_gather_into_tensor", everyone, g_in.numel(), g_out.numel(), g_in.dtype)

    l_in = torch.full((10_000,), float(rank), dtype=torch.bfloat16)
    l_out = [torch.empty(10_000, dtype=torch.bfloat16) for _ in range(WORLD)]
    dist.all_gather(l_out, l_in)
    note("all_gather", everyone, l_in.numel(), l_in.numel() * WORLD, l_in.dtype)

    rs_in = torch.full((400_000,), float(rank))
    rs_out = torch.empty(400_000 // WORLD)
    dist.reduce_scatter_tensor(rs_out, rs_in)
    note("reduce_scatter_tensor", everyone, rs_in.numel(), rs_out.numel(), rs_in.dtype, op="sum")

    bc = torch.arange(100_000, dtype=torch.int64) if rank == 0 else torch.empty(100_000, dtype=torch.int64)
    dist.broadcast(bc, src=0)
    note("broadcast", everyone, bc.numel(), bc.numel(), bc.dtype, root=0)

    rd = torch.full((50_000,), float(rank), dtype=torch.float16)
    dist.reduce(rd, dst=1)
    note("reduce", everyone, rd.numel(), rd.numel(), rd.dtype, op="sum", root=1)

    a2a_in = torch.full((40_000,), float(rank))
    a2a_out = torch.empty(40_000)
    dist.all_to_all_single(a2a_out, a2a_in)
    note("all_to_all_single", everyone, a2a_in.numel(), a2a_out.numel(), a2a_in.dtype)

    if rank in SUBGROUP:
        s = torch.full((123_457,), float(rank))
        dist.all_reduce(s, group=sub)
        note("all_reduce", SUBGROUP, s.numel(), s.numel(), s.dtype, op="sum")

    dist.barrier()
    note("barrier", everyone, 0, 0, None)


def worker(rank, port, tmp):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=WORLD)
    sub = dist.new_group(SUBGROUP)  # every rank takes part in creating it
    log = []
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True,
                 schedule=schedule(wait=WAIT, warmup=WARMUP, active=ACTIVE, repeat=1)) as prof:
        for step in range(STEPS):
            run_step(rank, step, sub, log)
            prof.step()
    prof.export_chrome_trace(os.path.join(tmp, f"gloo_rank{rank}.pt.trace.json"))
    with open(os.path.join(tmp, f"log{rank}.json"), "w", encoding="utf-8") as f:
        json.dump(log, f)
    dist.barrier()
    dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out_dir = os.path.join(sys.argv[1], "collectives")
    os.makedirs(out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        mp.spawn(worker, args=(free_port(), tmp), nprocs=WORLD, join=True)
        ranks = []
        for r in range(WORLD):
            raw = os.path.join(tmp, f"gloo_rank{r}.pt.trace.json")
            dst = os.path.join(out_dir, f"gloo_rank{r}.pt.trace.json.gz")
            with open(raw, "rb") as f, gzip.GzipFile(dst, "wb", mtime=0) as g:
                shutil.copyfileobj(f, g)
            with open(os.path.join(tmp, f"log{r}.json"), encoding="utf-8") as f:
                log = json.load(f)
            ranks.append({"rank": r, "trace": os.path.basename(dst), "collectives": log})
    producer = {
        "producer": f"torch {torch.__version__}",
        "python": platform.python_version(),
        "backend": "gloo",
        "world_size": WORLD,
        "steps": STEPS,
        "schedule": {"wait": WAIT, "warmup": WARMUP, "active": ACTIVE},
        "recorded_steps": list(range(WAIT + WARMUP, STEPS)),
        "step_name": "ProfilerStep#N",
        "subgroup_ranks": SUBGROUP,
        "straggler": {"rank": STRAGGLER, "sleep_ms": STRAGGLER_SLEEP_S * 1000,
                      "where": "before the second all_reduce (262,144 float32) of every step"},
        "ranks": ranks,
    }
    # One line per collective: the file stays readable.
    head = json.dumps({k: v for k, v in producer.items() if k != "ranks"}, indent=1)
    parts = []
    for r in ranks:
        rows = ",\n".join("    " + json.dumps(c) for c in r["collectives"])
        parts.append('  {"rank": %d, "trace": %s, "collectives": [\n%s\n  ]}' % (r["rank"], json.dumps(r["trace"]), rows))
    text = head[:-2] + ',\n "ranks": [\n' + ",\n".join(parts) + "\n ]\n}\n"
    with open(os.path.join(out_dir, "gloo.producer.json"), "w", encoding="utf-8") as f:
        f.write(text)
    assert json.loads(text) == producer


if __name__ == "__main__":
    main()
