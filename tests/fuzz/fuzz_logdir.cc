// Logdir scanning: the input describes a small folder tree, which is made in a scratch
// folder and opened as a logdir (listRuns, then importLogdir).
//
// Input: entries separated by NUL bytes. An entry is a relative path, then a type byte and
// its payload: 0x01 CONTENT a file, 0x02 TARGET a symbolic link, 0x03 a FIFO; no type byte:
// a folder. Path components "", "." and ".." are dropped, so everything stays inside the tree.
#include "model/import/logdir.h"
#include "tests/fuzz/fuzz_support.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace tracescope;
namespace fs = std::filesystem;

namespace {

std::string cleanRelative(std::string_view p) {
    std::string out;
    int levels = 0;
    size_t start = 0;
    while (start <= p.size() && levels < 8) {
        size_t end = p.find('/', start);
        if (end == std::string_view::npos) end = p.size();
        std::string_view part = p.substr(start, std::min<size_t>(end - start, 120));
        if (!part.empty() && part != "." && part != "..") {
            if (!out.empty()) out += '/';
            out += part;
            ++levels;
        }
        start = end + 1;
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const fs::path root = fuzz::scratchDir() + "/tracescope-fuzz-logdir-" + std::to_string(getpid());
    std::error_code ec;
    fs::remove_all(root, ec);
    fs::create_directories(root, ec);
    if (ec) std::abort();

    const std::string_view in(reinterpret_cast<const char*>(data), size);
    size_t pos = 0;
    for (int n = 0; n < 24 && pos <= in.size(); ++n) {
        size_t end = in.find('\0', pos);
        if (end == std::string_view::npos) end = in.size();
        const std::string_view entry = in.substr(pos, end - pos);
        pos = end + 1;
        const size_t typeAt = entry.find_first_of("\x01\x02\x03");
        const std::string rel = cleanRelative(entry.substr(0, typeAt));
        if (rel.empty()) continue;
        for (const std::string& name : {rel, fs::path(rel).filename().string()}) {
            int64_t seconds;
            (void)parseRunTimestamp(name, seconds);
        }
        const fs::path p = root / rel;
        fs::create_directories(p.parent_path(), ec);
        if (typeAt == std::string_view::npos) {
            fs::create_directories(p, ec);
            continue;
        }
        const std::string_view payload = entry.substr(typeAt + 1);
        switch (entry[typeAt]) {
        case '\x01': {
            std::ofstream f(p, std::ios::binary);
            f.write(payload.data(), std::streamsize(payload.size()));
            break;
        }
        case '\x02': fs::create_symlink(cleanRelative(payload).empty() ? "." : cleanRelative(payload), p, ec); break;
        case '\x03': (void)mkfifo(p.c_str(), 0600); break;
        }
    }

    const std::vector<RunInfo> runs = listRuns(root.string());
    ImportResult r = importLogdir(root.string(), fuzz::fuzzImportOptions());
    if (r.ok()) (void)r.trace->counts();
    if (!runs.empty()) {
        ImportResult last = importRun(runs.back().path, fuzz::fuzzImportOptions());
        if (last.ok()) (void)last.trace->counts();
    }
    fs::remove_all(root, ec);
    return 0;
}
