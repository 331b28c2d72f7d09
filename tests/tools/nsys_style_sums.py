#!/usr/bin/env python3
"""Reference tables for `tracescope-cli cuda-api`, computed straight from a Kineto (PyTorch
profiler) Chrome JSON trace with the standard library only: the summaries Nsight Systems'
`nsys stats` reports (cuda_api_sum, cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum,
cuda_gpu_kern_sum) and the synchronisation table.

Events are the "X" events of these categories (new Kineto / old Kineto):
  api      cuda_runtime, cuda_driver / Runtime, Driver     per name
  kernels  kernel / Kernel                                   per name
  memcpy   gpu_memcpy / Memcpy                               per kind from the name: the first of
           HtoD, DtoH, DtoD, PtoP, HtoH found in it ("Memcpy HtoD (Pageable -> Device)"), else
           "unknown"; sizes from args "bytes"
  memset   gpu_memset / Memset                               one row "memset"
  sync     cuda_sync records per (kind, runtime call): kind = args "cuda_sync_kind" or the name;
           the call is the runtime/driver event with the same args "correlation"; the host was
           blocked for that call's duration. Runtime calls that synchronise (cuda/cu/hip +
           DeviceSynchronize, CtxSynchronize -> Context Sync; StreamSynchronize -> Stream Sync;
           EventSynchronize -> Event Sync; StreamWaitEvent -> Stream Wait Event) and that no
           record names count by their name.

Times: JSON microseconds parsed as decimals (never float) and rounded to integer ns half away
from zero, as the importer does; durations are the events' "dur" (0 when absent).
Statistics per row: occurrences, total, min, max; mean = total / count; median = the middle
value, for even counts the mean of the two middle values (nsys' definition); std = the sample
standard deviation (n - 1; 0 for one value), as nsys' SQLite stdev. Mean, median and std are
rounded to the nearest integer, halves up, computed with exact fractions.
time_percent = 100 * total / the section's total. bandwidth_bytes_per_s = total bytes * 1e9 /
total ns of the copies with a size, rounded half up.

  nsys_style_sums.py FILE...                 JSON on stdout, keyed by file name
  nsys_style_sums.py --cli CLI FILE|DIR...   runs `CLI cuda-api FILE --json` on each file (a
                                             folder: its *.json / *.json.gz files) and compares
                                             every row exactly; exit 1 on a difference, 77
                                             (skip) when a file is missing (1 under CI=true)
"""
import decimal
import fractions
import gzip
import json
import math
import os
import subprocess
import sys

API_CATEGORIES = {"cuda_runtime", "cuda_driver", "Runtime", "Driver"}
KERNEL_CATEGORIES = {"kernel", "Kernel"}
MEMCPY_CATEGORIES = {"gpu_memcpy", "Memcpy"}
MEMSET_CATEGORIES = {"gpu_memset", "Memset"}
COPY_KINDS = ("HtoD", "DtoH", "DtoD", "PtoP", "HtoH")
SYNC_CALLS = {
    "DeviceSynchronize": "Context Sync",
    "CtxSynchronize": "Context Sync",
    "CtxSynchronize_v2": "Context Sync",
    "StreamSynchronize": "Stream Sync",
    "StreamSynchronize_ptsz": "Stream Sync",
    "EventSynchronize": "Event Sync",
    "StreamWaitEvent": "Stream Wait Event",
    "StreamWaitEvent_ptsz": "Stream Wait Event",
}


def to_ns(v):
    return int((decimal.Decimal(v) * 1000).to_integral_value(rounding=decimal.ROUND_HALF_UP))


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f, parse_float=str)  # the number's text: converted exactly where used
    return data["traceEvents"] if isinstance(data, dict) else data


def half_up(fr):
    """The nearest integer to a non-negative Fraction, halves up."""
    return math.floor(fr + fractions.Fraction(1, 2))


def stats(values, unit):
    values = sorted(values)
    n = len(values)
    keys = ("total", "mean", "median", "min", "max", "std")
    if n == 0:
        return {k + "_" + unit: 0 for k in keys}
    total = sum(values)
    if n % 2:
        median = values[n // 2]
    else:
        median = half_up(fractions.Fraction(values[n // 2 - 1] + values[n // 2], 2))
    std = 0
    if n > 1:
        # sum((x - mean)^2) / (n - 1) with mean = total / n, in integers: sum((n x - total)^2) / (n^2 (n - 1)).
        variance = fractions.Fraction(sum((n * x - total) ** 2 for x in values), n * n * (n - 1))
        std = math.isqrt(math.floor(variance))
        if fractions.Fraction(2 * std + 1, 2) ** 2 <= variance:
            std += 1
    out = (total, half_up(fractions.Fraction(total, n)), median, values[0], values[-1], std)
    return {k + "_" + unit: v for k, v in zip(keys, out)}


def sync_kind_of_call(name):
    for prefix in ("cuda", "hip", "cu"):
        if name.startswith(prefix):
            return SYNC_CALLS.get(name[len(prefix):])
    return None


def duration_rows(groups):
    grand = sum(sum(v) for v in groups.values())
    rows = []
    for name, values in groups.items():
        row = {"name": name, "occurrences": len(values)}
        row.update(stats(values, "ns"))
        row["time_percent"] = 100.0 * row["total_ns"] / grand if grand > 0 else 0.0
        rows.append(row)
    return rows


def copy_rows(groups):
    grand = sum(sum(d for d, _ in v) for v in groups.values())
    rows = []
    for kind, events in groups.items():
        durations = [d for d, _ in events]
        sized = [(d, b) for d, b in events if b is not None]
        row = {"kind": kind, "occurrences": len(events)}
        row.update(stats(durations, "ns"))
        row["time_percent"] = 100.0 * row["total_ns"] / grand if grand > 0 else 0.0
        row["with_bytes"] = len(sized)
        row.update(stats([b for _, b in sized], "bytes"))
        sized_ns = sum(d for d, _ in sized)
        total_bytes = sum(b for _, b in sized)
        row["bandwidth_bytes_per_s"] = (2 * total_bytes * 10**9 + sized_ns) // (2 * sized_ns) if sized and sized_ns > 0 else None
        row["without_bytes"] = len(events) - len(sized)
        rows.append(row)
    return rows


def summarize(path):
    api, kernels, memcpy, memset = {}, {}, {}, {}
    calls_by_correlation = {}
    runtime_calls = []  # (name, dur, correlation)
    sync_records = []  # (kind, correlation)
    for e in load(path):
        if e.get("ph") != "X":
            continue
        cat, name, args = e.get("cat"), e.get("name", ""), e.get("args") or {}
        dur = to_ns(e.get("dur", 0))
        if cat in API_CATEGORIES:
            api.setdefault(name, []).append(dur)
            corr = args.get("correlation")
            runtime_calls.append((name, dur, corr))
            if corr is not None:
                calls_by_correlation.setdefault(int(corr), (name, dur))
        elif cat in KERNEL_CATEGORIES:
            kernels.setdefault(name, []).append(dur)
        elif cat in MEMCPY_CATEGORIES or cat in MEMSET_CATEGORIES:
            b = args.get("bytes")
            b = b if isinstance(b, int) and not isinstance(b, bool) and b >= 0 else None
            if cat in MEMSET_CATEGORIES:
                memset.setdefault("memset", []).append((dur, b))
            else:
                kind = next((k for k in COPY_KINDS if k in name), "unknown")
                memcpy.setdefault(kind, []).append((dur, b))
        elif cat == "cuda_sync":
            sync_records.append((args.get("cuda_sync_kind") or name, args.get("correlation")))

    syncs = {}

    def sync_row(kind, call):
        return syncs.setdefault((kind, call), {"occurrences": 0, "records": 0, "without_call": 0, "blocked": []})

    named_by_record = set()
    for kind, corr in sync_records:
        call = calls_by_correlation.get(int(corr)) if corr is not None else None
        row = sync_row(kind, call[0] if call else "")
        row["occurrences"] += 1
        row["records"] += 1
        if call:
            row["blocked"].append(call[1])
            named_by_record.add(int(corr))
        else:
            row["without_call"] += 1
    for name, dur, corr in runtime_calls:
        kind = sync_kind_of_call(name)
        if kind and (corr is None or int(corr) not in named_by_record):
            row = sync_row(kind, name)
            row["occurrences"] += 1
            row["blocked"].append(dur)
    sync = []
    for (kind, call), r in syncs.items():
        row = {"kind": kind, "api": call, "blocks_host": kind != "Stream Wait Event", "occurrences": r["occurrences"],
               "records": r["records"], "without_call": r["without_call"], "with_call": len(r["blocked"])}
        row.update({"host_blocked_" + k: v for k, v in stats(r["blocked"], "ns").items()})
        sync.append(row)
    return {
        "api": duration_rows(api),
        "kernels": duration_rows(kernels),
        "memcpy": copy_rows(memcpy),
        "memset": copy_rows(memset),
        "sync": sync,
        "counts": {"api_calls": sum(len(v) for v in api.values()), "kernels": sum(len(v) for v in kernels.values()),
                   "memcpy": sum(len(v) for v in memcpy.values()), "memset": sum(len(v) for v in memset.values()),
                   "sync_records": len(sync_records)},
    }


ROW_KEYS = {"api": ("name",), "kernels": ("name",), "memcpy": ("kind",), "memset": ("kind",), "sync": ("kind", "api")}


def compare(cli, path):
    """Differences between the reference and `cli cuda-api path --json` (a list of lines)."""
    ours = json.loads(subprocess.run([cli, "cuda-api", path, "--json"], check=True, capture_output=True).stdout)
    ref = summarize(path)
    problems = []
    for key, value in ref["counts"].items():
        if ours["counts"].get(key) != value:
            problems.append(f"counts.{key}: ours {ours['counts'].get(key)}, reference {value}")
    for section, keys in ROW_KEYS.items():
        mine = {tuple(r[k] for k in keys): r for r in ours[section]}
        theirs = {tuple(r[k] for k in keys): r for r in ref[section]}
        for k in sorted(set(mine) | set(theirs), key=str):
            if k not in mine or k not in theirs:
                problems.append(f"{section} {k}: only in {'ours' if k in mine else 'the reference'}")
                continue
            for field, value in theirs[k].items():
                if mine[k].get(field) != value:
                    problems.append(f"{section} {k} {field}: ours {mine[k].get(field)}, reference {value}")
        totals = [r.get("total_ns", r.get("host_blocked_total_ns")) for r in ours[section]]
        if totals != sorted(totals, reverse=True):
            problems.append(f"{section}: rows not sorted by total time")
    return problems, ref


def trace_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for n in sorted(os.listdir(p)):
                if n.endswith(".json") or n.endswith(".json.gz"):
                    yield os.path.join(p, n)
        else:
            yield p


def main(argv):
    if len(argv) >= 3 and argv[1] == "--cli":
        cli, failed = argv[2], False
        missing = [p for p in argv[3:] if not os.path.exists(p)]
        if missing:
            # The shared traces live beside the repository; a clone without them skips (CTest's
            # skip code 77), except on CI, where they must be there.
            print("shared test data not found: " + ", ".join(missing))
            return 1 if os.environ.get("CI") == "true" else 77
        for path in trace_files(argv[3:]):
            problems, ref = compare(cli, path)
            c = ref["counts"]
            print(f"{os.path.basename(path)}: {c['api_calls']} calls, {c['kernels']} kernels, {c['memcpy']} copies, "
                  f"{c['memset']} memsets, {c['sync_records']} sync records: "
                  + ("same" if not problems else f"{len(problems)} difference(s)"))
            for line in problems[:40]:
                print("  " + line)
            failed = failed or bool(problems)
        return 1 if failed else 0
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    json.dump({os.path.basename(p): summarize(p) for p in trace_files(argv[1:])}, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
