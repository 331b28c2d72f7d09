#!/usr/bin/env python3
"""JAX on the CPU as most users profile it: jax.profiler.trace() with its default options (the
Python tracer on), a jitted training loop of a small MLP fed by a NumPy batch made in Python each
step, every step inside jax.profiler.StepTraceAnnotation("train", step_num=i).

With the Python tracer on, each StepTraceAnnotation begins inside the Python frame event of its
own __init__ and ends after that frame: the step annotation only partly overlaps the Python
events of its thread, which is what this fixture is for.

    jax_default_capture.py OUT_DIR [--steps N]

Writes OUT_DIR/jax_default_capture.xplane.pb (a fixed name: the profiler's own names carry the
host name and a timestamp) and OUT_DIR/jax_default_capture.producer.json (the producer's
versions and the step count it made). The Python tracer names frames by file base name and line
("$profiler.py:553 __init__"), so no local path enters the file.
"""
import argparse
import glob
import importlib.metadata
import json
import os
import shutil
import sys
import tempfile

import numpy as np

import jax

# The model and its jitted step are jax_train_steps.py's (that module also sets the HLO source
# file canonicalization, so no local path enters the HLO metadata).
from jax_train_steps import init_params, train_step  # noqa: E402  pylint: disable=wrong-import-position


def make_batch(rng, n=256):
    # Host work in Python: a normalised batch, so each step has host compute of its own.
    x = rng.standard_normal((n, 64)).astype(np.float32)
    x = (x - x.mean(axis=0)) / (x.std(axis=0) + 1e-6)
    y = np.tanh(x[:, :10] * 2.0).astype(np.float32)
    return x, y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--steps", type=int, default=10)
    args = ap.parse_args()

    rng = np.random.default_rng(0)
    params = init_params(jax.random.PRNGKey(0), [64, 128, 128, 10])
    x, y = make_batch(rng)
    params, loss = train_step(params, x, y)  # compile outside the profile
    loss.block_until_ready()

    with tempfile.TemporaryDirectory() as logdir:
        with jax.profiler.trace(logdir):  # the defaults: Python tracer on
            for step in range(args.steps):
                with jax.profiler.StepTraceAnnotation("train", step_num=step):
                    x, y = make_batch(rng)
                    params, loss = train_step(params, x, y)
                    loss.block_until_ready()
        xplanes = glob.glob(os.path.join(logdir, "plugins", "profile", "*", "*.xplane.pb"))
        if len(xplanes) != 1:
            sys.exit(f"expected one .xplane.pb, found {xplanes}")
        os.makedirs(args.out_dir, exist_ok=True)
        out = os.path.join(args.out_dir, "jax_default_capture.xplane.pb")
        shutil.copyfile(xplanes[0], out)
    producer = {"producer": f"jax {jax.__version__}, jaxlib {importlib.metadata.version('jaxlib')}",
                "steps": args.steps, "step_name": "train", "python_tracer": True}
    with open(os.path.join(args.out_dir, "jax_default_capture.producer.json"), "w", encoding="utf-8") as f:
        json.dump(producer, f, indent=1)
    print(producer)


if __name__ == "__main__":
    main()
