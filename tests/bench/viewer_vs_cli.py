#!/usr/bin/env python3
"""The viewer against the CLI on one file, measured in one run: peak memory and CPU.

    tests/bench/viewer_vs_cli.py BUILD_DIR FILE [--runs N]

Runs `tracescope-cli info --json FILE` (its peak_rss_bytes and its CPU: the import), then
bench_ui_stall FILE (the viewer opening the file, every page computed, every tab visited), then,
for each page, the CLI command that prints the same figures. It prints:

- the viewer's peak resident memory over `info`'s peak_rss_bytes;
- the CPU (user + system, all threads) the viewer spent after its import (the timeline index,
  every page's analysis, the tab tour) over the CPU of the matching CLI commands, each less the
  CPU of `info` (its own import), so that both sides count the analyses alone.

The Op Stats page opens in PyTorch's convention on Kineto files (`torch-ops`), in XProf's on the
others (`stats`). The GPU page reads the results of `advice` (GPU utilisation, launches and queues included),
`critical-path` and `cuda-api`; the timeline's index has no CLI command and counts on the viewer's
side only. A command may exit non-zero when the file has nothing for it (no steps, no XLA
programs): the CPU it spent still counts, as the page's does. On a small file an analysis takes
far less CPU than the import, so each CLI figure is the least of RUNS runs (--runs, default 3).
"""
import json
import os
import re
import subprocess
import sys

# One entry per page: the page as the viewer names it, and the CLI commands printing its figures.
PAGES = [
    ("Overview", [["overview"]]),
    ("Op Stats", None),  # by the producer: see main()
    ("Kernel Stats", [["kernels"]]),
    ("Input Pipeline", [["input-pipeline"]]),
    ("tf.data", [["tfdata"]]),
    ("Scopes", [["scopes"]]),
    ("Memory", [["memory"]]),
    ("Pod", [["pod"]]),
    ("Flame Graph", [["flame"]]),
    ("XLA Ops", [["hlo-ops"]]),
    ("Collectives", [["collectives"]]),
    ("GPU Utilization", [["advice"], ["critical-path"], ["cuda-api"]]),
]


def run(argv, env=None):
    """Runs argv; returns (exit status, its stdout, CPU seconds, peak resident bytes)."""
    with open(os.devnull, "wb") as devnull:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=devnull, env=env)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, out.decode(errors="replace"), usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def least_cpu(argv, runs):
    """Runs argv `runs` times: (exit status, stdout, least CPU seconds)."""
    results = [run(argv) for _ in range(runs)]
    return results[0][0], results[0][1], min(r[2] for r in results)


def main():
    args = sys.argv[1:]
    runs = 3
    if "--runs" in args:
        i = args.index("--runs")
        runs = max(1, int(args[i + 1]))
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    build, path = args
    cli = os.path.join(build, "app", "tracescope-cli")
    bench = os.path.join(build, "tests", "bench", "bench_ui_stall")

    status, out, info_cpu = least_cpu([cli, "info", "--json", path], runs)
    if status != 0:
        sys.exit(f"info failed ({status}) on {path}")
    info = json.loads(out)
    info_peak = info["peak_rss_bytes"]
    op_stats = [["torch-ops"]] if info.get("producer") == "kineto" else [["stats"]]

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    status, out, _, _ = run([bench, path], env)
    if status != 0:
        sys.exit(f"bench_ui_stall failed ({status}) on {path}")
    peak = re.search(r"peak resident memory ([\d.]+) GB", out)
    cpu = re.search(r"process CPU: import ([\d.]+) s, then index, analyses and the tab tour ([\d.]+) s", out)
    if not peak or not cpu:
        sys.exit("bench_ui_stall printed no peak or CPU line:\n" + out)
    viewer_peak = float(peak.group(1)) * 1e9
    viewer_import_cpu, viewer_pages_cpu = float(cpu.group(1)), float(cpu.group(2))

    print(f"{path}\n")
    print("| page | CLI commands | CPU less info's (s) |\n|---|---|---|")
    cli_pages_cpu = 0.0
    for page, commands in PAGES:
        commands = commands or op_stats
        spent = 0.0
        names = []
        for command in commands:
            status, _, seconds = least_cpu([cli, command[0], path] + command[1:], runs)
            spent += max(0.0, seconds - info_cpu)
            names.append(command[0] + ("" if status == 0 else f" (exit {status})"))
        cli_pages_cpu += spent
        print(f"| {page} | {', '.join(names)} | {spent:.1f} |")
    print(f"\ninfo: CPU {info_cpu:.1f} s, peak {info_peak / 1e9:.2f} GB; "
          f"viewer: import CPU {viewer_import_cpu:.1f} s, peak {viewer_peak / 1e9:.2f} GB")
    print(f"viewer peak / info peak: {viewer_peak / info_peak:.2f}x")
    print(f"viewer CPU after the import / CLI commands' CPU less their imports: "
          f"{viewer_pages_cpu:.1f} s / {cli_pages_cpu:.1f} s = {viewer_pages_cpu / max(cli_pages_cpu, 1e-9):.2f}x")


if __name__ == "__main__":
    main()
