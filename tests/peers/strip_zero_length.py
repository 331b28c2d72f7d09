#!/usr/bin/env python3
"""Writes a copy of an XSpace without XLA's zero-length ThreadpoolListener marks
(ThreadpoolListener::StartRegion / StopRegion / Record), for XProf's converters.

    strip_zero_length.py IN.xplane.pb OUT.xplane.pb

XProf's step breakdown (event_span.cc's PriorityTracker) orders a zero-length event's end before
its start, so such a mark at a moment when no other event of the step runs leaves Host compute on
until the next event of the step ends. Without the marks XProf's breakdown is what both tools
measure; compare_xprof.py compares ours with that as well. Run with the peers' Python (it needs
TensorFlow's XPlane protos); prints how many events it removed.
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
from tensorflow.tsl.profiler.protobuf import xplane_pb2  # noqa: E402  pylint: disable=wrong-import-position


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    space = xplane_pb2.XSpace()
    with open(sys.argv[1], "rb") as f:
        space.ParseFromString(f.read())
    removed = 0
    for plane in space.planes:
        marks = {i for i, m in plane.event_metadata.items() if m.name.startswith("ThreadpoolListener::")}
        for line in plane.lines:
            keep = [e for e in line.events if not (e.duration_ps == 0 and e.metadata_id in marks)]
            removed += len(line.events) - len(keep)
            del line.events[:]
            line.events.extend(keep)
    with open(sys.argv[2], "wb") as f:
        f.write(space.SerializeToString())
    print(removed)


if __name__ == "__main__":
    main()
