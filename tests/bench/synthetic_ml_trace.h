// A synthetic ML-training-like trace built directly with TraceBuilder, with the
// structure of shared/bench/gen_chrome_trace.py: 2 hosts x 4 threads of nested
// CPU ops (depth <= 4) issuing cudaLaunchKernel calls with flows to kernels on
// 4 GPUs x 3 streams, plus memory counters, instants and async spans. Same
// event density per unit of time at any size, so a trace of 10M slices is
// 100x longer than one of 100k.
#pragma once

#include "model/trace/trace_builder.h"

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace tracescope::bench {

inline std::unique_ptr<Trace> buildSyntheticMlTrace(size_t events, uint32_t seed = 1) {
    TraceBuilder b("synthetic");
    std::mt19937_64 rng(seed);
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    auto pick = [&](size_t n) { return size_t(std::uniform_int_distribution<size_t>(0, n - 1)(rng)); };

    std::vector<StringId> ops, kernels;
    for (int k = 0; k < 400; ++k) ops.push_back(b.intern("op_" + std::to_string(k)));
    for (const char* n : {"MatMul", "Conv2D", "Relu", "BiasAdd", "AllReduce"}) ops.push_back(b.intern(n));
    for (int k = 0; k < 300; ++k)
        kernels.push_back(b.intern("void kernel_" + std::to_string(k) + "<float, " + std::to_string(k % 7) + ">(float*, int)"));
    const StringId cpuOp = b.intern("cpu_op"), runtime = b.intern("cuda_runtime"), kernelCat = b.intern("kernel");
    const StringId launch = b.intern("cudaLaunchKernel"), corrKey = b.intern("correlation"), stepKey = b.intern("step");
    const StringId gridKey = b.intern("grid"), regsKey = b.intern("registers per thread");
    const StringId marker = b.intern("marker"), prefetch = b.intern("prefetch"), io = b.intern("io");
    const StringId ac2g = b.intern("ac2g"), inner = b.intern("aten::inner");

    std::vector<TrackIndex> hostTracks, gpuTracks, memTracks, asyncTracks;
    for (int h = 0; h < 2; ++h) {
        const ProcessIndex p = b.addProcess(ProcessKind::Host, 100 + h, "/host:CPU " + std::to_string(h));
        memTracks.push_back(b.addTrack(p, TrackKind::Counter, "Memory allocated"));
        asyncTracks.push_back(b.addTrack(p, TrackKind::Async, "prefetch"));
        for (int t = 0; t < 4; ++t) hostTracks.push_back(b.addTrack(p, TrackKind::Thread, "python thread " + std::to_string(t), t + 1));
    }
    for (int g = 0; g < 4; ++g) {
        const ProcessIndex p = b.addProcess(ProcessKind::Device, g, "/device:GPU:" + std::to_string(g));
        for (int s = 0; s < 3; ++s) gpuTracks.push_back(b.addTrack(p, TrackKind::Thread, "Stream #" + std::to_string(7 + s), 7 + s));
    }
    const size_t perTrack = std::max<size_t>(1, events / (hostTracks.size() + gpuTracks.size()));

    // GPU streams first, so launches can bind their flows to the kernel running at launch + 5 µs.
    for (TrackIndex t : gpuTracks) {
        double ts = 1'000'010'000;
        for (size_t n = 0; n < perTrack; ++n) {
            const double d = uniform(2'000, 120'000);
            ArgsWriter args;
            args.add(gridKey, ArgValue::integer(int64_t(pick(4096)) + 1));
            args.add(regsKey, ArgValue::integer(16 + int64_t(pick(240))));
            b.addSlice(t, TimeNs(ts), TimeNs(d), kernels[pick(kernels.size())], kernelCat, args);
            ts += d + uniform(0, 5'000);
        }
    }
    uint64_t corr = 0;
    double mem = 0;
    for (size_t ti = 0; ti < hostTracks.size(); ++ti) {
        const TrackIndex t = hostTracks[ti];
        double ts = 1'000'000'000;
        size_t n = 0;
        while (n < perTrack) {
            const double outer = uniform(50'000, 400'000);
            ArgsWriter args;
            args.add(stepKey, ArgValue::integer(int64_t(n)));
            b.addSlice(t, TimeNs(ts), TimeNs(outer), ops[pick(ops.size())], cpuOp, args);
            ++n;
            // A nested op (depth 1) holding 1-4 launches (depth 2), some with a child (depth 3).
            const double innerStart = ts + 1'000, innerEnd = ts + outer - 1'000;
            b.addSlice(t, TimeNs(innerStart), TimeNs(innerEnd - innerStart), inner, cpuOp);
            ++n;
            double lts = innerStart + 500;
            const int launches = 1 + int(pick(4));
            for (int l = 0; l < launches; ++l) {
                const double d = uniform(1'000, outer / 5);
                if (lts + d >= innerEnd - 500) break;
                ArgsWriter la;
                la.add(corrKey, ArgValue::integer(int64_t(corr)));
                const uint32_t id = b.addSlice(t, TimeNs(lts), TimeNs(d), launch, runtime, la);
                ++n;
                if (d > 3'000) {
                    b.addSlice(t, TimeNs(lts + 200), TimeNs(d / 3), ops[pick(ops.size())], cpuOp);
                    ++n;
                }
                const TrackIndex gt = gpuTracks[corr % gpuTracks.size()];
                b.addFlow(TraceBuilder::FlowEnd::ofSlice(t, id), TraceBuilder::FlowEnd::enclosing(gt, TimeNs(lts + 5'000)),
                          ac2g, ac2g, corr);
                ++corr;
                lts += d + uniform(500, 3'000);
            }
            if (n % 50 < 3) b.addInstant(t, TimeNs(ts), marker, kEmptyString);
            if (n % 20 < 3) {
                mem = std::max(0.0, mem + uniform(-1 << 20, 1 << 20));
                b.addCounterSample(memTracks[ti / 4], TimeNs(ts), mem);
            }
            if (n % 200 < 3) b.addSlice(asyncTracks[ti / 4], TimeNs(ts), TimeNs(3 * outer), prefetch, io);
            ts += outer + uniform(1'000, 30'000);
        }
    }
    return b.finish();
}

}  // namespace tracescope::bench
