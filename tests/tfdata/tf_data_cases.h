// Hand-built tf.data traces (XSpace, through the project's XSpace writer) whose critical path and
// bottleneck follow from the construction. Events are placed as TensorFlow 2.x records them: an
// iterator's GetNext is an "Iterator::<Dn>" event with stats id / parent_id and long_name
// "Iterator::<D1>::...::<Dn>"; an async iterator's background work sits in a <Kind>Produce event
// (stat element_id) on another thread, and the consumer's GetNext holds a <Kind>Consume event
// with the same element_id. Times are microseconds after kCaseT0 (tf_data_cases.cc draws them).
//
// The expected numbers (tests/tfdata/tst_tf_data.cc) are worked out by hand in the comments of
// tf_data_cases.cc, from the intervals written there, not by running the analysis.
#pragma once

#include "model/export/xspace_writer.h"

#include <string>
#include <vector>

namespace tracescope::tfdatacases {

inline constexpr int64_t kCaseT0 = 1'700'000'000'000'000'000;  // absolute ns of "0 us"

// range().map(f, num_parallel_calls=2).batch(2).prefetch(1): two calls; the first waits for the
// batch (all blocking, bottleneck ParallelMapV2), the second finds it ready (the prefetched
// BatchV2 and below ran ahead: not blocking; bottleneck Prefetch).
xspace::SpaceWriter mapBatchPrefetch();

// interleave(TFRecord x2).shuffle().batch(2).prefetch(1): two calls; the first's bottleneck is
// the second TFRecord reader (a slow source), the second call's producer ran ahead.
xspace::SpaceWriter interleaveTfRecord();

// Root -> Prefetch -> Map -> Range on host "host-a" (one call, 300 us, bottleneck Map) and
// Root -> Prefetch -> Filter -> Range on "host-b" (one call, 80 us, bottleneck Filter), with the
// same iterator ids on both hosts.
xspace::SpaceWriter twoHostsA();
xspace::SpaceWriter twoHostsB();

// Damaged links: a root iterator (#5, parent_id 6) holds #6, whose PrefetchConsume(1) takes the
// root itself back as the element it waited for (the root is the first iterator of
// PrefetchProduce(1)): a cycle the analysis must cut (XProf stops at depth 100).
xspace::SpaceWriter cycle();

// A trace with host activity but no tf.data events.
xspace::SpaceWriter noTfData();

// Root -> Prefetch -> BatchV2 -> Map as XProf's trace JSON writes it (process "worker-0
// /host:CPU", stats as strings), one call; with handOffs the PrefetchProduce/PrefetchConsume
// events that XProf's JSON export leaves out. Without them the bottleneck is Prefetch (880 us
// self), with them Map (830 us); intervals in tf_data_cases.cc.
std::string xprofJsonPrefetchMap(bool handOffs);

}  // namespace tracescope::tfdatacases
