#!/usr/bin/env python3
"""TensorFlow 1 style (tf.compat.v1): one Session.run with
RunOptions(trace_level=FULL_TRACE), saving the RunMetadata and the timeline of the same run.

    tf1_run_metadata.py OUT_DIR

Writes OUT_DIR/tf1_run_metadata.pb (the serialized RunMetadata, its step_stats holding every
op the executor ran) and OUT_DIR/tf1_timeline.json (timeline.Timeline(step_stats)
.generate_chrome_trace_format() of the same RunMetadata), and OUT_DIR/tf1_run_metadata.producer.json:
the producer's version and the op count of the step stats (node stats summed over devices).
"""
import argparse
import json
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402
from tensorflow.python.client import timeline  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    args = ap.parse_args()

    tf1 = tf.compat.v1
    tf1.disable_eager_execution()
    graph = tf1.Graph()
    with graph.as_default():
        x = tf1.placeholder(tf.float32, [32, 64], name="x")
        h = x
        for i, width in enumerate([128, 64, 10]):
            w = tf1.get_variable(f"w{i}", [h.shape[1], width], initializer=tf1.glorot_uniform_initializer(seed=i))
            b = tf1.get_variable(f"b{i}", [width], initializer=tf1.zeros_initializer())
            h = tf.matmul(h, w) + b
            if i < 2:
                h = tf.nn.relu(h)
        loss = tf.reduce_mean(tf.square(h))
        train = tf1.train.GradientDescentOptimizer(0.01).minimize(loss)
        init = tf1.global_variables_initializer()

    with tf1.Session(graph=graph) as sess:
        sess.run(init)
        feed = {x: np.random.default_rng(0).standard_normal((32, 64), dtype=np.float32)}
        sess.run(train, feed_dict=feed)  # warm up outside the traced run
        options = tf1.RunOptions(trace_level=tf1.RunOptions.FULL_TRACE)
        metadata = tf1.RunMetadata()
        sess.run([train, loss], feed_dict=feed, options=options, run_metadata=metadata)

    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, "tf1_run_metadata.pb"), "wb") as f:
        f.write(metadata.SerializeToString())
    with open(os.path.join(args.out_dir, "tf1_timeline.json"), "w", encoding="utf-8") as f:
        f.write(timeline.Timeline(metadata.step_stats).generate_chrome_trace_format())
    producer = {"producer": f"tensorflow {tf.__version__}",
                "node_stats": sum(len(d.node_stats) for d in metadata.step_stats.dev_stats),
                "devices": [d.device for d in metadata.step_stats.dev_stats]}
    with open(os.path.join(args.out_dir, "tf1_run_metadata.producer.json"), "w", encoding="utf-8") as f:
        json.dump(producer, f, indent=1)
    print(producer)


if __name__ == "__main__":
    main()
