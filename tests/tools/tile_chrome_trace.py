#!/usr/bin/env python3
"""Tiles a real Chrome trace (Kineto, XProf JSON...) into a larger one for benchmarks: N copies of
its events one after the other in time (each shifted by the trace's span plus 1 ms), on the same
processes and threads, as if the run had gone on N times longer. Flow and async ids are made
unique per copy. Other top-level keys are kept from the input.

  tile_chrome_trace.py IN.json[.gz] COPIES OUT.json
"""
import gzip
import json
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, copies, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    doc = load(src)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    times = [float(e["ts"]) for e in events if isinstance(e, dict) and "ts" in e and e.get("ph") != "M"]
    ends = [float(e["ts"]) + float(e.get("dur", 0)) for e in events if isinstance(e, dict) and "ts" in e and e.get("ph") != "M"]
    shift = (max(ends) - min(times)) + 1000.0  # microseconds
    tiled = []
    for k in range(copies):
        for e in events:
            if not isinstance(e, dict):
                continue
            if e.get("ph") == "M":
                if k == 0:
                    tiled.append(e)
                continue
            c = dict(e)
            if "ts" in c:
                c["ts"] = round(float(c["ts"]) + k * shift, 3)
            if k and "id" in c:
                c["id"] = f"{c['id']}#{k}" if isinstance(c["id"], str) else c["id"] + k * (1 << 40)
            tiled.append(c)
    result = dict(doc) if isinstance(doc, dict) else {}
    result["traceEvents"] = tiled
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
