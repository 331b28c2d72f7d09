#include "model/import/torch_profile_folder.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace tracescope {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kSuffix = ".pt.trace.json";
constexpr std::string_view kGzSuffix = ".pt.trace.json.gz";

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool allDigits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Digit strings as numbers of any length: no overflow for long stamps. "" (no stamp) comes first.
bool stampLess(const std::string& a, const std::string& b) {
    auto trim = [](const std::string& s) {
        const size_t nz = s.find_first_not_of('0');
        return nz == std::string::npos ? std::string_view() : std::string_view(s).substr(nz);
    };
    if (a.empty() || b.empty()) return a.empty() && !b.empty();
    const std::string_view x = trim(a), y = trim(b);
    if (x.size() != y.size()) return x.size() < y.size();
    return x < y;
}

// A stamp as Unix seconds when its length says which unit torch or Kineto wrote it in
// (time.time_ns() has 19 digits today; older Kineto wrote milliseconds, 13 digits).
std::optional<int64_t> stampSeconds(const std::string& stamp) {
    const size_t n = stamp.size();
    if (n != 10 && n != 13 && n != 16 && n != 19) return std::nullopt;
    return std::stoll(stamp.substr(0, 10));
}

}  // namespace

std::optional<TorchTraceFileName> parseTorchTraceFileName(std::string_view name) {
    TorchTraceFileName out;
    std::string_view stem;
    if (endsWith(name, kGzSuffix)) {
        stem = name.substr(0, name.size() - kGzSuffix.size());
        out.gzip = true;
    } else if (endsWith(name, kSuffix)) {
        stem = name.substr(0, name.size() - kSuffix.size());
    } else {
        return std::nullopt;
    }
    // The plugin's worker group is lazy, so the stamp is the last ".<digits>" before the suffix.
    const size_t dot = stem.rfind('.');
    if (dot != std::string_view::npos && allDigits(stem.substr(dot + 1))) {
        out.worker = std::string(stem.substr(0, dot));
        out.stamp = std::string(stem.substr(dot + 1));
    } else {
        out.worker = std::string(stem);
    }
    return out;
}

std::vector<TorchCycle> torchCycles(const std::string& dir) {
    // worker -> its files by stamp.
    std::map<std::string, std::vector<TorchWorkerFile>> byWorker;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code fec;
        if (!it->is_regular_file(fec)) continue;
        const std::string fileName = it->path().filename().string();
        const auto parsed = parseTorchTraceFileName(fileName);
        if (!parsed) continue;
        byWorker[parsed->worker].push_back({parsed->worker, it->path().string(), parsed->stamp});
    }
    std::vector<TorchCycle> cycles;
    for (auto& [worker, files] : byWorker) {
        std::sort(files.begin(), files.end(), [](const TorchWorkerFile& a, const TorchWorkerFile& b) {
            if (a.stamp != b.stamp) return stampLess(a.stamp, b.stamp);
            return a.path < b.path;  // "x.json" before "x.json.gz"
        });
        // One cycle kept twice (x.json beside its x.json.gz): the same stamp is one cycle; the
        // plain file is read, it needs no inflating.
        files.erase(std::unique(files.begin(), files.end(),
                                [](const TorchWorkerFile& a, const TorchWorkerFile& b) { return a.stamp == b.stamp; }),
                    files.end());
        if (cycles.size() < files.size()) cycles.resize(files.size());
        for (size_t n = 0; n < files.size(); ++n) {
            TorchCycle& c = cycles[n];
            c.number = int(n) + 1;
            if (const auto s = stampSeconds(files[n].stamp))
                c.timeSeconds = c.timeSeconds ? std::min(*c.timeSeconds, *s) : *s;
            c.files.push_back(files[n]);
        }
    }
    return cycles;
}

}  // namespace tracescope
