#!/usr/bin/python3
"""tracescope-pod end to end on Dask (Debian's python3-distributed):

 1. 64 generated rank traces (tests/tools/gen_rank_traces.py: one straggler rank) summarised on a
    LocalCluster of 2 worker processes, and again on a cluster started from the shell (dask-scheduler
    and two dask-worker processes on loopback): every summary and the index identical, byte for byte;
 2. `tracescope-cli collectives SUMMARY_DIR --json` finds the straggler (the most induced wait, late
    to every collective) and matches every collective by Seq;
 3. restart: a second run skips every rank (its summary holds its file's SHA-256); a rank file
    changed is summarised again, a damaged one is listed as failed with the reason (exit 1) while the
    others keep their summaries (its own earlier summary is not overwritten, and the index leaves it
    out), a rank without a file is listed as missing, a rank in two files as duplicated, and a summary
    of an older schema version is made again;
 4. a cluster that loses a worker mid-run (one of two shell-started workers killed while the ranks,
    each slowed down, are being summarised): the run completes on the other, every summary written
    and equal to the LocalCluster's.

    pod_dask_test.py --cli TRACESCOPE_CLI --pod app/pod/tracescope_pod.py --gen tests/tools/gen_rank_traces.py
                     [--ranks 64]
Exit 77 (CTest's skip) when dask.distributed is not installed, 1 under CI=true.
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time


def run(cmd, **kw):
    res = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return res.returncode, res.stdout, res.stderr


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_workers(address, n, timeout=60):
    from dask.distributed import Client
    deadline = time.monotonic() + timeout
    with Client(address, timeout="30s") as c:
        while len(c.scheduler_info()["workers"]) < n:
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {len(c.scheduler_info()['workers'])} of {n} workers joined")
            time.sleep(0.2)


def files_of(d):
    return {n: open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d))}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("--pod", required=True)
    p.add_argument("--gen", required=True)
    p.add_argument("--ranks", type=int, default=64)
    a = p.parse_args()
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("dask.distributed is not installed (Debian: python3-distributed)")
        return 1 if os.environ.get("CI") == "true" else 77
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        traces = os.path.join(tmp, "traces")
        code, out, err = run([sys.executable, a.gen, traces, "--ranks", str(a.ranks)])
        assert code == 0, err
        straggler = int(out.strip())
        pod = [sys.executable, a.pod, "summarize", traces, "--cli", a.cli]

        t0 = time.monotonic()
        local = os.path.join(tmp, "local")
        code, out, err = run(pod + ["--out", local, "--workers", "2"])
        local_s = time.monotonic() - t0
        if code != 0:
            fails.append(f"LocalCluster run: exit {code}: {out} {err[-2000:]}")
        print(f"LocalCluster (2 workers): {a.ranks} ranks in {local_s:.1f} s: {out.strip()}")

        port = free_port()
        address = f"tcp://127.0.0.1:{port}"
        procs = [subprocess.Popen(["dask-scheduler", "--host", "127.0.0.1", "--port", str(port),
                                   "--dashboard-address", ":0"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)]
        try:
            time.sleep(1.0)
            for _ in range(2):
                procs.append(subprocess.Popen(["dask-worker", address, "--nworkers", "1", "--nthreads", "1",
                                               "--no-dashboard"], stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL))
            wait_for_workers(address, 2)
            shell = os.path.join(tmp, "shell")
            t0 = time.monotonic()
            code, out, err = run(pod + ["--out", shell, "--scheduler", address])
            print(f"shell-started cluster (scheduler + 2 workers): {time.monotonic() - t0:.1f} s: {out.strip()}")
            if code != 0:
                fails.append(f"shell cluster run: exit {code}: {out} {err[-2000:]}")
        finally:
            for pr in reversed(procs):
                pr.terminate()
            for pr in procs:
                try:
                    pr.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    pr.kill()
        # A worker lost mid-run: its tasks go to the other worker (Dask reschedules them).
        slow_cli = os.path.join(tmp, "slow-cli")
        with open(slow_cli, "w") as f:
            f.write(f"#!/bin/sh\nsleep 0.15\nexec '{os.path.abspath(a.cli)}' \"$@\"\n")
        os.chmod(slow_cli, 0o755)
        port = free_port()
        address = f"tcp://127.0.0.1:{port}"
        procs = [subprocess.Popen(["dask-scheduler", "--host", "127.0.0.1", "--port", str(port),
                                   "--dashboard-address", ":0"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)]
        lost = os.path.join(tmp, "lost")
        try:
            time.sleep(1.0)
            for _ in range(2):  # no nanny: killing the process kills the worker
                procs.append(subprocess.Popen(["dask-worker", address, "--no-nanny", "--nthreads", "1",
                                               "--no-dashboard"], stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL))
            wait_for_workers(address, 2)
            t0 = time.monotonic()
            run_ = subprocess.Popen([sys.executable, a.pod, "summarize", traces, "--cli", slow_cli, "--out", lost,
                                     "--scheduler", address], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True)
            while run_.poll() is None and len([n for n in os.listdir(lost) if n.endswith(".summary.json")]
                                              if os.path.isdir(lost) else []) < 8:
                time.sleep(0.05)
            done_before = len([n for n in os.listdir(lost) if n.endswith(".summary.json")])
            procs[1].kill()
            out, err = run_.communicate(timeout=300)
            print(f"worker lost after {done_before} of {a.ranks} ranks: the run went on, "
                  f"{time.monotonic() - t0:.1f} s: {out.strip()}")
            # The lost worker's rank in flight may have been written by its orphaned CLI process
            # before the task ran again ("up to date" then): no rank failed or went missing.
            if run_.returncode != 0 or " 0 failed" not in out:
                fails.append(f"run with a worker lost: exit {run_.returncode}: {out} {err[-2000:]}")
        finally:
            for pr in reversed(procs):
                if pr.poll() is None:
                    pr.terminate()
            for pr in procs:
                try:
                    pr.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    pr.kill()

        a_files, b_files = files_of(local), files_of(shell)
        lost_files = files_of(lost) if os.path.isdir(lost) else {}
        if lost_files != a_files:
            fails.append("summaries of the run that lost a worker differ from the LocalCluster's: "
                         f"{[n for n in a_files if a_files.get(n) != lost_files.get(n)][:5]}")
        if a_files != b_files:
            differ = [n for n in a_files if a_files.get(n) != b_files.get(n)] + [n for n in b_files if n not in a_files]
            fails.append(f"summaries differ between the clusters: {differ[:5]}")
        if len(a_files) != a.ranks + 1:
            fails.append(f"{len(a_files)} files in the summary folder, expected {a.ranks} summaries and the index")

        code, out, err = run([a.cli, "collectives", local, "--json"])
        got = json.loads(out) if code == 0 else {}
        st = got.get("stragglers", {})
        top = st.get("ranks", [{}])[0]
        if code != 0 or top.get("rank") != straggler or st.get("matched_by") != "seq":
            fails.append(f"collectives on the summaries: exit {code}, top rank {top}, expected rank {straggler}, "
                         f"matched by {st.get('matched_by')}")
        else:
            print(f"straggler found: rank {straggler}, late to {top['late_count']} of "
                  f"{len(st['collectives'])} collectives, induced wait {top['induced_wait_ns']} ns")

        # Restart: nothing to do.
        code, out, err = run(pod + ["--out", local, "--workers", "2"])
        if code != 0 or f"0 summarised, {a.ranks} up to date" not in out:
            fails.append(f"restart did not skip every rank: {out.strip()}")
        # A summary of another schema version is made again, though its file did not change.
        old_path = os.path.join(local, "rank-10.pt.trace.json.gz.summary.json")
        original = open(old_path, "rb").read()
        old = json.loads(original)
        old["schema_version"] = old["schema_version"] - 1
        with open(old_path, "w", encoding="utf-8") as f:
            json.dump(old, f)
        code, out, err = run(pod + ["--out", local, "--workers", "2"])
        if code != 0 or f"1 summarised, {a.ranks - 1} up to date" not in out or open(old_path, "rb").read() != original:
            fails.append(f"a summary of an older schema was not made again: {out.strip()}")
        # One rank changed, one damaged, one gone.
        shutil.copy(os.path.join(traces, "rank-5.pt.trace.json.gz"), os.path.join(traces, "rank-4.pt.trace.json.gz"))
        with open(os.path.join(traces, "rank-3.pt.trace.json.gz"), "wb") as f:
            f.write(b"not a trace\n")
        os.remove(os.path.join(traces, "rank-7.pt.trace.json.gz"))
        os.remove(os.path.join(local, "rank-7.pt.trace.json.gz.summary.json"))
        before = files_of(local)
        code, out, err = run(pod + ["--out", local, "--workers", "2"])
        index = json.load(open(os.path.join(local, "index.json")))
        after = files_of(local)
        if code != 1 or "1 summarised" not in out or "1 failed" not in out:
            fails.append(f"changed/damaged ranks: exit {code}: {out.strip()}")
        if [f["file"].endswith("rank-3.pt.trace.json.gz") for f in index["failed"]] != [True]:
            fails.append(f"index failed: {index['failed']}")
        # rank-4's file now holds rank 5: rank 4 has no file, rank 5 two.
        if index["missing_ranks"] != [3, 4, 7] or index["duplicated_ranks"] != [5]:
            fails.append(f"index missing {index['missing_ranks']} (expected [3, 4, 7]), duplicated "
                         f"{index['duplicated_ranks']} (expected [5])")
        if after.get("rank-3.pt.trace.json.gz.summary.json") != before.get("rank-3.pt.trace.json.gz.summary.json"):
            fails.append("the damaged rank's earlier summary was overwritten")
        kept = [n for n in before if n.startswith("rank-") and n not in ("rank-4.pt.trace.json.gz.summary.json",)]
        if any(after.get(n) != before[n] for n in kept):
            fails.append("summaries of unchanged ranks were rewritten")
        print("restart: unchanged ranks skipped; " + " / ".join(l for l in out.strip().splitlines()))

        # Summaries that cannot be used are named, the rest read: malformed JSON, an older schema
        # version, a rank twice.
        mixed = os.path.join(tmp, "mixed")
        os.makedirs(mixed)
        shutil.copy(os.path.join(shell, "rank-0.pt.trace.json.gz.summary.json"), os.path.join(mixed, "a.summary.json"))
        shutil.copy(os.path.join(shell, "rank-0.pt.trace.json.gz.summary.json"), os.path.join(mixed, "b.summary.json"))
        with open(os.path.join(mixed, "c.summary.json"), "w") as f:
            f.write("{")
        with open(os.path.join(mixed, "d.summary.json"), "w") as f:
            json.dump({"schema": "tracescope-rank-summary", "schema_version": 0}, f)
        code, out, err = run([a.cli, "collectives", mixed, "--json"])
        got = json.loads(out) if code == 0 else {}
        named = [w for w in ("b.summary.json: rank 0 again", "c.summary.json: not JSON",
                             "d.summary.json: rank summary of schema version 0") if w not in err]
        if code != 0 or len(got.get("ranks", [])) != 1 or named:
            fails.append(f"unusable summaries: exit {code}, {len(got.get('ranks', []))} ranks read, not named: "
                         f"{named}; stderr: {err[-600:]}")
    for f in fails:
        print("FAIL " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
