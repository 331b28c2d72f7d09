#!/usr/bin/env python3
"""TensorFlow on the CPU: a tf.data pipeline with one deliberately slow stage (a map whose
function sleeps) feeding a small tf.function training step, profiled to an XSpace with
tf.profiler.experimental (host_tracer_level 2, so tf.data iterator events are recorded).

    tf_data_slow_map.py OUT_DIR [--steps N] [--sleep-ms MS]

Writes OUT_DIR/tf_data_slow_map.xplane.pb (a fixed name: the profiler's own name carries the
host name) and OUT_DIR/tf_data_slow_map.producer.json: the producer's version, the step count
and the slow stage. The slow stage is the only map in the pipeline:
range -> map(slow_parse, sleeps MS per element) -> batch -> prefetch, with map-and-batch
fusion off so that the map stays an iterator of its own (Iterator::Map).
"""
import argparse
import glob
import json
import os
import shutil
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--sleep-ms", type=float, default=4.0)
    args = ap.parse_args()

    def slow_parse(x):
        def sleep(v):
            time.sleep(args.sleep_ms / 1000.0)
            return v
        y = tf.numpy_function(sleep, [x], tf.int64, stateful=True)
        y.set_shape([])
        return tf.cast(tf.fill([16], y), tf.float32)

    batch = 4
    options = tf.data.Options()
    # Keep the map a stage of its own (tf.data would fuse it with the batch into MapAndBatch).
    options.experimental_optimization.map_and_batch_fusion = False
    dataset = (tf.data.Dataset.range(batch * (args.steps + 2))
               .map(slow_parse)
               .batch(batch)
               .prefetch(1)
               .with_options(options))

    w = tf.Variable(tf.random.normal([16, 8], seed=1))

    @tf.function
    def train_step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
        w.assign_sub(0.01 * tape.gradient(loss, w))
        return loss

    it = iter(dataset)
    train_step(next(it))  # trace and compile outside the profile

    with tempfile.TemporaryDirectory() as logdir:
        profiler_options = tf.profiler.experimental.ProfilerOptions(host_tracer_level=2, python_tracer_level=0,
                                                                    device_tracer_level=1)
        tf.profiler.experimental.start(logdir, options=profiler_options)
        for step in range(args.steps):
            with tf.profiler.experimental.Trace("train", step_num=step, _r=1):
                train_step(next(it)).numpy()
        tf.profiler.experimental.stop()
        xplanes = glob.glob(os.path.join(logdir, "plugins", "profile", "*", "*.xplane.pb"))
        if len(xplanes) != 1:
            sys.exit(f"expected one .xplane.pb, found {xplanes}")
        os.makedirs(args.out_dir, exist_ok=True)
        shutil.copyfile(xplanes[0], os.path.join(args.out_dir, "tf_data_slow_map.xplane.pb"))
    producer = {"producer": f"tensorflow {tf.__version__}", "steps": args.steps, "step_name": "train",
                "slow_stage": "Map", "sleep_ms_per_element": args.sleep_ms, "batch": batch}
    with open(os.path.join(args.out_dir, "tf_data_slow_map.producer.json"), "w", encoding="utf-8") as f:
        json.dump(producer, f, indent=1)
    print(producer)


if __name__ == "__main__":
    main()
