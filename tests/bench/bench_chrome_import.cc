// bench_chrome_import FILE [--threads N] [--no-scan]
//
// Imports one Chrome trace file and compares with a plain simdjson On-Demand scan
// of the same file measured in the same run (absolute times on shared machines
// are noise; the ratio is the number to watch).
//
// The scan loads the whole file into memory, so it runs in a forked child: the
// parent's peak RSS (getrusage) then measures the import alone. Before both, the
// file is read once so that both start from a warm page cache.
#include "bench_plain_json_scan.h"

#include "model/import/byte_source.h"
#include "model/import/chrome_json_importer.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

using namespace tracescope;

namespace {

// Reads the file once (warming the page cache); returns its JSON size (inflated for gzip).
uint64_t warmPageCache(const std::string& path) {
    std::unique_ptr<ByteSource> source = ByteSource::open(path, nullptr);
    if (!source) return 0;
    std::vector<char> buf(16 << 20);
    uint64_t total = 0;
    while (size_t got = source->read(buf.data(), buf.size())) total += got;
    return total;
}

// The bytes `t`'s args would take as the importers write them (every entry plain), to show
// what the compaction into templates saves.
size_t plainArgsBytes(const Track& t) {
    size_t bytes = 0;
    auto add = [&](ArgsOffset o) {
        ArgsReader reader(t.argsView(), o);
        ArgsWriter w;
        Arg a;
        while (reader.next(a)) w.add(a.key, a.value);
        if (!w.empty()) bytes += w.encoded().size();
    };
    for (ArgsOffset o : t.slices.args) add(o);
    for (ArgsOffset o : t.instants.args) add(o);
    return bytes;
}

// Runs the plain scan in a child process; returns its result through a pipe.
PlainScanResult scanInChild(const std::string& path) {
    int fds[2];
    PlainScanResult r;
    if (pipe(fds) != 0) {
        r.error = "pipe failed";
        return r;
    }
    const pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        PlainScanResult s = plainJsonScan(path);
        char line[512];
        const int n = std::snprintf(line, sizeof line, "%d %llu %.17g %.9f %.9f %s", s.ok ? 1 : 0,
                                    static_cast<unsigned long long>(s.events), s.checksum, s.seconds, s.loadSeconds,
                                    s.error.c_str());
        if (write(fds[1], line, size_t(n)) < 0) _exit(2);
        _exit(0);
    }
    close(fds[1]);
    char line[512] = {};
    const ssize_t got = read(fds[0], line, sizeof line - 1);
    close(fds[0]);
    waitpid(child, nullptr, 0);
    if (got <= 0) {
        r.error = "scan child failed";
        return r;
    }
    int ok = 0;
    unsigned long long events = 0;
    char error[256] = {};
    std::sscanf(line, "%d %llu %lg %lg %lg %255[^\n]", &ok, &events, &r.checksum, &r.seconds, &r.loadSeconds, error);
    r.ok = ok == 1;
    r.events = events;
    r.error = error;
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    std::string path;
    unsigned threads = 2;
    bool scan = true;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = unsigned(std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--no-scan")) scan = false;
        else path = argv[i];
    }
    if (path.empty()) {
        std::fprintf(stderr, "usage: bench_chrome_import FILE [--threads N] [--no-scan]\n");
        return 2;
    }
    const uint64_t jsonBytes = warmPageCache(path);
    std::ifstream sizeProbe(path, std::ios::binary | std::ios::ate);
    const auto fileBytes = uint64_t(sizeProbe.tellg());

    PlainScanResult plain;
    if (scan) {
        plain = scanInChild(path);
        if (!plain.ok) std::fprintf(stderr, "plain scan failed: %s\n", plain.error.c_str());
    }

    ImportOptions options;
    options.threads = threads;
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    const auto t0 = std::chrono::steady_clock::now();
    ImportResult result = importChromeJson(path, options);
    const double importSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!result.ok()) {
        std::fprintf(stderr, "import failed: %s\n", result.error.c_str());
        return 1;
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    const double importCpu = seconds(usage.ru_utime) + seconds(usage.ru_stime) - seconds(before.ru_utime) -
                             seconds(before.ru_stime);
    rusage children{};
    getrusage(RUSAGE_CHILDREN, &children);
    const double scanCpu = seconds(children.ru_utime) + seconds(children.ru_stime);
    const double peakRss = double(usage.ru_maxrss) * 1024.0;

    const Trace& trace = *result.trace;
    const TraceCounts c = trace.counts();
    size_t sliceBytes = 0, argBytes = 0, plainArgBytes = 0;
    for (const Track& t : trace.tracks) {
        sliceBytes += t.slices.memoryBytes();
        argBytes += t.argBlob.capacity() + t.argTemplates.memoryBytes();
        plainArgBytes += plainArgsBytes(t);
    }
    const double slices = double(std::max<size_t>(1, c.slices + c.asyncSlices));
    // The `to` index is built on first flowsTo() call, not by import: not resident yet.
    const double flowBytes = double(trace.flows.capacity() * sizeof(Flow) + trace.flowKinds.capacity() * sizeof(FlowKind));

    std::printf("file                 %s (%.1f MB on disk, %.1f MB of JSON)\n", path.c_str(), fileBytes / 1e6,
                jsonBytes / 1e6);
    std::printf("events               slices %zu, async %zu, instants %zu, counter samples %zu, flows %zu\n", c.slices,
                c.asyncSlices, c.instants, c.counterSamples, c.flows);
    std::printf("import               %.3f s wall, %.3f s CPU (%u threads), %.0f MB/s of JSON\n", importSeconds,
                importCpu, threads, jsonBytes / 1e6 / importSeconds);
    if (scan && plain.ok) {
        std::printf("plain On-Demand scan %.3f s wall, %.3f s CPU (%llu events, load included), %.0f MB/s of JSON\n",
                    plain.seconds, scanCpu, static_cast<unsigned long long>(plain.events),
                    jsonBytes / 1e6 / plain.seconds);
        std::printf("  of which loading   %.3f s wall (the file into one padded string)\n", plain.loadSeconds);
        std::printf("ratio import/scan    %.2f wall, %.2f CPU; import / scan without the load: %.2f wall\n",
                    importSeconds / plain.seconds, importCpu / scanCpu, importSeconds / (plain.seconds - plain.loadSeconds));
    }
    std::printf("resident per slice   %.1f B all event data (Trace::eventMemoryBytes / slices)\n",
                double(trace.eventMemoryBytes()) / slices);
    std::printf("                     %.1f B slice columns + %.1f B args + %.1f B flows\n", double(sliceBytes) / slices,
                double(argBytes) / slices, flowBytes / slices);
    std::printf("                     args as imported (plain entries, before compaction): %.1f B\n",
                double(plainArgBytes) / slices);
    std::printf("string table         %.1f MB (%zu strings)\n", double(trace.strings.memoryBytes()) / 1e6,
                trace.strings.size());
    std::printf("peak RSS             %.1f MB = %.2f x file size, %.2f x JSON size\n", peakRss / 1e6,
                peakRss / double(fileBytes), peakRss / double(std::max<uint64_t>(1, jsonBytes)));
    for (const auto& w : trace.warnings) std::printf("warning              %s\n", warningText(w).c_str());
    return 0;
}
