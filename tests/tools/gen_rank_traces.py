#!/usr/bin/env python3
"""Writes the Kineto traces of an N-rank data-parallel job, deterministically: per rank a file
rank-<r>.pt.trace.json.gz with `distributedInfo` (nccl, rank, world size), ProfilerStep#k steps,
a compute kernel per step and C all-reduce calls per step (c10d::allreduce_ > record_param_comms
with Kineto's metadata: Collective name, dtype, In/Out msg nelems, Group size, Process Group Name,
Seq > cudaLaunchKernel -> an NCCL kernel). Each rank arrives at each collective with a small
per-rank skew (from a seeded generator); the straggler rank arrives `--straggle-us` later at every
collective. An NCCL kernel ends when the last rank has arrived plus the transfer time, so the
early ranks' kernels last longer (they wait). Prints the straggler rank.

    gen_rank_traces.py OUT_DIR --ranks 64 [--steps 3] [--collectives 4] [--straggler 37]
                       [--straggle-us 900] [--seed 1]
"""
import argparse
import gzip
import json
import os
import random

BASE_US = 1_700_000_000_000_000  # Unix time of the job's start, microseconds
STEP_US = 20_000
NELEMS = [262144, 1048576, 4194304, 65536]  # Float: 1, 4, 16 MiB and 256 KiB


_skews = {}


def skews_of(seq, world, straggler, straggle_us, seed):
    """Every rank's delay (us) at collective `seq`: the same for every rank file written."""
    if seq not in _skews:
        rng = random.Random(seed * 7919 + seq * 104729)
        _skews[seq] = [rng.randint(0, 40) + (straggle_us if r == straggler else 0) for r in range(world)]
    return _skews[seq]


def rank_events(rank, world, steps, collectives, straggler, straggle_us, seed):
    events = [
        {"ph": "M", "name": "process_name", "pid": 100 + rank, "args": {"name": "python3"}},
        {"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "GPU 0"}},
        {"ph": "M", "name": "thread_name", "pid": 100 + rank, "tid": 1, "args": {"name": "main"}},
        {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7"}},
    ]
    correlation = 1
    seq = 0
    for step in range(steps):
        t0 = BASE_US + step * STEP_US
        events.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{step}", "pid": 100 + rank,
                       "tid": 1, "ts": t0, "dur": STEP_US - 10})
        # Compute: a GEMM launched at t0 + 10, running [t0 + 100, t0 + 3100).
        events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100 + rank, "tid": 1,
                       "ts": t0 + 10, "dur": 5, "args": {"correlation": correlation}})
        events.append({"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_nn", "pid": 0, "tid": 7,
                       "ts": t0 + 100, "dur": 3000,
                       "args": {"correlation": correlation, "device": 0, "stream": 7}})
        correlation += 1
        for c in range(collectives):
            seq += 1
            slot = t0 + 4000 + c * 3500  # every rank's nominal arrival
            skews = skews_of(seq, world, straggler, straggle_us, seed)
            arrival = slot + skews[rank]
            end = slot + max(skews) + 200 + c * 50  # the last rank's arrival plus the transfer
            host = arrival - 300
            nelems = NELEMS[c % len(NELEMS)]
            events.append({"ph": "X", "cat": "cpu_op", "name": "c10d::allreduce_", "pid": 100 + rank, "tid": 1,
                           "ts": host, "dur": 80})
            events.append({"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 100 + rank, "tid": 1,
                           "ts": host + 5, "dur": 60,
                           "args": {"Collective name": "allreduce", "dtype": "Float", "In msg nelems": nelems,
                                    "Out msg nelems": nelems, "Group size": world, "Process Group Name": "0",
                                    "Process Group Description": "default_pg", "Rank": rank, "Seq": seq}})
            events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100 + rank,
                           "tid": 1, "ts": host + 20, "dur": 8, "args": {"correlation": correlation}})
            events.append({"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
                           "pid": 0, "tid": 7, "ts": arrival, "dur": end - arrival,
                           "args": {"correlation": correlation, "device": 0, "stream": 7,
                                    "Collective name": "allreduce", "Seq": seq}})
            correlation += 1
    return events


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--ranks", type=int, default=64)
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--collectives", type=int, default=4)
    p.add_argument("--straggler", type=int, default=None)
    p.add_argument("--straggle-us", type=int, default=900)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    straggler = a.straggler if a.straggler is not None else (a.ranks * 7 // 12)
    os.makedirs(a.out, exist_ok=True)
    for r in range(a.ranks):
        doc = {"schemaVersion": 1,
               "distributedInfo": {"backend": "nccl", "rank": r, "world_size": a.ranks},
               "traceEvents": rank_events(r, a.ranks, a.steps, a.collectives, straggler, a.straggle_us, a.seed),
               "traceName": f"rank-{r}.pt.trace.json"}
        path = os.path.join(a.out, f"rank-{r}.pt.trace.json.gz")
        # mtime=0: the same arguments give the same bytes.
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
            f.write(json.dumps(doc, separators=(",", ":")).encode())
    print(straggler)


if __name__ == "__main__":
    main()
