#!/usr/bin/env python3
"""A TensorFlow profiler server for the capture tests: tf.profiler.experimental.server.start(PORT),
then a tf.function training step fed by a tf.data pipeline (range -> map -> batch -> prefetch)
on the CPU until SECONDS have passed.

    tf_server.py [--port PORT] [--seconds S]

Prints "READY <port>" (flushed) once the server listens and the loop runs, and exits by itself
after S seconds (default 60). --port 0 picks a free port. TensorFlow's server has no stop call:
the process ending stops it.
"""
import argparse
import os
import socket
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=60.0)
    args = ap.parse_args()
    port = args.port or free_port()

    def parse(i):
        return tf.cast(tf.fill([32], i), tf.float32) / 100.0

    dataset = tf.data.Dataset.range(1 << 30).map(parse).batch(16).prefetch(2)
    w = tf.Variable(tf.random.normal([32, 16], seed=1))

    @tf.function
    def train_step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
        w.assign_sub(0.01 * tape.gradient(loss, w))
        return loss

    it = iter(dataset)
    train_step(next(it))  # trace before the server is announced

    tf.profiler.experimental.server.start(port)
    print(f"READY {port}", flush=True)
    end = time.monotonic() + args.seconds
    n = 0
    while time.monotonic() < end:
        with tf.profiler.experimental.Trace("train", step_num=n, _r=1):
            train_step(next(it)).numpy()
        n += 1
        time.sleep(0.002)
    print(f"DONE {n} steps", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
