#include "app/cli/analysis_cli.h"

#include "app/cli/run_choice.h"
#include "model/import/import.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <optional>

namespace tracescope::cli {

namespace {
// The import warnings of the trace this run read (see reportImportWarnings).
std::vector<ImportWarning> reported;

template <typename T>
nlohmann::json orNull(const std::optional<T>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// Adds the "warnings" array to a JSON object, unless the command set its own.
nlohmann::json withWarnings(const nlohmann::json& j) {
    if (!j.is_object() || j.contains("warnings")) return j;
    nlohmann::json out = j;
    out["warnings"] = warningsJson(reported);
    return out;
}
}  // namespace

ImportOptions cliImportOptions() {
    ImportOptions o;
    o.allowStreams = true;  // a path named on the command line, or "-", may be a pipe
    return o;
}

std::unique_ptr<Trace> loadTraceOrReport(const std::string& path) {
    ImportResult r = openCliPath(path, cliImportOptions());
    if (!r.ok()) {
        std::fprintf(stderr, "tracescope-cli: %s\n", r.error.c_str());
        return nullptr;
    }
    reportImportWarnings(r.trace->warnings);
    return std::move(r.trace);
}

int loadWorkersOrReport(const std::vector<std::string>& paths, MultiWorkerRun& run, bool forceMerge) {
    WorkerImportOptions o;
    o.base = cliImportOptions();
    std::vector<std::string> files;  // with --run, each folder's chosen run
    if (std::string error; !runFilesOf(paths, files, error)) {
        std::fprintf(stderr, "tracescope-cli: %s\n", error.c_str());
        return 1;
    }
    MultiWorkerResult r = importWorkers(files, o);
    if (!r.ok()) {
        std::fprintf(stderr, "tracescope-cli: %s\n", r.error.c_str());
        return 1;
    }
    if (!r.job.oneJob() && !forceMerge) {
        std::fprintf(stderr, "tracescope-cli: %s (--force-merge merges them anyway)\n", r.job.reason.c_str());
        return 2;
    }
    std::vector<ImportWarning> all = r.run.warnings;
    for (const WorkerTrace& w : r.run.workers) {
        if (!w.trace) continue;
        for (const ImportWarning& x : w.trace->warnings) all.push_back(workerWarning(x, w.name));
    }
    reportImportWarnings(all);
    run = std::move(r.run);
    return 0;
}

void reportImportWarnings(const std::vector<ImportWarning>& warnings) {
    reported = warnings;
    for (const ImportWarning& w : warnings)
        std::fprintf(stderr, "tracescope-cli: warning: %s\n", warningText(w).c_str());
}

nlohmann::json warningsJson(const std::vector<ImportWarning>& warnings) {
    nlohmann::json out = nlohmann::json::array();
    for (const ImportWarning& w : warnings)
        out.push_back({{"kind", warningKindName(w.kind)},
                       {"message", warningText(w)},
                       {"byte_offset", orNull(w.byteOffset)},
                       {"total_bytes", orNull(w.totalBytes)},
                       {"uncompressed_offsets", w.uncompressedOffsets},
                       {"count", orNull(w.count)},
                       {"last_event_ns", orNull(w.lastEventNs)}});
    return out;
}

int exitStatus(const std::vector<std::string>& args, int status) {
    const bool strict = std::find(args.begin(), args.end(), "--strict") != args.end();
    return status == 0 && strict && !reported.empty() ? 3 : status;
}

bool parseTimeNs(std::string_view text, TimeNs& out) {
    int64_t v = 0;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data() + (!text.empty() && text[0] == '+'), end, v);
    if (ec != std::errc() || p == text.data()) return false;
    const std::string_view unit(p, size_t(end - p));
    int64_t scale = 1;
    if (unit == "us") scale = 1000;
    else if (unit == "ms") scale = 1000000;
    else if (unit == "s") scale = 1000000000;
    else if (!unit.empty() && unit != "ns") return false;
    return !__builtin_mul_overflow(v, scale, &out);
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

namespace {
std::string dumpCompact(const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
}  // namespace

void printJson(const nlohmann::json& j) {
    std::cout << withWarnings(j).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void JsonRowsWriter::begin(const nlohmann::json& head) {
    const nlohmann::json fields = withWarnings(head);
    std::string out = "{";
    for (auto it = fields.begin(); it != fields.end(); ++it)
        out += "\n " + dumpCompact(nlohmann::json(it.key())) + ": " + dumpCompact(it.value()) + ",";
    out += "\n \"rows\": [";
    std::cout << out;
    rows_ = 0;
}

void JsonRowsWriter::row(const nlohmann::json& r) {
    std::cout << (rows_++ ? ",\n  " : "\n  ") << dumpCompact(r);
}

void JsonRowsWriter::end() { std::cout << (rows_ ? "\n ]\n}\n" : "]\n}\n"); }

void printJsonWithRows(const nlohmann::json& head, size_t rowCount,
                       const std::function<nlohmann::json(size_t row)>& rowAt) {
    JsonRowsWriter writer;
    writer.begin(head);
    for (size_t i = 0; i < rowCount; ++i) writer.row(rowAt(i));
    writer.end();
}

}  // namespace tracescope::cli
