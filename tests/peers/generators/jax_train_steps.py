#!/usr/bin/env python3
"""JAX on the CPU: a jitted training loop of a small MLP, each step inside
jax.profiler.StepTraceAnnotation("train", step_num=i), profiled to an XSpace and to the
Perfetto trace JSON that jax.profiler.trace(create_perfetto_trace=True) writes.

    jax_train_steps.py OUT_DIR [--steps N]

Writes OUT_DIR/jax_train_steps.xplane.pb and OUT_DIR/jax_train_steps.perfetto_trace.json.gz
(fixed names: the profiler's own names carry the host name and a timestamp), and
OUT_DIR/jax_train_steps.producer.json: the producer's versions and the step count it made. The Python tracer is off (python_tracer_level=0): its events carry the
paths of the installed packages and would make the fixture large.
"""
import argparse
import glob
import importlib.metadata
import json
import os
import shutil
import sys
import tempfile

import jax
import jax.numpy as jnp

# Source locations in the HLO metadata keep only the file's base name (no local paths).
jax.config.update("jax_hlo_source_file_canonicalization_regex", r".*/")


def init_params(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        key, sub = jax.random.split(key)
        params.append((jax.random.normal(sub, (n_in, n_out)) * 0.1, jnp.zeros((n_out,))))
    return params


def loss_fn(params, x, y):
    h = x
    for w, b in params[:-1]:
        h = jax.nn.relu(h @ w + b)
    w, b = params[-1]
    return jnp.mean((h @ w + b - y) ** 2)


@jax.jit
def train_step(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return [(w - 0.01 * gw, b - 0.01 * gb) for (w, b), (gw, gb) in zip(params, grads)], loss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--steps", type=int, default=8)
    args = ap.parse_args()

    key = jax.random.PRNGKey(0)
    params = init_params(key, [64, 128, 128, 10])
    x = jax.random.normal(key, (256, 64))
    y = jax.random.normal(key, (256, 10))
    params, loss = train_step(params, x, y)  # compile outside the profile
    loss.block_until_ready()

    options = jax.profiler.ProfileOptions()
    options.python_tracer_level = 0
    with tempfile.TemporaryDirectory() as logdir:
        with jax.profiler.trace(logdir, create_perfetto_trace=True, profiler_options=options):
            for step in range(args.steps):
                with jax.profiler.StepTraceAnnotation("train", step_num=step):
                    params, loss = train_step(params, x, y)
                    loss.block_until_ready()
        xplanes = glob.glob(os.path.join(logdir, "plugins", "profile", "*", "*.xplane.pb"))
        perfetto = glob.glob(os.path.join(logdir, "plugins", "profile", "*", "perfetto_trace.json.gz"))
        if len(xplanes) != 1:
            sys.exit(f"expected one .xplane.pb, found {xplanes}")
        os.makedirs(args.out_dir, exist_ok=True)
        shutil.copyfile(xplanes[0], os.path.join(args.out_dir, "jax_train_steps.xplane.pb"))
        if perfetto:
            shutil.copyfile(perfetto[0], os.path.join(args.out_dir, "jax_train_steps.perfetto_trace.json.gz"))
        else:
            print("this JAX wrote no perfetto_trace.json.gz", file=sys.stderr)
    producer = {"producer": f"jax {jax.__version__}, jaxlib {importlib.metadata.version('jaxlib')}",
                "steps": args.steps, "step_name": "train", "perfetto_trace": bool(perfetto)}
    with open(os.path.join(args.out_dir, "jax_train_steps.producer.json"), "w", encoding="utf-8") as f:
        json.dump(producer, f, indent=1)
    print(producer)


if __name__ == "__main__":
    main()
