#!/usr/bin/env python3
"""TensorFlow on the CPU: a small Keras `model.fit` fed by a tf.data pipeline with a CPU-heavy
map, profiled to an XSpace with tf.profiler.experimental (host tracer level 2), for the step
breakdown and the memory profile.

    tf_keras_fit.py OUT_DIR [--steps N] [--seed S]

Keras 3's fit writes no step markers of its own: a callback wraps each training batch in
tf.profiler.experimental.Trace("train", step_num=N, _r=1), entered in on_train_batch_begin and
left in on_train_batch_end, as the TensorBoard profiling guide does for custom loops. The same
callback starts the profiler before the first profiled batch and stops it after the last, so the
first batch (tracing and compiling the train function) stays outside the profile.

The pipeline: from_tensor_slices -> shuffle -> batch -> map(random features: a few 512x512
matmuls per batch, pure TensorFlow ops, no sleep) -> prefetch(1). The map costs more than the
train step, so the step waits on its input (IteratorGetNext) and input time shows.

TensorFlow's default CPU allocator records no MemoryAllocation/MemoryDeallocation events; its BFC
allocator does (TF_CPU_ALLOCATOR_USE_BFC=true, set here before TensorFlow loads). Allocations made
between the batches (Keras' logs, the callbacks) and by the tf.data threads belong to no step.

Writes OUT_DIR/tf_keras_fit.xplane.pb and OUT_DIR/tf_keras_fit.producer.json (the producer's
versions, the profiled steps and their numbers, the pipeline and the model).
"""
import argparse
import glob
import json
import os
import random
import shutil
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["TF_CPU_ALLOCATOR_USE_BFC"] = "true"
os.environ["TF_DETERMINISTIC_OPS"] = "1"
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402

FEATURES = 64
BATCH = 32
WIDTH = 512       # random-feature width of the map
MAP_ROUNDS = 3    # matmuls of WIDTH x WIDTH per batch in the map


class ProfileSteps(keras.callbacks.Callback):
    """Profiles batches first..first+count-1, each wrapped in a "train" step annotation."""

    def __init__(self, logdir, first, count):
        super().__init__()
        self.logdir, self.first, self.count = logdir, first, count
        self.trace = None
        self.steps = []

    def _profiled(self, batch):
        return self.first <= batch < self.first + self.count

    def on_train_batch_begin(self, batch, logs=None):
        if batch == self.first:
            options = tf.profiler.experimental.ProfilerOptions(host_tracer_level=2, python_tracer_level=0,
                                                               device_tracer_level=1)
            tf.profiler.experimental.start(self.logdir, options=options)
        if self._profiled(batch):
            self.trace = tf.profiler.experimental.Trace("train", step_num=batch, _r=1)
            self.trace.__enter__()

    def on_train_batch_end(self, batch, logs=None):
        if self.trace is not None:
            self.trace.__exit__(None, None, None)
            self.trace = None
            self.steps.append(batch)
        if batch == self.first + self.count - 1:
            tf.profiler.experimental.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    keras.utils.set_random_seed(args.seed)  # Python, NumPy and TensorFlow
    tf.config.threading.set_inter_op_parallelism_threads(2)
    tf.config.threading.set_intra_op_parallelism_threads(2)

    batches = args.steps + 1  # the first batch traces the train function, outside the profile
    rng = np.random.default_rng(args.seed)
    x = rng.normal(size=(batches * BATCH, FEATURES)).astype(np.float32)
    y = (x[:, :4].sum(axis=1) > 0).astype(np.int32)
    projection = tf.constant(rng.normal(scale=FEATURES ** -0.5, size=(FEATURES, WIDTH)).astype(np.float32))
    mixing = tf.constant(rng.normal(scale=WIDTH ** -0.5, size=(WIDTH, WIDTH)).astype(np.float32))

    def random_features(features, label):
        # A CPU-heavy input stage without sleeping: project the batch up to WIDTH random features
        # and mix them a few times as WIDTH x WIDTH matrices.
        h = tf.cos(tf.matmul(features, projection))
        gram = tf.matmul(h, h, transpose_a=True) / BATCH
        for _ in range(MAP_ROUNDS):
            gram = tf.tanh(tf.matmul(gram, mixing))
        return tf.concat([features, tf.matmul(h, gram)[:, :FEATURES]], axis=1), label

    dataset = (tf.data.Dataset.from_tensor_slices((x, y))
               .shuffle(batches * BATCH, seed=args.seed)
               .batch(BATCH, drop_remainder=True)
               .map(random_features)
               .prefetch(1))

    model = keras.Sequential([
        keras.Input(shape=(2 * FEATURES,)),
        keras.layers.Dense(64, activation="relu"),
        keras.layers.Dense(2),
    ])
    model.compile(optimizer=keras.optimizers.Adam(1e-3),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

    with tempfile.TemporaryDirectory() as logdir:
        profile = ProfileSteps(logdir, first=1, count=args.steps)
        model.fit(dataset, epochs=1, verbose=0, shuffle=False, callbacks=[profile])
        xplanes = glob.glob(os.path.join(logdir, "plugins", "profile", "*", "*.xplane.pb"))
        if len(xplanes) != 1:
            sys.exit(f"expected one .xplane.pb, found {xplanes}")
        os.makedirs(args.out_dir, exist_ok=True)
        shutil.copyfile(xplanes[0], os.path.join(args.out_dir, "tf_keras_fit.xplane.pb"))
    producer = {"producer": f"tensorflow {tf.__version__}, keras {keras.__version__}",
                "steps": len(profile.steps), "step_name": "train", "step_numbers": profile.steps,
                "batch": BATCH, "seed": args.seed,
                "pipeline": "from_tensor_slices -> shuffle -> batch -> map(random_features) -> prefetch(1)",
                "map": f"{MAP_ROUNDS + 3} matmuls per batch (up to {WIDTH}x{WIDTH}), no sleep",
                "model": f"Dense(64, relu) -> Dense(2) on {2 * FEATURES} features, Adam",
                "allocator": "BFC on the CPU (TF_CPU_ALLOCATOR_USE_BFC=true)"}
    with open(os.path.join(args.out_dir, "tf_keras_fit.producer.json"), "w", encoding="utf-8") as f:
        json.dump(producer, f, indent=1)
    print(producer)


if __name__ == "__main__":
    main()
