#!/usr/bin/env python3
"""Collective calls, nccl-tests bandwidths, communication/compute overlap and stragglers recomputed
with the standard library over raw Kineto JSON, and compared with `tracescope-cli collectives --json`.

    collectives_exact.py --cli TRACESCOPE_CLI [--ranks] TRACE.json[.gz]...

Each file is one rank (with --ranks, the files are the ranks of one run and are also passed to
the CLI together, for the cross-rank matching). The rules, written from their sources:
  * a call is the outermost, on its thread, of: `record_param_comms` with a `Collective name`
    other than "wait", a `c10d::<op>` op, a `nccl:<op>` or `gloo:<op>` annotation (names holding
    "wait" excluded); its metadata are the args of a `record_param_comms` in it (else of its kernel);
  * its kernels are the NCCL kernels (cat kernel, name beginning "nccl" or holding "ncclKernel" /
    "ncclDevKernel") whose launch (the runtime call with the same "correlation") lies inside it;
    a kernel launched elsewhere is a call of its own; t = the sum of its kernels' durations, else
    gloo's worker runs ("gloo:<kind>" with no c10d op around them on their thread) time the calls
    they ran: in start order each call takes the earliest unpaired run that started after it, of
    its kind family (a reduce-scatter also gloo's all-reduce of the whole input), of its group and
    element count where both are known (looking past at most 64 unpaired runs); else its host op's
    duration;
  * without metadata, sizes come from the recorded shapes ("Input Dims", "Input type"): the input
    of the c10d op (its 2nd argument for the (output, input) ops), the element type of the op or of
    its gloo run; a gloo run's group is its worker thread's (gloo's threads: those with runs and
    those named "pt_gloo_runloop"; two a group, in thread-id order the groups of distributedInfo's
    pg_config that hold the rank); a call with no group is in the
    rank's only group where there is one;
  * S and the bus factor as NVIDIA's nccl-tests doc/PERFORMANCE.md defines them (see
    model/analysis/collectives.h); algbw = S / t, busbw = algbw x factor (none for a call timed by its
    host op: that is the time to issue it);
  * overlap: the union of NCCL kernel intervals intersected with the union of the other kernels'
    (HTA's get_comm_comp_overlap), over the whole trace;
  * stragglers: calls matched by (group, Seq) when every call has a Seq, else by (group, kind, n-th);
    arrival = the call's first kernel start (host op start without a kernel) + the rank's offset
    (the CLI's own offsets: only differences within a matched call are compared);
  * the SQL table `collectives` (`query`) holds the same calls, in the same order.
Exit 77 (CTest's skip) when a file is missing, 1 under CI=true.
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
from decimal import Decimal

DTYPE_BYTES = {"Float": 4, "Double": 8, "Half": 2, "BFloat16": 2, "Int": 4, "Long": 8, "Short": 2, "Char": 1,
               "Byte": 1, "Bool": 1, "ComplexHalf": 4, "ComplexFloat": 8, "ComplexDouble": 16, "UInt16": 2,
               "UInt32": 4, "UInt64": 8, "QInt8": 1, "QUInt8": 1, "QInt32": 4, "QUInt4x2": 1,
               "Float8_e4m3fn": 1, "Float8_e5m2": 1, "Float8_e4m3fnuz": 1, "Float8_e5m2fnuz": 1,
               "Float8_e8m0fnu": 1}
KERNEL_CATS = ("kernel", "Kernel")
RUNTIME_CATS = ("cuda_runtime", "cuda_driver", "Runtime")


def ns(us):
    return int(Decimal(us) * 1000)


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def is_comm_kernel(name):
    return name.startswith("nccl") or name.startswith("void nccl") or "ncclKernel" in name or "ncclDevKernel" in name


def normalized(kind):
    if kind in ("alltoall_base", "alltoall"):
        return "all_to_all"
    return kind.replace("all_reduce", "allreduce", 1).replace("all_gather", "allgather", 1)


def host_role(e):
    """(rank of the role, kind, metadata) or None."""
    name, args = e["name"], e.get("args") or {}
    if name == "record_param_comms":
        kind = args.get("Collective name")
        if not kind or kind == "wait":
            return None
        return (3, str(kind), args)
    if "wait" in name:
        return None
    if name.startswith("c10d::"):
        kind = name[6:].rstrip("_")
        return (2, normalized(kind), None) if kind else None
    if name.startswith("nccl:") or name.startswith("gloo:"):
        kind = name[5:]
        return (1, normalized(kind), None) if kind else None
    return None


def kind_from_kernel(name):
    for word, kind in (("AllReduce", "allreduce"), ("AllGather", "allgather"), ("ReduceScatter", "reduce_scatter"),
                       ("Broadcast", "broadcast"), ("SendRecv", "sendrecv"), ("Reduce", "reduce")):
        if word in name:
            return kind
    return "unknown"


def count_ranks(text):
    n, in_number = 0, False
    for c in str(text):
        digit = c.isdigit()
        if digit and not in_number:
            n += 1
        in_number = digit
    return n


CPP_TYPES = {"float": "Float", "double": "Double", "c10::Half": "Half", "c10::BFloat16": "BFloat16", "int": "Int",
             "long int": "Long", "long": "Long", "int64_t": "Long", "short int": "Short", "short": "Short",
             "signed char": "Char", "unsigned char": "Byte", "bool": "Bool", "c10::complex<c10::Half>": "ComplexHalf",
             "c10::complex<float>": "ComplexFloat", "c10::complex<double>": "ComplexDouble",
             "unsigned short": "UInt16", "unsigned int": "UInt32", "unsigned long": "UInt64"}
BASE_OPS = ("_allgather_base", "_reduce_scatter_base", "all_to_all", "allgather_into_tensor_coalesced",
            "reduce_scatter_tensor_coalesced")


def arg_elements(arg):
    """A tensor's dims multiplied, a tensor list's tensors' added; None for no tensor."""
    if not isinstance(arg, list) or not arg:
        return None
    if all(isinstance(d, int) and d >= 0 for d in arg):
        n = 1
        for d in arg:
            n *= d
        return n
    if all(isinstance(t, list) and t and all(isinstance(d, int) and d >= 0 for d in t) for t in arg):
        return sum(arg_elements(t) for t in arg)
    return None


def op_shapes(kind, args):
    """(in, out, dtype) of a c10d op from its recorded shapes."""
    dims = args.get("Input Dims")
    if not isinstance(dims, list):
        return None, None, None
    el = [arg_elements(a) for a in dims] + [None, None]
    types = [t for t in args.get("Input type") or []] + ["", ""]
    dtype = CPP_TYPES.get(types[0]) or CPP_TYPES.get(types[1])
    if kind in BASE_OPS:
        return el[1], el[0], dtype
    if kind in ("allgather", "allgather_coalesced"):
        return el[1], None, dtype
    if kind in ("allreduce", "allreduce_coalesced", "broadcast", "reduce"):
        return el[0], el[0], dtype
    return None, None, dtype


def run_shapes(kind, args):
    dims = args.get("Input Dims")
    e = arg_elements(dims[0]) if isinstance(dims, list) and dims else None
    types = args.get("Input type") or [""]
    out = e if kind in ("allreduce", "broadcast", "reduce", "all_to_all") else None
    return e, out, CPP_TYPES.get(types[0] if types else "")


def size_and_factor(kind, dtype, n_in, n_out, n):
    elem = DTYPE_BYTES.get(dtype, 0)
    if "allreduce" in kind:
        family, nelems = "ar", n_in
    elif "allgather" in kind:
        family, nelems = "n1", n_out
    elif "reduce_scatter" in kind:
        family, nelems = "n1", n_in
    elif "all_to_all" in kind or "alltoall" in kind:
        family, nelems = "n1", n_in
    elif kind in ("broadcast", "reduce"):
        family, nelems = "one", n_in
    elif kind in ("send", "recv", "sendrecv"):
        family, nelems = "one", n_in if n_in is not None else n_out
    else:
        return None, None
    size = nelems * elem if elem and nelems is not None and nelems >= 0 else None
    if family == "one":
        factor = 1.0
    elif n and n >= 1:
        factor = 2.0 * (n - 1) / n if family == "ar" else (n - 1) / n
    else:
        factor = None
    return size, factor


def union(intervals):
    out = []
    for s, e in sorted(intervals):
        if e <= s:
            continue
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def intersect(a, b):
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if lo < hi:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def expected(events, info):
    pg_sizes = {str(g.get("pg_name")): g.get("pg_size") for g in info.get("pg_config", []) or [] if "pg_name" in g}
    member = [str(g["pg_name"]) for g in info.get("pg_config", []) or []
              if "pg_name" in g and info.get("rank") in (g.get("ranks") or [])]
    numeric = all(m.isdigit() for m in member)
    if numeric:
        member.sort(key=int)
    slices = [e for e in events if e.get("ph") == "X" and "dur" in e and "ts" in e and "name" in e]
    for e in slices:
        e["_s"], e["_e"] = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
    kernels = [e for e in slices if e.get("cat") in KERNEL_CATS]
    host = [e for e in slices if e.get("cat") not in KERNEL_CATS and e.get("cat") not in ("gpu_memcpy", "gpu_memset",
                                                                                            "Memcpy", "Memset")]
    cands = {}
    by_thread = {}
    for i, e in enumerate(host):
        role = host_role(e)
        if role:
            cands[id(e)] = role
            by_thread.setdefault((e.get("pid"), e.get("tid")), []).append((i, e))

    def anchor(thread, s, end):
        """The outermost candidate of the thread containing [s, end)."""
        best = None
        for i, c in by_thread.get(thread, []):
            if c["_s"] <= s and c["_e"] >= end:
                key = (c["_s"], -c["_e"], i)
                if best is None or key < best[0]:
                    best = (key, c)
        return best[1] if best else None

    calls = {}
    for thread, members in by_thread.items():
        for i, c in members:
            a = anchor(thread, c["_s"], c["_e"])
            call = calls.setdefault(id(a), {"host": a, "role": 0, "kernels": [], "kind": None, "meta": None})
            rank, kind, meta = cands[id(c)]
            if rank > call["role"] or (rank == call["role"] == 3 and c["_s"] < call["meta_ts"]):
                call["role"], call["kind"], call["meta"], call["meta_ts"] = rank, kind, meta, c["_s"]
    launches = {}
    for e in host:
        args = e.get("args") or {}
        if e.get("cat") in RUNTIME_CATS and "correlation" in args:
            launches.setdefault(args["correlation"], e)
    comm, compute = [], []
    for k in kernels:
        if not is_comm_kernel(k["name"]):
            compute.append((k["_s"], k["_e"]))
            continue
        comm.append((k["_s"], k["_e"]))
        launch = launches.get((k.get("args") or {}).get("correlation"))
        a = anchor((launch.get("pid"), launch.get("tid")), launch["_s"], launch["_e"]) if launch else None
        if a is None:
            call = calls.setdefault(id(k), {"host": None, "role": 0, "kernels": [], "kind": kind_from_kernel(k["name"]),
                                            "meta": None, "first": k})
        else:
            call = calls[id(a)]
        kargs = k.get("args") or {}
        if kargs.get("Collective name") and kargs.get("Collective name") != "wait" and call["role"] != 3:
            call["role"], call["kind"], call["meta"] = 3, str(kargs["Collective name"]), kargs
        call["kernels"].append(k)
    # gloo's worker runs ("gloo:<kind>" outermost on their thread) time the calls they ran: per kind
    # family, in start order, each run to the first unpaired call that started before it.
    def family(kind):
        kind = kind.lstrip("_")
        for f in ("allreduce", "allgather", "reduce_scatter"):
            if f in kind:
                return f
        if "all_to_all" in kind or "alltoall" in kind:
            return "all_to_all"
        return kind[:-5] if kind.endswith("_base") and len(kind) > 5 else kind

    runs, waiting = {}, []
    for call in calls.values():
        call["worker"], call["group"], call["shapes"] = None, None, (None, None, None)
        if call["kernels"] or call["host"] is None:
            continue
        if call["host"]["name"].startswith("gloo:"):
            call["shapes"] = run_shapes(call["kind"], call["host"].get("args") or {})
            runs.setdefault(family(call["kind"]), []).append(call)
        else:
            if call["role"] != 3:
                call["shapes"] = op_shapes(call["kind"], call["host"].get("args") or {})
            waiting.append(call)
    threads = {(r["host"].get("pid"), r["host"].get("tid")) for rs in runs.values() for r in rs}
    pids = {pid for pid, _ in threads}
    threads |= {(e.get("pid"), e.get("tid")) for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"
                and e.get("pid") in pids and "pt_gloo_runloop" in str((e.get("args") or {}).get("name", ""))}
    threads = sorted(threads, key=lambda t: int(t[1]))
    if numeric and member and len(threads) == 2 * len(member):
        thread_group = {t: member[i // 2] for i, t in enumerate(threads)}
        for rs in runs.values():
            for r in rs:
                r["group"] = thread_group[(r["host"].get("pid"), r["host"].get("tid"))]
    for rs in runs.values():
        rs.sort(key=lambda c: c["host"]["_s"])
    paired, head = set(), {}
    for call in sorted(waiting, key=lambda c: c["host"]["_s"]):
        meta = call["meta"] or {}
        group = meta.get("Process Group Name", meta.get("Process Group ID"))
        want = meta.get("In msg nelems") if call["role"] == 3 else call["shapes"][0]
        fams = [family(call["kind"])] + (["allreduce"] if family(call["kind"]) == "reduce_scatter" else [])
        best = None
        for fam in fams:
            r = runs.get(fam, [])
            h = head.get(fam, 0)
            while h < len(r) and (id(r[h]) in paired or r[h]["host"]["_s"] < call["host"]["_s"]):
                h += 1
            head[fam] = h
            seen = 0
            for run in r[h:]:
                if id(run) in paired:
                    continue
                if seen == 64:
                    break
                seen += 1
                if group is not None and run["group"] is not None and str(group) != run["group"]:
                    continue
                if want is not None and run["shapes"][0] is not None and want != run["shapes"][0]:
                    continue
                if best is None or run["host"]["_s"] < best["host"]["_s"]:
                    best = run
                break
        if best is None:
            continue
        paired.add(id(best))
        call["worker"] = best["host"]
        call["group"] = best["group"]
        i, o, d = call["shapes"]
        call["shapes"] = (i if i is not None else best["shapes"][0], o, d or best["shapes"][2])
    for rs in runs.values():
        for run in rs:
            if id(run) not in paired:
                run["worker"] = run["host"]
    out = []
    for call in [c for c in calls.values() if id(c) not in paired]:
        meta = call["meta"] or {}
        group = meta.get("Process Group Name", meta.get("Process Group ID"))
        group = str(group) if group is not None else call["group"]
        if group is None and len(member) == 1:
            group = member[0]
        n = meta.get("Group size") or count_ranks(meta.get("Process Group Ranks", "")) or pg_sizes.get(group) or None
        dtype, n_in, n_out = meta.get("dtype"), meta.get("In msg nelems"), meta.get("Out msg nelems")
        if call["role"] != 3 and call["shapes"][2] and (call["shapes"][0] is not None or call["shapes"][1] is not None):
            n_in, n_out, dtype = call["shapes"]
            if family(call["kind"]) == "allgather" and n_out is None and n_in is not None and n:
                n_out = n_in * n
        if call["kernels"]:
            dur = sum(k["_e"] - k["_s"] for k in call["kernels"])
            start = min(k["_s"] for k in call["kernels"])
        elif call["worker"] is not None:
            dur, start = call["worker"]["_e"] - call["worker"]["_s"], call["worker"]["_s"]
        else:
            dur, start = call["host"]["_e"] - call["host"]["_s"], call["host"]["_s"]
        host_start = call["host"]["_s"] if call["host"] else call["first"]["_s"]
        size, factor = size_and_factor(call["kind"], dtype, n_in, n_out, n)
        timed_by_host = not call["kernels"] and call["worker"] is None
        algbw = size * 1e9 / dur if size is not None and dur > 0 and not timed_by_host else None
        busbw = algbw * factor if algbw is not None and factor is not None else None
        out.append({"kind": call["kind"], "size_bytes": size, "dur": dur, "ts": start, "host_ts": host_start,
                    "group": group, "seq": meta.get("Seq"), "algbw": algbw, "busbw": busbw,
                    "time_source": "kernel" if call["kernels"] else "gloo worker" if call["worker"] else "host"})
    out.sort(key=lambda c: c["host_ts"])
    cu = union(comm)
    overlap = (sum(e - s for s, e in cu), sum(e - s for s, e in intersect(cu, union(compute))))
    return out, overlap


def distributed_info_of(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    return doc.get("distributedInfo", {}) if isinstance(doc, dict) else {}


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1.0)


def compare_sql(cli, path, calls, fails):
    """The SQL table `collectives` holds the same calls (in the same order)."""
    res = subprocess.run([cli, "query", path, "--json", "SELECT kind, size_bytes, dur, time_source, process_group, "
                          "seq, busbw_bytes_per_s FROM collectives"], capture_output=True, text=True)
    name = os.path.basename(path)
    if res.returncode != 0:
        fails.append(f"{name}: query exit {res.returncode}: {res.stderr.strip()[:300]}")
        return
    rows = json.loads(res.stdout)["rows"]
    if len(rows) != len(calls):
        fails.append(f"{name}: the collectives table has {len(rows)} rows, expected {len(calls)}")
        return
    for i, (e, r) in enumerate(zip(calls, rows)):
        for key, col in (("kind", "kind"), ("size_bytes", "size_bytes"), ("dur", "dur"),
                         ("time_source", "time_source"), ("group", "process_group"), ("seq", "seq")):
            if e[key] != r[col]:
                fails.append(f"{name}: table row {i} {col}: got {r[col]!r}, expected {e[key]!r}")
        if not close(e["busbw"], r["busbw_bytes_per_s"]):
            fails.append(f"{name}: table row {i} busbw: got {r['busbw_bytes_per_s']!r}, expected {e['busbw']!r}")


def compare_rank(path, got, fails, cli=None):
    calls, (comm_ns, overlapped_ns) = expected(load(path), distributed_info_of(path))
    name = os.path.basename(path)
    if cli:
        compare_sql(cli, path, calls, fails)
    if len(calls) != len(got["calls"]):
        fails.append(f"{name}: {len(got['calls'])} calls, expected {len(calls)}")
        return calls
    for i, (e, g) in enumerate(zip(calls, got["calls"])):
        for key, gkey in (("kind", "kind"), ("size_bytes", "size_bytes"), ("dur", "dur"),
                          ("time_source", "time_source"), ("group", "group"), ("seq", "seq")):
            if e[key] != g[gkey]:
                fails.append(f"{name}: call {i} {key}: got {g[gkey]!r}, expected {e[key]!r}")
        for key in ("algbw", "busbw"):
            if not close(e[key], g[key + "_bytes_per_s"]):
                fails.append(f"{name}: call {i} {key}: got {g[key + '_bytes_per_s']!r}, expected {e[key]!r}")
    if (comm_ns, overlapped_ns) != (got["comm_ns"], got["overlapped_ns"]):
        fails.append(f"{name}: overlap got {got['comm_ns']}/{got['overlapped_ns']}, expected {comm_ns}/{overlapped_ns}")
    kernel_calls = sum(1 for c in calls if c["time_source"] == "kernel")
    bw = [c["busbw"] for c in calls if c["busbw"] is not None]
    print(f"{name}: {len(calls)} calls ({kernel_calls} kernel-timed, {len(bw)} with busbw), "
          f"overlap {overlapped_ns}/{comm_ns} ns" + (f", busbw max {max(bw) / 1e9:.3f} GB/s" if bw else ""))
    return calls


def compare_stragglers(paths, per_rank, got, fails):
    by_seq = all(c["seq"] is not None for calls in per_rank for c in calls) and any(per_rank)
    matched = {}
    for r, calls in enumerate(per_rank):
        seen = {}
        for c in calls:
            if by_seq:
                occ = seen.get((c["group"], c["seq"]), 0)
                seen[(c["group"], c["seq"])] = occ + 1
                key = (c["group"], "", c["seq"], occ)
            else:
                n = seen.get((c["group"], c["kind"]), 0)
                seen[(c["group"], c["kind"])] = n + 1
                key = (c["group"], c["kind"], n, 0)
            matched.setdefault(key, {})[r] = c["ts"]
    # Kineto's timestamps are Unix microseconds: the CLI's wall-clock offsets keep their differences,
    # so skew and induced wait compare exactly (as sorted lists: ties may order differently).
    multi = [m for m in matched.values() if len(m) >= 2]
    want = sorted((max(m.values()) - min(m.values()), sum(max(m.values()) - t for t in m.values())) for m in multi)
    have = sorted((c["skew_ns"], c["induced_wait_ns"]) for c in got["collectives"])
    if got["matched_by"] != ("seq" if by_seq else "order"):
        fails.append(f"stragglers matched by {got['matched_by']}, expected {'seq' if by_seq else 'order'}")
    if want != have:
        fails.append(f"stragglers: {len(have)} matched (skew, induced) differ from the {len(want)} expected; "
                     f"first expected {want[:3]}, got {have[:3]}")
    late = max(multi, key=lambda m: max(m.values()) - min(m.values())) if multi else None
    print(f"stragglers: {len(multi)} collectives matched {'by seq' if by_seq else 'by order'} on {len(paths)} ranks"
          + (f"; largest skew {max(late.values()) - min(late.values())} ns" if late else ""))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("--ranks", action="store_true", help="the files are the ranks of one run")
    p.add_argument("traces", nargs="+")
    a = p.parse_args()
    missing = [t for t in a.traces if not os.path.exists(t)]
    if missing:
        print("missing: " + ", ".join(missing))
        return 1 if os.environ.get("CI") == "true" else 77
    fails = []
    groups = [a.traces] if a.ranks else [[t] for t in a.traces]
    for paths in groups:
        res = subprocess.run([a.cli, "collectives", "--json", *paths], capture_output=True, text=True)
        if res.returncode != 0:
            fails.append(f"{paths}: exit {res.returncode}: {res.stderr.strip()}")
            continue
        got = json.loads(res.stdout)
        by_file = {r["file"]: r for r in got["ranks"]}
        per_rank = [compare_rank(path, by_file[path], fails, a.cli) for path in paths if path in by_file]
        if len(per_rank) != len(paths):
            fails.append(f"{paths}: the CLI reported {len(got['ranks'])} ranks")
        if len(paths) > 1:
            compare_stragglers(paths, per_rank, got["stragglers"], fails)
    for f in fails[:40]:
        print("FAIL " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
