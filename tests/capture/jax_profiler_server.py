#!/usr/bin/env python3
"""A real JAX profiler server for the capture test against a real peer.

    jax_profiler_server.py PORT SECONDS

Starts jax.profiler.start_server(PORT) (the TSL ProfilerService), prints "READY" once it
listens, then runs a small jitted loop on the CPU, each step in a StepTraceAnnotation, until
SECONDS have passed.
"""
import sys
import time

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    y = jnp.tanh(x @ w)
    return w - 0.01 * (x.T @ y) / x.shape[0], jnp.mean(y * y)


def main():
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    w = jnp.ones((128, 128)) * 0.01
    x = jnp.ones((64, 128))
    w, loss = step(w, x)  # compile before announcing the server
    loss.block_until_ready()
    jax.profiler.start_server(port)
    print("READY", flush=True)
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        with jax.profiler.StepTraceAnnotation("train", step_num=n):
            w, loss = step(w, x)
            loss.block_until_ready()
        n += 1
        time.sleep(0.002)
    return 0


if __name__ == "__main__":
    sys.exit(main())
