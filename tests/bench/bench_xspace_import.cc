// Import speed of XSpace files: our import (parse + build the trace) against a
// plain protobuf ParseFromString of the same bytes, measured in the same run.
//
//   bench_xspace_import [FILE...]
// Without files: the largest .xplane.pb of the shared test data, and a synthetic
// ~200 MB XSpace made by repeating that file's events (written to the temp dir).
#include "model/import/xspace_importer.h"
#include "model/proto/xplane.pb.h"

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
namespace pb = tensorflow::profiler;

namespace {

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

// CPU time of the whole process (all threads): on a shared, loaded machine wall time mostly
// measures the neighbours, so both are printed.
double cpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string largestTestFile() {
    std::string best;
    uintmax_t bestSize = 0;
    std::error_code ec;
    const fs::path root = fs::path(TRACESCOPE_SHARED_DIR) / "testdata";
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() < 10 || name.substr(name.size() - 10) != ".xplane.pb") continue;
        if (it->file_size() > bestSize) {
            bestSize = it->file_size();
            best = it->path().string();
        }
    }
    return best;
}

// Repeats every line's events `copies` times, each copy shifted past the line's previous
// extent, so the result is a valid, properly nested, much longer profile.
std::string makeSynthetic(const std::string& seedPath, size_t targetBytes) {
    pb::XSpace space;
    const std::string seed = readAll(seedPath);
    if (!space.ParseFromString(seed)) return {};
    size_t eventBytes = 0;
    for (const auto& plane : space.planes())
        for (const auto& line : plane.lines()) eventBytes += line.ByteSizeLong();
    // Correlation ids must stay unique per launch, as in a real capture.
    std::vector<int64_t> correlationStat(space.planes_size(), -1);
    for (int p = 0; p < space.planes_size(); ++p)
        for (const auto& [id, md] : space.planes(p).stat_metadata())
            if (md.name() == "correlation_id") correlationStat[p] = id;
    const size_t copies = std::max<size_t>(1, targetBytes / std::max<size_t>(1, eventBytes));
    for (int p = 0; p < space.planes_size(); ++p) {
        for (auto& line : *space.mutable_planes(p)->mutable_lines()) {
            int64_t extent = 0;
            for (const auto& e : line.events()) extent = std::max(extent, e.offset_ps() + e.duration_ps());
            extent += 1000000;  // 1 us gap between copies
            const int n = line.events_size();
            line.mutable_events()->Reserve(int(n * copies));
            for (size_t c = 1; c < copies; ++c) {
                for (int k = 0; k < n; ++k) {
                    pb::XEvent* e = line.add_events();
                    *e = line.events(k);
                    if (e->data_case() == pb::XEvent::kOffsetPs) e->set_offset_ps(e->offset_ps() + int64_t(c) * extent);
                    for (auto& st : *e->mutable_stats())
                        if (st.metadata_id() == correlationStat[p] && st.value_case() == pb::XStat::kInt64Value)
                            st.set_int64_value(st.int64_value() + int64_t(c) * 100000000);
                        else if (st.metadata_id() == correlationStat[p] && st.value_case() == pb::XStat::kUint64Value)
                            st.set_uint64_value(st.uint64_value() + uint64_t(c) * 100000000);
                }
            }
        }
    }
    return space.SerializeAsString();
}

void bench(const std::string& path, int rounds, unsigned threads) {
    const std::string bytes = readAll(path);
    double parseBest = 1e30, importBest = 1e30, parseCpuBest = 1e30, importCpuBest = 1e30;
    size_t events = 0;
    for (int r = 0; r < rounds; ++r) {
        {
            pb::XSpace space;
            const double c0 = cpuSeconds();
            const auto t0 = Clock::now();
            const bool ok = space.ParseFromString(bytes);
            const auto t1 = Clock::now();
            parseCpuBest = std::min(parseCpuBest, cpuSeconds() - c0);
            if (!ok) {
                std::printf("%s: protobuf cannot parse it\n", path.c_str());
                return;
            }
            parseBest = std::min(parseBest, seconds(t0, t1));
        }
        tracescope::ImportOptions options;
        options.threads = threads;
        const double c0 = cpuSeconds();
        const auto t0 = Clock::now();
        tracescope::ImportResult result = tracescope::importXSpace(path, options);
        const auto t1 = Clock::now();
        importCpuBest = std::min(importCpuBest, cpuSeconds() - c0);
        if (!result.ok()) {
            std::printf("%s: import failed: %s\n", path.c_str(), result.error.c_str());
            return;
        }
        importBest = std::min(importBest, seconds(t0, t1));
        const auto c = result.trace->counts();
        events = c.slices + c.instants;
    }
    std::printf("%s (%u import thread%s)\n  %.1f MB, %zu events\n"
                "                             wall ms   cpu ms\n"
                "  protobuf ParseFromString  %8.1f %8.1f\n"
                "  tracescope importXSpace   %8.1f %8.1f\n"
                "  ratio import/parse        %7.2fx %7.2fx  (target <= 1.5x)\n",
                path.c_str(), threads, threads == 1 ? "" : "s", double(bytes.size()) / 1e6, events,
                parseBest * 1e3, parseCpuBest * 1e3, importBest * 1e3, importCpuBest * 1e3, importBest / parseBest,
                importCpuBest / parseCpuBest);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> files(argv + 1, argv + argc);
    std::string synthetic;
    if (files.empty()) {
        const std::string seed = largestTestFile();
        if (seed.empty()) {
            std::printf("no .xplane.pb under %s/testdata\n", TRACESCOPE_SHARED_DIR);
            return 1;
        }
        files.push_back(seed);
        synthetic = (fs::temp_directory_path() / "tracescope_bench_synthetic.xplane.pb").string();
        const std::string big = makeSynthetic(seed, size_t(200) << 20);
        std::ofstream(synthetic, std::ios::binary).write(big.data(), std::streamsize(big.size()));
        files.push_back(synthetic);
    }
    if (std::getenv("TRACESCOPE_BENCH_ONLY_WRITE")) return 0;
    for (const std::string& f : files) {
        bench(f, f == synthetic ? 2 : 5, 2);
        bench(f, f == synthetic ? 2 : 5, 1);
    }
    if (!synthetic.empty() && !std::getenv("TRACESCOPE_BENCH_KEEP")) fs::remove(synthetic);
    return 0;
}
