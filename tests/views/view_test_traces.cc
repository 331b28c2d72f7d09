#include "view_test_traces.h"

#include "model/trace/trace_builder.h"

namespace tracescope::testing {

std::shared_ptr<const Trace> makeKinetoTrainingTrace() {
    TraceBuilder b("chrome-json");
    const ProcessIndex host = b.addProcess(ProcessKind::Host, 1, "python");
    const ProcessIndex gpu = b.addProcess(ProcessKind::Device, 0, "GPU 0");
    const TrackIndex main = b.addTrack(host, TrackKind::Thread, "main", 1);
    const TrackIndex stream = b.addTrack(gpu, TrackKind::Thread, "stream 7", 7);
    const StringId ann = b.intern("user_annotation"), py = b.intern("python_function"), op = b.intern("cpu_op"),
                   rt = b.intern("cuda_runtime"), kernel = b.intern("kernel");
    const StringId corrKey = b.intern("correlation");

    auto launch = [&](TimeNs start, TimeNs dur, int64_t corr) {
        ArgsWriter w;
        w.add(corrKey, ArgValue::integer(corr));
        b.addSlice(main, start, dur, b.intern("cudaLaunchKernel"), rt, w);
    };
    auto gpuKernel = [&](const char* name, TimeNs start, TimeNs dur, int64_t corr, const char* grid, const char* block,
                         int64_t regs, int64_t shared) {
        ArgsWriter w;
        w.add(corrKey, ArgValue::integer(corr));
        w.add(b.intern("grid"), ArgValue::json(b.intern(grid)));
        w.add(b.intern("block"), ArgValue::json(b.intern(block)));
        w.add(b.intern("registers per thread"), ArgValue::integer(regs));
        w.add(b.intern("shared memory"), ArgValue::integer(shared));
        b.addSlice(stream, start, dur, b.intern(name), kernel, w);
    };

    b.addSlice(main, 0, 1000, b.intern("ProfilerStep#1"), ann);
    b.addSlice(main, 10, 30, b.intern("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"), ann);
    b.addSlice(main, 50, 400, b.intern("nn.Module: Linear_0"), py);
    b.addSlice(main, 100, 300, b.intern("aten::mm"), op);
    launch(150, 20, 1);
    b.addSlice(main, 500, 100, b.intern("aten::relu"), op);
    launch(520, 10, 2);
    b.addSlice(main, 1000, 1000, b.intern("ProfilerStep#2"), ann);
    b.addSlice(main, 1100, 200, b.intern("aten::mm"), op);
    launch(1150, 10, 3);

    gpuKernel("volta_sgemm_128x64_nn", 200, 150, 1, "[64, 1, 1]", "[128, 1, 1]", 64, 4096);
    gpuKernel("relu_kernel", 540, 20, 2, "[8, 1, 1]", "[256, 1, 1]", 16, 0);
    gpuKernel("volta_sgemm_128x64_nn", 1200, 100, 3, "[64, 1, 1]", "[128, 1, 1]", 64, 4096);
    return std::shared_ptr<const Trace>(b.finish());
}

}  // namespace tracescope::testing
