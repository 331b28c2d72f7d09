// A hand-made TF1 step as a RunMetadata, built with our own proto classes.
// Its expected lanes, slices, flows and memory samples are worked out by hand
// in the comment above buildStep(); tests compare against those numbers.
#pragma once

#include "model/proto/run_metadata.pb.h"

#include <cstdint>
#include <string>

namespace tracescope::fixture {

// Unix time of the step start, in µs.
constexpr int64_t kT0 = 1700000000000000;

inline const char* const kGpu = "/job:localhost/replica:0/task:0/device:GPU:0";
inline const char* const kCpu = "/job:localhost/replica:0/task:0/device:CPU:0";
inline const char* const kStream = "/job:localhost/replica:0/task:0/device:GPU:0/stream:7";

inline tensorflow::NodeExecStats* addNode(tensorflow::DeviceStepStats* dev, const std::string& name,
                                          const std::string& label, int64_t startUs, int64_t durUs, int outputs = 0) {
    auto* n = dev->add_node_stats();
    n->set_node_name(name);
    n->set_timeline_label(label);
    n->set_all_start_micros(kT0 + startUs);
    n->set_all_end_rel_micros(durUs);
    n->set_op_start_rel_micros(durUs > 1 ? 1 : 0);
    n->set_op_end_rel_micros(durUs);
    for (int i = 0; i < outputs; ++i) {
        auto* o = n->add_output();
        o->set_slot(i);
        o->mutable_tensor_description()->mutable_allocation_description()->set_requested_bytes(16 * (i + 1));
    }
    return n;
}

inline void addRecord(tensorflow::AllocatorMemoryUsed* m, int64_t us, int64_t bytes) {
    auto* r = m->add_allocation_records();
    r->set_alloc_micros(kT0 + us);
    r->set_alloc_bytes(bytes);
}

// The hand-made step (times in µs after kT0):
//   GPU:0   a [0,10)  b [2,7)  c [10,30)  d [8,12)  e [9,12)  f [40,40]
//           lanes, greedy in start order: a->0, b->1 (a busy), d->1 (b ended at 7),
//           e->2 (lane 0 busy to 10, lane 1 to 12), c->0 (a ended at 10), f->0.
//   CPU:0   g [35.123, 39.690) from nanos; h [50,55) thread 7 "worker-7" -> both lane 0.
//   stream:7 one kernel of c at [12,18).
// Dataflow (producer lane != consumer lane): b->c, c->d, a->e, b:1->e, c->g = 5 flows
// (a->c is on one lane; ^ctrl and g (no outputs) have no producer).
// Memory: GPU_0_bfc records +300@8, +1000@10, -400@25 -> 300, 1300, 900;
//         cpu bytes in use 2048 at h's end (55); cuda_host_bfc total 64 at g's end.
inline tensorflow::RunMetadata buildStep() {
    tensorflow::RunMetadata run;
    auto* step = run.mutable_step_stats();
    auto* gpu = step->add_dev_stats();
    gpu->set_device(kGpu);
    // File order differs from start order on purpose.
    auto* c = addNode(gpu, "c", "c = MatMul(a, b)", 10, 20, 1);
    auto* e = addNode(gpu, "e", "e = AddN(a, b:1, ^ctrl)", 9, 3);
    auto* a = addNode(gpu, "a", "a = Const()", 0, 10, 1);
    addNode(gpu, "b", "b = Const()", 2, 5, 2);
    auto* d = addNode(gpu, "d", "d = Relu(c)", 8, 4);
    addNode(gpu, "f", "", 40, 0);
    (void)e;
    auto* mc = c->add_memory();
    mc->set_allocator_name("GPU_0_bfc");
    addRecord(mc, 10, 1000);
    addRecord(mc, 25, -400);
    auto* md = d->add_memory();
    md->set_allocator_name("GPU_0_bfc");
    addRecord(md, 8, 300);
    auto* ma = a->add_memory();
    ma->set_allocator_name("GPU_0_bfc");
    ma->set_allocator_bytes_in_use(999);  // ignored: this allocator has records

    auto* cpu = step->add_dev_stats();
    cpu->set_device(kCpu);
    auto* g = addNode(cpu, "g", "g = Identity(c)", 35, 4);
    g->set_all_start_nanos((kT0 + 35) * 1000 + 123);
    g->set_all_end_rel_nanos(4567);
    auto* mg = g->add_memory();
    mg->set_allocator_name("cuda_host_bfc");
    mg->set_total_bytes(64);
    auto* h = addNode(cpu, "h", "h = Sum(g)", 50, 5);
    h->set_scheduled_micros(kT0 + 48);
    h->set_thread_id(7);
    (*cpu->mutable_thread_names())[7] = "worker-7";
    auto* mh = h->add_memory();
    mh->set_allocator_name("cpu");
    mh->set_allocator_bytes_in_use(2048);
    mh->set_total_bytes(100);

    auto* stream = step->add_dev_stats();
    stream->set_device(kStream);
    addNode(stream, "c:MatMul", "volta_sgemm_128x64_nn @@c:MatMul#id=3#", 12, 6);
    return run;
}

}  // namespace tracescope::fixture
