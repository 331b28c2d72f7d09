#!/usr/bin/env python3
"""Google's pprof reads `tracescope-cli flame --pprof` profiles: `go tool pprof -top` (Debian's
golang-go) on each trace's profile must report the flame command's totals (self time as wall, and the
device time) and, for traces whose frames are not Python frames (a Python frame is named by its
function alone in pprof, so two files' "forward" merge), every frame's flat time equal to the flame
command's self time (names pprof does not shorten: no template arguments or parameters).

    check_pprof.py --cli TRACESCOPE_CLI TRACE...

Exit 77 (CTest's skip) when `go` or a trace is missing, 1 under CI=true.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROW = re.compile(r"^\s*(\d+)ns\s+\S+%\s+\S+%\s+(\d+)ns\s+\S+%\s+(.*)$")
TOTAL = re.compile(r"of (\d+)ns total")


def skip(why):
    print(("FAIL (CI=true): " if os.environ.get("CI") == "true" else "SKIP: ") + why)
    return 1 if os.environ.get("CI") == "true" else 77


def pprof_top(profile, sample_index):
    r = subprocess.run(["go", "tool", "pprof", "-top", "-unit=ns", "-nodecount=1000000", "-nodefraction=0",
                        "-edgefraction=0", f"-sample_index={sample_index}", profile],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"go tool pprof failed on {profile}: {r.stderr}")
    total = TOTAL.search(r.stdout)
    rows = {}
    for line in r.stdout.splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(3)] = int(m.group(1))
    return (int(total.group(1)) if total else 0), rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    if not shutil.which("go"):
        return skip("go is not installed (Debian's golang-go; packaging/install-deps.sh installs it)")
    missing = [p for p in a.traces if not os.path.exists(p)]
    if missing:
        return skip("missing: " + ", ".join(missing))
    failures = 0
    for path in a.traces:
        r = subprocess.run([a.cli, "flame", path, "--json"], capture_output=True, text=True, check=True)
        flame = json.loads(r.stdout)
        with tempfile.TemporaryDirectory() as tmp:
            profile = os.path.join(tmp, "profile.pb.gz")
            subprocess.run([a.cli, "flame", path, "--pprof", profile], capture_output=True, check=True)
            total, rows = pprof_top(profile, "wall")
            if total != flame["totals"]["self_ns"]:
                print(f"{path}: pprof's wall total {total} != flame's self_ns {flame['totals']['self_ns']}")
                failures += 1
            if flame["totals"]["device_ns"]:
                dtotal, _ = pprof_top(profile, "device")
                if dtotal != flame["totals"]["device_ns"]:
                    print(f"{path}: pprof's device total {dtotal} != flame's device_ns {flame['totals']['device_ns']}")
                    failures += 1
            checked = 0
            if not any(f["python"] for f in flame["frames"]):
                for f in flame["frames"]:
                    # pprof shortens C++ names (template arguments, parameters): compare the others.
                    if "<" in f["name"] or "(" in f["name"]:
                        continue
                    if not f["self_ns"]:
                        continue
                    if rows.get(f["name"]) != f["self_ns"]:
                        print(f"{path}: {f['name'][:120]}: pprof flat {rows.get(f['name'])} != self {f['self_ns']}")
                        failures += 1
                    checked += 1
        print(f"{path}: totals and {checked} frames checked")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
