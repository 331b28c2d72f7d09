// PyTorch profiler folders: torch.profiler.tensorboard_trace_handler(dir) writes one file per
// worker and profiling cycle, dir/<worker>.<time>.pt.trace.json[.gz] (the worker defaults to
// "<host>_<pid>"). The files are grouped as TensorBoard's PyTorch plugin (torch_tb_profiler)
// groups them: the worker is the name before ".<digits>.pt.trace.json"; each worker's n-th
// time stamp, in order, is its cycle n (the plugin calls it span n); the workers of cycle n
// open together. Files whose names do not end in ".pt.trace.json[.gz]" are not part of it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope {

struct TorchTraceFileName {
    std::string worker;  // may be empty (".123.pt.trace.json")
    std::string stamp;   // the digits after the worker, "" when the name has none
    bool gzip = false;
};

// "<worker>[.<digits>].pt.trace.json[.gz]" (the plugin's pattern); nullopt for other names.
std::optional<TorchTraceFileName> parseTorchTraceFileName(std::string_view fileName);

struct TorchWorkerFile {
    std::string worker;
    std::string path;
    std::string stamp;
};

struct TorchCycle {
    int number = 0;                      // 1 = each worker's first file (the plugin's span 1)
    std::vector<TorchWorkerFile> files;  // one per worker that has an n-th file, by worker name
    // Unix seconds of the cycle's earliest stamp when the stamps read as times (s, ms, µs or ns
    // since the epoch, as torch and older Kineto wrote them); nullopt otherwise.
    std::optional<int64_t> timeSeconds;
};

// The cycles of the trace files directly inside `dir`, oldest first; empty when no file there
// follows the pattern. Special files (FIFOs, sockets, devices) and sub-folders are skipped.
std::vector<TorchCycle> torchCycles(const std::string& dir);

}  // namespace tracescope
