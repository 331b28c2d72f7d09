#!/usr/bin/env python3
"""tracescope-cli capture against REAL profiler servers (issue 19, "Capture against real servers"):
servers/jax_server.py (jax.profiler.start_server, a jitted loop) and servers/tf_server.py
(tf.profiler.experimental.server.start, a tf.function fed by a tf.data pipeline).

    check_capture.py --cli TRACESCOPE_CLI [--peer-python VENV_PYTHON] [--keep DIR]

Runs with the peers' Python (run_peer_test.sh). Checks:
  generation  which server generation each is: a raw Profile request with emit_xspace=true
              (hand-encoded protobuf over grpcio) - does the reply carry the XSpace (field 8),
              an xplane.pb tool_data, or does the server write the file under repository_root?
  tf          capture 1.5 s from TF: the file lands as TensorBoard lays it out
              (LOGDIR/plugins/profile/YYYY_MM_DD_HH_MM_SS/localhost_PORT.xplane.pb), opens
              (info --json), and the host side holds TF ops (MatMul) and Iterator:: events
  jax         the same from JAX: jit_ modules / XLA ops on the host side
  two         JAX + TF in one capture: both files in one run folder, and the run folder opens as
              one trace with both hosts (overview --json environment.host_count == 2)
  busy        a second capture of a JAX server already being captured fails with exit status 1
              and the specific "already being profiled by another session" message
  xprof       compare_xprof.py (XProf's converters vs our JSON; differences are named there)
              on the JAX- and the TF-captured XSpace, saved as captured_{jax,tf}_cpu.xplane.pb
Both servers stop by themselves; every capture is 1-2 s.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_DIR = re.compile(r"^\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_\d{2}$")
BUSY = "is already being profiled by another session"


class Checks:
    def __init__(self):
        self.failures = []

    def expect(self, name, ok, detail):
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}", flush=True)
        if not ok:
            self.failures.append(name)


def start_server(script, seconds):
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "servers", script), "--port", "0",
                             "--seconds", str(seconds)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    line = proc.stdout.readline().strip()
    if not line.startswith("READY "):
        proc.kill()
        raise RuntimeError(f"{script}: expected 'READY <port>', got {line!r}")
    return proc, int(line.split()[1])


# --- a raw Profile request, to tell the server generations apart -------------------------------

def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(num, value):
    if isinstance(value, bool) or isinstance(value, int):
        return _varint(num << 3) + _varint(int(value))
    if isinstance(value, str):
        value = value.encode()
    return _varint(num << 3 | 2) + _varint(len(value)) + value


def _fields(buf):
    """(number, wire type, value) of each top-level field of a protobuf message."""
    i = 0
    while i < len(buf):
        key, i = _read_varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _read_varint(buf, i)
        elif wt == 2:
            n, i = _read_varint(buf, i)
            v, i = buf[i:i + n], i + n
        elif wt == 1:
            v, i = buf[i:i + 8], i + 8
        elif wt == 5:
            v, i = buf[i:i + 4], i + 4
        else:
            raise ValueError(f"wire type {wt}")
        yield num, wt, v


def _read_varint(buf, i):
    n = shift = 0
    while True:
        b = buf[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


def probe_generation(port, root):
    """Sends ProfileRequest{emit_xspace: true, repository_root: root} and says what came back."""
    import grpc
    opts = (_field(5, 1) + _field(1, True) + _field(2, 2) + _field(3, 1) + _field(9, 300))
    req = (_field(1, 300) + _field(3, "xplane.pb") + _field(4, opts) + _field(5, root) + _field(6, "probe")
           + _field(7, "probe") + _field(9, True))
    with grpc.insecure_channel(f"localhost:{port}") as ch:
        call = ch.unary_unary("/tensorflow.ProfilerService/Profile", request_serializer=lambda b: b,
                              response_deserializer=lambda b: b)
        reply = call(req, timeout=30)
    xspace = sum(len(v) for n, wt, v in _fields(reply) if n == 8 and wt == 2)
    tool = 0
    for n, wt, v in _fields(reply):
        if n == 6 and wt == 2:
            d = dict((fn, fv) for fn, fwt, fv in _fields(v))
            if d.get(1) == b"xplane.pb":
                tool += len(d.get(2, b""))
    files = [(os.path.relpath(p, root), os.path.getsize(p))
             for p in glob.glob(os.path.join(root, "**", "*"), recursive=True) if os.path.isfile(p)]
    if xspace:
        gen = f"new (honours emit_xspace: XSpace of {xspace} bytes in the reply)"
    elif tool:
        gen = f"middle (xplane.pb tool_data of {tool} bytes in the reply)"
    elif files:
        gen = f"old (ignores emit_xspace, writes the file itself under repository_root: {files})"
    else:
        gen = "unknown (nothing in the reply, no file)"
    return gen, xspace, tool, files


# --- the CLI ------------------------------------------------------------------------------------

def capture(cli, addresses, logdir, ms):
    t0 = time.monotonic()
    r = subprocess.run([cli, "capture", ",".join(addresses), "--duration-ms", str(ms), "--logdir", logdir],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    return r, time.monotonic() - t0


def cli_json(cli, command, path, *extra):
    r = subprocess.run([cli, command, path, *extra, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    if r.returncode != 0:
        raise RuntimeError(f"{command} {path}: exit {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def laid_out(logdir, path, port):
    rel = os.path.relpath(path, logdir).split(os.sep)
    return (len(rel) == 4 and rel[:2] == ["plugins", "profile"] and bool(RUN_DIR.match(rel[2]))
            and rel[3] == f"localhost_{port}.xplane.pb")


def check_single(c, cli, name, port, logdir, want_ops):
    r, secs = capture(cli, [f"localhost:{port}"], logdir, 1500)
    paths = r.stdout.split()
    c.expect(f"{name} capture", r.returncode == 0 and len(paths) == 1,
             f"exit {r.returncode} in {secs:.2f} s for 1.5 s; {paths} {r.stderr.strip()[:300]}")
    if r.returncode != 0 or len(paths) != 1:
        return None
    path = paths[0]
    size = os.path.getsize(path)
    c.expect(f"{name} layout", laid_out(logdir, path, port), f"{os.path.relpath(path, logdir)}, {size} bytes")
    info = cli_json(cli, "info", path)
    c.expect(f"{name} opens", info["format"] == "xspace" and info["slices"] > 0 and not info["warnings"],
             f"{info['format']} from {info['producer']}: {info['processes']} process(es), {info['tracks']} tracks, "
             f"{info['slices']} slices, {info['flows']} flows, span {info['span_ns'] / 1e9:.3f} s, "
             f"warnings {info['warnings']}")
    rows = cli_json(cli, "stats", path, "--side", "host")["rows"]
    ops = [row["name"] for row in rows if not row.get("is_idle")]
    # Every event name on the host plane (the trace as we export it), for what the op table does not
    # show: a JAX CPU program has no framework ops, so our host op table is empty (as XProf's
    # breakdown difference for JAX_CPU in compare_xprof.py says), but its XLA ops are on the plane.
    chrome = os.path.join(os.path.dirname(path), "trace.json")
    subprocess.run([cli, "convert", path, "--to", "chrome-json", chrome], check=True, stdout=subprocess.DEVNULL,
                   timeout=120)
    with open(chrome, encoding="utf-8") as f:
        trace = json.load(f)
    os.remove(chrome)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    counts = {}
    for e in events:
        if e.get("ph") == "X":
            counts[e.get("name")] = counts.get(e.get("name"), 0) + 1
    print(f"     {name}: {len(ops)} host op rows, {sum(counts.values())} complete events of {len(counts)} names",
          flush=True)
    for label, pred, where in want_ops:
        names = ops if where == "ops" else list(counts)
        hits = sorted((n for n in names if pred(n)), key=lambda n: -counts.get(n, 0))
        c.expect(f"{name} host {where}: {label}", bool(hits),
                 f"{len(hits)} of {len(names)} names, e.g. {[(n, counts.get(n, 0)) for n in hits[:4]]}")
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--peer-python", default=sys.executable)
    ap.add_argument("--keep", help="keep the captures here")
    ap.add_argument("--no-xprof", action="store_true")
    args = ap.parse_args()
    c = Checks()
    work = args.keep or tempfile.mkdtemp(prefix="tracescope_capture_")
    os.makedirs(work, exist_ok=True)
    servers = []
    try:
        t0 = time.monotonic()
        jax_proc, jax_port = start_server("jax_server.py", 45)
        servers.append(jax_proc)
        tf_proc, tf_port = start_server("tf_server.py", 45)
        servers.append(tf_proc)
        print(f"servers: JAX on {jax_port}, TF on {tf_port}, ready after {time.monotonic() - t0:.1f} s", flush=True)

        for name, port in (("jax", jax_port), ("tf", tf_port)):
            root = os.path.join(work, f"probe_{name}")
            os.makedirs(root, exist_ok=True)
            gen, xspace, tool, files = probe_generation(port, root)
            c.expect(f"{name} server generation", bool(xspace or tool or files), gen)

        tf_path = check_single(c, args.cli, "tf", tf_port, os.path.join(work, "tf"), [
            ("TF ops (MatMul)", lambda n: n == "MatMul" or n.endswith("/MatMul"), "ops"),
            ("Iterator:: events", lambda n: n.startswith("Iterator::"), "ops")])
        jax_path = check_single(c, args.cli, "jax", jax_port, os.path.join(work, "jax"), [
            ("the jitted function (PjitFunction(step))", lambda n: n == "PjitFunction(step)", "events"),
            ("XLA ops (dot_general, tanh, fusions)",
             lambda n: n.startswith(("dot_general", "wrapped_tanh")) or n.endswith("fusion"), "events")])

        # Two servers in one capture.
        logdir = os.path.join(work, "two")
        r, secs = capture(args.cli, [f"localhost:{jax_port}", f"localhost:{tf_port}"], logdir, 1000)
        paths = r.stdout.split()
        run_dirs = {os.path.dirname(p) for p in paths}
        c.expect("two servers capture", r.returncode == 0 and len(paths) == 2 and len(run_dirs) == 1,
                 f"exit {r.returncode} in {secs:.2f} s for 1 s: "
                 f"{[(os.path.relpath(p, logdir), os.path.getsize(p)) for p in paths if os.path.exists(p)]}")
        if len(run_dirs) == 1:
            run = run_dirs.pop()
            env = cli_json(args.cli, "overview", run)["environment"]
            info = cli_json(args.cli, "info", run)
            c.expect("two servers open as one trace", env["host_count"] == 2 and info["processes"] == 2,
                     f"host_count {env['host_count']} hosts {env['hosts']}; info: {info['processes']} processes, "
                     f"{info['slices']} slices")

        # A server busy with another capture.
        busy_dir = os.path.join(work, "busy")
        first = subprocess.Popen([args.cli, "capture", f"localhost:{jax_port}", "--duration-ms", "2500",
                                  "--logdir", busy_dir + "_first"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        time.sleep(1.0)
        r, secs = capture(args.cli, [f"localhost:{jax_port}"], busy_dir, 1000)
        out1, err1 = first.communicate(timeout=120)
        c.expect("busy server: second capture refused", r.returncode == 1 and BUSY in r.stderr,
                 f"exit {r.returncode} after {secs:.2f} s, stderr: {r.stderr.strip()}")
        c.expect("busy server: first capture unharmed", first.returncode == 0 and len(out1.split()) == 1,
                 f"exit {first.returncode}, {out1.strip()}")

        for proc in servers:
            proc.wait(timeout=120)
        servers = []

        if not args.no_xprof:
            for name, path in (("jax", jax_path), ("tf", tf_path)):
                if not path:
                    continue
                # compare_xprof.py names its expected differences per file: these names put the
                # captures under the CPU-only JAX and TF entries (JAX_CPU, TF_DATA_CPU there).
                named = os.path.join(work, f"captured_{name}_cpu.xplane.pb")
                shutil.copyfile(path, named)
                path = named
                t = time.monotonic()
                r = subprocess.run([sys.executable, os.path.join(HERE, "compare_xprof.py"), "--cli", args.cli,
                                    "--peer-python", args.peer_python, path], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, timeout=600)
                print(r.stdout.rstrip())
                c.expect(f"xprof on the {name} capture", r.returncode == 0,
                         f"compare_xprof.py exit {r.returncode} in {time.monotonic() - t:.1f} s")
    finally:
        for proc in servers:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if c.failures:
        print("FAILED:", ", ".join(c.failures))
        return 1
    print("all capture checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
