#!/usr/bin/env python3
"""The profiler-server helpers the capture tests use (servers/jax_server.py, servers/tf_server.py)
start, announce "READY <port>", accept a TCP connection on that port, and stop by themselves.
This checks the helpers only: capturing from them is the capture client's test (not written yet).

    check_servers.py [--seconds S]
"""
import argparse
import os
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SERVERS = ["jax_server.py", "tf_server.py"]


def check(script, seconds):
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "servers", script), "--port", "0",
                             "--seconds", str(seconds)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline().strip()
        if not line.startswith("READY "):
            return f"{script}: expected 'READY <port>', got {line!r} (exit {proc.poll()})"
        port = int(line.split()[1])
        ready = time.monotonic() - start
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass
        rest = proc.communicate(timeout=seconds + 60)[0]
        if proc.returncode != 0:
            return f"{script}: exit status {proc.returncode}"
        print(f"{script}: READY {port} after {ready:.1f} s, listening, stopped by itself ({rest.strip()})")
        return None
    except (OSError, subprocess.TimeoutExpired, ValueError) as e:
        return f"{script}: {e}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    errors = [e for e in (check(s, args.seconds) for s in SERVERS) if e]
    for e in errors:
        print("FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
