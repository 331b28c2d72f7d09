#!/usr/bin/env python3
"""TensorFlow on the CPU with a memory-heavy training step, profiled to an XSpace with the
allocator's events, for the memory profile.

    tf_memory_heavy.py OUT_DIR [--steps N] [--mib M]

TensorFlow's CPU allocator records no MemoryAllocation/MemoryDeallocation events; its BFC
allocator does (TF_CPU_ALLOCATOR_USE_BFC=true, set here before TensorFlow loads). Each step of a
tf.function makes an M MiB tensor (stateless_random_uniform), computes from it and returns a
256x256 slice of it; the slices are kept alive on purpose (a list on the Python side), and as a
slice shares its tensor's buffer, every step leaves its M MiB behind: the heap grows by M MiB a
step, and the op that allocated those buffers is the leak hint.

Writes OUT_DIR/tf_memory_heavy.xplane.pb and OUT_DIR/tf_memory_heavy.producer.json (the
producer's version, the step count, the tensor size, and the number of tensors kept alive).
"""
import argparse
import glob
import json
import os
import shutil
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["TF_CPU_ALLOCATOR_USE_BFC"] = "true"
import tensorflow as tf  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--mib", type=int, default=16)
    args = ap.parse_args()
    n = args.mib * (1 << 20) // 4  # float32 elements of one big tensor

    @tf.function
    def heavy_step(seed):
        big = tf.random.stateless_uniform([n], seed=tf.stack([seed, 1]))
        twice = big * 2.0 + 1.0
        small = tf.reshape(twice[: 1 << 16], [256, 256])
        prod = tf.matmul(small, small)
        return tf.reduce_sum(twice) + tf.reduce_sum(prod), small

    heavy_step(tf.constant(0, tf.int64))  # trace outside the profile
    kept = []
    with tempfile.TemporaryDirectory() as logdir:
        options = tf.profiler.experimental.ProfilerOptions(host_tracer_level=2, python_tracer_level=0,
                                                           device_tracer_level=1)
        tf.profiler.experimental.start(logdir, options=options)
        for step in range(args.steps):
            with tf.profiler.experimental.Trace("train", step_num=step, _r=1):
                total, small = heavy_step(tf.constant(step + 1, tf.int64))
                total.numpy()
                kept.append(small)
        tf.profiler.experimental.stop()
        xplanes = glob.glob(os.path.join(logdir, "plugins", "profile", "*", "*.xplane.pb"))
        if len(xplanes) != 1:
            sys.exit(f"expected one .xplane.pb, found {xplanes}")
        os.makedirs(args.out_dir, exist_ok=True)
        shutil.copyfile(xplanes[0], os.path.join(args.out_dir, "tf_memory_heavy.xplane.pb"))
    producer = {"producer": f"tensorflow {tf.__version__}", "steps": args.steps, "step_name": "train",
                "big_tensor_bytes": n * 4, "tensors_kept_alive": len(kept),
                "allocator": "BFC on the CPU (TF_CPU_ALLOCATOR_USE_BFC=true)"}
    with open(os.path.join(args.out_dir, "tf_memory_heavy.producer.json"), "w", encoding="utf-8") as f:
        json.dump(producer, f, indent=1)


if __name__ == "__main__":
    main()
