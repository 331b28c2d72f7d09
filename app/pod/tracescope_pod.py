#!/usr/bin/python3
"""tracescope-pod: rank summaries of a job larger than one machine, on a Dask cluster.

    tracescope-pod summarize DIR|FILE... --out SUMMARY_DIR [--scheduler tcp://HOST:8786]
                   [--workers N] [--cli PATH]

Runs `tracescope-cli summarize RANK_FILE --out SUMMARY_DIR/<file>.summary.json` once per rank file
on a dask.distributed cluster: a LocalCluster of N worker processes on this machine by default, or
the cluster whose scheduler --scheduler names (workers started by Slurm, Kubernetes or SSH as Dask
documents; they need tracescope-cli and the same file system). Shows progress; lists the ranks that
failed, with the reason, and the ranks of the job that have no file; is restartable: a rank whose
summary holds the SHA-256 of its file as it is now is not summarised again. Writes
SUMMARY_DIR/index.json, which `tracescope-cli collectives SUMMARY_DIR` and the viewer read with
the summaries. Exit status: 0 when every rank has its summary, 1 when some failed, 2 on bad usage.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

INDEX_SCHEMA = "tracescope-pod-index"
# The rank summary schema version tracescope-cli summarize writes (kRankSummarySchemaVersion):
# a summary of another version is summarised again, whatever its file's SHA-256.
SUMMARY_SCHEMA_VERSION = 2
TRACE_SUFFIXES = (".json", ".json.gz", ".xplane.pb")


def rank_files(paths):
    """The trace files named: files as they are, and the trace files directly inside folders."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, n) for n in os.listdir(p)
                          if n.endswith(TRACE_SUFFIXES) and not n.endswith(".summary.json")
                          and os.path.isfile(os.path.join(p, n)))
        else:
            out.append(p)
    return out


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def summarize_one(cli, path, summary_path):
    """Runs on a worker: (status, detail). status is "done", "skipped" or "failed"."""
    try:
        digest = sha256_of(path)
    except OSError as e:
        return "failed", f"cannot read the file: {e.strerror}"
    try:
        with open(summary_path, encoding="utf-8") as f:
            old = json.load(f)
            if old.get("file", {}).get("sha256") == digest and old.get("schema_version") == SUMMARY_SCHEMA_VERSION:
                return "skipped", digest
    except (OSError, ValueError):
        pass
    try:
        res = subprocess.run([cli, "summarize", path, "--out", summary_path], capture_output=True, text=True,
                             timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as e:
        return "failed", f"{cli}: {e}"
    if res.returncode != 0:
        lines = [l for l in res.stderr.splitlines() if l.strip()]
        return "failed", (lines[-1] if lines else f"exit status {res.returncode}")
    return "done", digest


def progress(done, total, failed, started):
    """A bar redrawn in place on a terminal; elsewhere (a log) a line per tenth of the ranks."""
    tty = sys.stderr.isatty()
    if not tty and done not in (0, total) and (10 * done // total) == (10 * (done - 1) // total):
        return
    width = 30
    filled = width * done // total if total else width
    elapsed = time.monotonic() - started
    sys.stderr.write(f"{chr(13) if tty else ''}[{'#' * filled}{' ' * (width - filled)}] {done}/{total} ranks"
                     f"{f', {failed} failed' if failed else ''}, {elapsed:.0f} s{'' if tty else chr(10)}")
    sys.stderr.flush()


def default_cli():
    here = os.path.dirname(os.path.realpath(__file__))
    for candidate in (os.path.join(here, "tracescope-cli"), os.path.join(here, "..", "tracescope-cli")):
        if os.access(candidate, os.X_OK):
            return os.path.realpath(candidate)
    return shutil.which("tracescope-cli")


def write_index(out_dir, results):
    ranks, failed, world = [], [], None
    for path, summary_name, status, detail in results:
        if status == "failed":
            failed.append({"file": path, "reason": detail})
            continue
        with open(os.path.join(out_dir, summary_name), encoding="utf-8") as f:
            s = json.load(f)
        world = s.get("world_size") or world
        ranks.append({"rank": s.get("rank"), "file": path, "summary": summary_name, "sha256": s["file"]["sha256"]})
    ranks.sort(key=lambda r: (r["rank"] is None, r["rank"] if r["rank"] is not None else 0, r["summary"]))
    seen = [r["rank"] for r in ranks if r["rank"] is not None]
    duplicated = sorted({r for r in seen if seen.count(r) > 1})
    missing = [r for r in range(world) if r not in set(seen)] if world else []
    index = {"schema": INDEX_SCHEMA, "schema_version": 1, "world_size": world, "ranks": ranks,
             "failed": sorted(failed, key=lambda f: f["file"]), "missing_ranks": missing,
             "duplicated_ranks": duplicated}
    tmp = os.path.join(out_dir, "index.json.partial")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(index, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, os.path.join(out_dir, "index.json"))
    return index


def summarize(args):
    cli = args.cli or default_cli()
    if not cli:
        print("tracescope-pod: tracescope-cli not found (install it beside tracescope-pod or pass --cli)",
              file=sys.stderr)
        return 2
    files = rank_files(args.paths)
    if not files:
        print("tracescope-pod: no rank files found", file=sys.stderr)
        return 2
    names = {}
    for f in files:
        names.setdefault(os.path.basename(f), []).append(f)
    clashes = {n: fs for n, fs in names.items() if len(fs) > 1}
    if clashes:
        n, fs = next(iter(clashes.items()))
        print(f"tracescope-pod: two rank files are named {n} ({', '.join(fs)}): their summaries would clash",
              file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    out_dir = os.path.abspath(args.out)

    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError as e:
        # Dask is optional for the package (a Suggests): say what to install rather than a traceback.
        print(f"tracescope-pod: Dask's distributed scheduler is not installed ({e}): "
              "install Debian's python3-distributed (or pip install 'dask[distributed]')", file=sys.stderr)
        return 2

    cluster = None
    if args.scheduler:
        client = Client(args.scheduler, timeout="30s")
    else:
        cluster = LocalCluster(n_workers=args.workers or os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        futures = {}
        for f in files:
            path = os.path.abspath(f)
            summary_name = os.path.basename(f) + ".summary.json"
            fut = client.submit(summarize_one, cli, path, os.path.join(out_dir, summary_name), pure=False,
                                retries=1)
            futures[fut] = (path, summary_name)
        results, failed, started = [], 0, time.monotonic()
        progress(0, len(files), 0, started)
        for fut in as_completed(futures):
            path, summary_name = futures[fut]
            try:
                status, detail = fut.result()
            except Exception as e:  # a worker lost twice, a task that raised
                status, detail = "failed", f"{type(e).__name__}: {e}"
            failed += status == "failed"
            results.append((path, summary_name, status, detail))
            progress(len(results), len(files), failed, started)
        if sys.stderr.isatty():
            sys.stderr.write("\n")
    finally:
        client.close()
        if cluster:
            cluster.close()
    index = write_index(out_dir, results)
    done = sum(1 for r in results if r[2] == "done")
    skipped = sum(1 for r in results if r[2] == "skipped")
    print(f"{len(files)} rank files: {done} summarised, {skipped} up to date, {failed} failed; "
          f"index: {os.path.join(out_dir, 'index.json')}")
    for f in index["failed"]:
        print(f"failed: {f['file']}: {f['reason']}")
    if index["missing_ranks"]:
        shown = ", ".join(str(r) for r in index["missing_ranks"][:20])
        more = ", ..." if len(index["missing_ranks"]) > 20 else ""
        print(f"missing: {len(index['missing_ranks'])} of {index['world_size']} ranks have no file: {shown}{more}")
    if index["duplicated_ranks"]:
        print("duplicated: ranks " + ", ".join(str(r) for r in index["duplicated_ranks"]) + " have two files")
    return 1 if failed else 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="tracescope-pod", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("summarize", help="summarise every rank file on a Dask cluster")
    s.add_argument("paths", nargs="+", metavar="DIR|FILE")
    s.add_argument("--out", required=True, metavar="SUMMARY_DIR")
    s.add_argument("--scheduler", metavar="tcp://HOST:8786", help="an existing cluster's scheduler")
    s.add_argument("--workers", type=int, metavar="N", help="local worker processes (default: one per core)")
    s.add_argument("--cli", metavar="PATH", help="tracescope-cli (default: the one beside this program)")
    args = p.parse_args(argv)
    return summarize(args)


if __name__ == "__main__":
    sys.exit(main())
