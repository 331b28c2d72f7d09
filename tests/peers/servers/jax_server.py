#!/usr/bin/env python3
"""A JAX profiler server for the capture tests: jax.profiler.start_server(PORT), then a jitted
loop on the CPU (each iteration in a StepTraceAnnotation "train") until SECONDS have passed.

    jax_server.py [--port PORT] [--seconds S]

Prints "READY <port>" (flushed) once the server listens and the loop runs, and exits by itself
after S seconds (default 60). --port 0 picks a free port.
"""
import argparse
import socket
import sys
import time

import jax
import jax.numpy as jnp


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@jax.jit
def step(w, x):
    y = jnp.tanh(x @ w)
    return w - 0.01 * (x.T @ y) / x.shape[0], jnp.mean(y * y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=60.0)
    args = ap.parse_args()
    port = args.port or free_port()

    key = jax.random.PRNGKey(0)
    w = jax.random.normal(key, (128, 128)) * 0.1
    x = jax.random.normal(key, (64, 128))
    w, loss = step(w, x)  # compile before the server is announced
    loss.block_until_ready()

    server = jax.profiler.start_server(port)
    print(f"READY {port}", flush=True)
    end = time.monotonic() + args.seconds
    n = 0
    while time.monotonic() < end:
        with jax.profiler.StepTraceAnnotation("train", step_num=n):
            w, loss = step(w, x)
            loss.block_until_ready()
        n += 1
        time.sleep(0.002)
    jax.profiler.stop_server()
    del server
    print(f"DONE {n} steps", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
