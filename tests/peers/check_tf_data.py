#!/usr/bin/env python3
"""tracescope-cli tfdata on a tf.data trace TensorFlow makes now, in the peers' environment:
generators/tf_data_slow_map.py profiles range -> map (sleeps S ms per element) -> batch(4) ->
prefetch(1) feeding a tf.function step (host tracer level 2), then this script checks that

  pipeline    one host pipeline is found, rooted at Iterator::Root, with at least one call per step
  critical    in its slowest call every iterator from the root to the Map is blocking
  bottleneck  the slowest call's bottleneck is the Map that sleeps (the producer's slow stage), with
              self time of at least (batch x S) less 20 %, and the summary says input-bound with the
              suggestion for a transformation that has a parallel version
  oracle      the slowest call's iterators (total, self, calls, blocking) match
              tests/tools/tf_data_calls.py, an independent reading of the same file
  sql         so do the rows of `query`'s tf_data_calls table for that call

    check_tf_data.py --cli TRACESCOPE_CLI [--keep DIR]

Runs with the peers' Python (run_peer_test.sh); about 20 s.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, "..", "tools")


class Checks:
    def __init__(self):
        self.failures = []

    def expect(self, name, ok, detail):
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}", flush=True)
        if not ok:
            self.failures.append(name)


def oracle(path):
    """The slowest call per tf_data_calls.py: {long name: (total, self, calls, blocking)}."""
    out = subprocess.run([sys.executable, os.path.join(TOOLS, "tf_data_calls.py"), path, "--calls", "1"],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    rows = {}
    for line in out.splitlines()[1:]:
        m = re.match(r"\s+(\S+)#\d+\s+total\s+(\d+) self\s+(-?\d+) calls\s+(\d+)\s*(blocking)?", line)
        if m:
            rows[m.group(1)] = (int(m.group(2)), int(m.group(3)), int(m.group(4)), bool(m.group(5)))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--keep", help="keep the generated trace in this folder")
    args = ap.parse_args()
    c = Checks()
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = args.keep or tmp
        subprocess.run([sys.executable, os.path.join(HERE, "generators", "tf_data_slow_map.py"), out_dir,
                        "--steps", "5", "--sleep-ms", "3"], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=240)
        with open(os.path.join(out_dir, "tf_data_slow_map.producer.json"), encoding="utf-8") as f:
            producer = json.load(f)
        path = os.path.join(out_dir, "tf_data_slow_map.xplane.pb")
        r = subprocess.run([args.cli, "tfdata", path, "--json"], check=True, stdout=subprocess.PIPE, text=True)
        j = json.loads(r.stdout)
        print(f"      {producer['producer']}: {len(j['pipelines'])} pipeline(s)")

        host = [p for p in j["pipelines"] if p["kind"] == "host"]
        p = host[0] if host else None
        root = next((n for n in p["slowest_call"]["nodes"] if n["parent_id"] is None), None) if p else None
        c.expect("pipeline", len(host) == 1 and root and root["long_name"] == "Iterator::Root"
                 and p["calls"] >= producer["steps"],
                 f"{len(host)} host pipeline(s); root {root and root['long_name']}; "
                 f"{p and p['calls']} calls for {producer['steps']} steps")
        if not p:
            sys.exit(1)
        nodes = p["slowest_call"]["nodes"]
        by_name = {n["name"]: n for n in nodes}
        path_names = ["Root", "Prefetch", "BatchV2", "Map"]
        c.expect("critical", all(by_name.get(n, {}).get("blocking") for n in path_names),
                 ", ".join(f"{n}: {'blocking' if by_name.get(n, {}).get('blocking') else 'not blocking'}"
                           for n in path_names))
        bottleneck = next((n for n in nodes if n["id"] == p["slowest_call"]["bottleneck"]), {})
        least = 0.8 * producer["batch"] * producer["sleep_ms_per_element"] * 1e6
        c.expect("bottleneck", bottleneck.get("name") == producer["slow_stage"] and bottleneck["self_ns"] >= least
                 and j["summary"]["is_input_bound"]
                 and j["bottlenecks"][0]["category"] == "transformation with a parallel version",
                 f"{bottleneck.get('long_name')} self {bottleneck.get('self_ns')} ns (at least {least:.0f}); "
                 f"input-bound {j['summary']['is_input_bound']}; category "
                 f"{j['bottlenecks'][0]['category'] if j['bottlenecks'] else None}")
        want = oracle(path)
        diffs = []
        for n in nodes:
            o = want.get(n["long_name"])
            ours = (n["total_ns"], n["self_ns"], n["calls"], n["blocking"])
            if not o or abs(o[0] - ours[0]) > 8 or abs(o[1] - ours[1]) > 16 or o[2:] != ours[2:]:
                diffs.append(f"{n['long_name']}: ours {ours}, oracle {o}")
        c.expect("oracle", not diffs and len(want) == len(nodes),
                 f"{len(nodes)} iterators agree with tf_data_calls.py" if not diffs else "; ".join(diffs))
        # The same slowest call read through SQL (the tf_data_calls table of `query`).
        q = subprocess.run([args.cli, "query", path, "--json",
                            "SELECT long_name, total_ns, self_ns, events, blocking FROM tf_data_calls "
                            "WHERE pipeline = '" + p["name"] + "' AND call_rank = 0"],
                           check=True, stdout=subprocess.PIPE, text=True)
        sql_rows = json.loads(q.stdout)["rows"]
        sql_diffs = []
        for row in sql_rows:
            o = want.get(row["long_name"])
            ours = (row["total_ns"], row["self_ns"], row["events"], bool(row["blocking"]))
            if not o or abs(o[0] - ours[0]) > 8 or abs(o[1] - ours[1]) > 16 or o[2:] != ours[2:]:
                sql_diffs.append(f"{row['long_name']}: sql {ours}, oracle {o}")
        c.expect("sql", not sql_diffs and len(sql_rows) == len(want),
                 f"{len(sql_rows)} iterators of tf_data_calls agree with tf_data_calls.py" if not sql_diffs
                 else "; ".join(sql_diffs))
    sys.exit(1 if c.failures else 0)


if __name__ == "__main__":
    main()
