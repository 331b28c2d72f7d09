// A small trace built by hand whose every number below was worked out on paper
// (times in ns). Shared by the timeline tests.
//
//  /device:GPU:0 (pid 0)
//    Stream 7:  gemm_kernel [1000,3000) args{grid:128, ratio:0.5, label:"abc", flag:true}
//               gemm_kernel [4000,4500)   Memcpy HtoD [5000,7000) (gpu_memcpy)
//  python3 (pid 100)
//    Memory (counter): 0@0, 100@2000, 50@6000
//    main (tid 1):
//      step [0,10000)                                  self 10000-3500-4000 = 2500
//        forward [500,4000)                            self 3500-300-2000   = 1200
//          cudaLaunchKernel [600,900) {correlation:1}  -> flow to gemm_kernel@1000
//          aten::mm [1000,3000)                        self 2000-200        = 1800
//            cudaLaunchKernel [1100,1300) {correlation:2} -> flow to gemm_kernel@4000
//        backward [5000,9000)                          self 4000-500        = 3500
//          aten::mm [5500,6000)
//      instant "mark" @4200
//    worker (tid 2): aten::add [2000,2500), overlap [2400,2700) (partial overlap: overflow lane),
//                    hang [8000, ...) unfinished (B without E: ends at the trace end, 10000)
#pragma once

#include "model/trace/trace_builder.h"

#include <memory>

namespace tracescope::testing {

inline std::shared_ptr<const Trace> buildHandTrace() {
    TraceBuilder b("hand");
    const ProcessIndex host = b.addProcess(ProcessKind::Host, 100, "python3");
    const ProcessIndex gpu = b.addProcess(ProcessKind::Device, 0, "/device:GPU:0");
    const TrackIndex main = b.addTrack(host, TrackKind::Thread, "main", 1);
    const TrackIndex worker = b.addTrack(host, TrackKind::Thread, "worker", 2);
    const TrackIndex memory = b.addTrack(host, TrackKind::Counter, "Memory");
    const TrackIndex stream = b.addTrack(gpu, TrackKind::Thread, "Stream 7", 7);
    const StringId kernel = b.intern("kernel"), runtime = b.intern("cuda_runtime"), cpu = b.intern("cpu_op");

    ArgsWriter kargs;
    kargs.add(b.intern("grid"), ArgValue::integer(128));
    kargs.add(b.intern("ratio"), ArgValue::real(0.5));
    kargs.add(b.intern("label"), ArgValue::string(b.intern("abc")));
    kargs.add(b.intern("flag"), ArgValue::boolean(true));
    const uint32_t k1 = b.addSlice(stream, 1000, 2000, b.intern("gemm_kernel"), kernel, kargs);
    const uint32_t k2 = b.addSlice(stream, 4000, 500, b.intern("gemm_kernel"), kernel);
    b.addSlice(stream, 5000, 2000, b.intern("Memcpy HtoD"), b.intern("gpu_memcpy"));

    b.addSlice(main, 0, 10000, b.intern("step"), cpu);
    b.addSlice(main, 500, 3500, b.intern("forward"), cpu);
    ArgsWriter c1, c2;
    c1.add(b.intern("correlation"), ArgValue::integer(1));
    c2.add(b.intern("correlation"), ArgValue::integer(2));
    const uint32_t l1 = b.addSlice(main, 600, 300, b.intern("cudaLaunchKernel"), runtime, c1);
    b.addSlice(main, 1000, 2000, b.intern("aten::mm"), cpu);
    const uint32_t l2 = b.addSlice(main, 1100, 200, b.intern("cudaLaunchKernel"), runtime, c2);
    b.addSlice(main, 5000, 4000, b.intern("backward"), cpu);
    b.addSlice(main, 5500, 500, b.intern("aten::mm"), cpu);
    b.addInstant(main, 4200, b.intern("mark"), kEmptyString);

    b.addSlice(worker, 2000, 500, b.intern("aten::add"), cpu);
    b.addSlice(worker, 2400, 300, b.intern("overlap"), cpu);
    b.addSlice(worker, 8000, 0, b.intern("hang"), cpu, kNoArgs, /*unfinished=*/true);

    b.addCounterSample(memory, 0, 0);
    b.addCounterSample(memory, 2000, 100);
    b.addCounterSample(memory, 6000, 50);

    const StringId ac2g = b.intern("ac2g");
    b.addFlow(TraceBuilder::FlowEnd::ofSlice(main, l1), TraceBuilder::FlowEnd::ofSlice(stream, k1), ac2g, ac2g, 1);
    b.addFlow(TraceBuilder::FlowEnd::ofSlice(main, l2), TraceBuilder::FlowEnd::ofSlice(stream, k2), ac2g, ac2g, 2);
    return b.finish();
}

// The slice named `name` starting at `start` (searched by brute force over all tracks).
inline SliceRef findSlice(const Trace& trace, std::string_view name, TimeNs start) {
    for (TrackIndex t = 0; t < trace.tracks.size(); ++t) {
        const SliceColumns& c = trace.tracks[t].slices;
        for (uint32_t k = 0; k < c.size(); ++k)
            if (c.start[k] == start && trace.str(c.name[k]) == name) return {t, k};
    }
    return {};
}

}  // namespace tracescope::testing
