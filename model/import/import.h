// Opening a trace: format detection by content and dispatch to an importer.
#pragma once

#include "model/trace/threads.h"
#include "model/trace/trace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace tracescope {

struct ImportOptions {
    // Set from another thread to stop the import; the result is then `cancelled`.
    const std::atomic<bool>* cancel = nullptr;
    // Called from the importing thread with (bytes done, bytes total); may be empty.
    std::function<void(uint64_t done, uint64_t total)> progress;
    // Worker threads the importer may use: one per core (model/trace/threads.h).
    unsigned threads = machineThreads();
    // The path was named explicitly by the user (the CLI): "-" is standard input, and a FIFO,
    // pipe (e.g. <(zcat x.json.gz)) or character device is read once, as a stream. Otherwise
    // (the GUI, folder scans) special files are refused at once, never opened.
    bool allowStreams = false;
    // Read about this many bytes of events and make the trace of those; 0 reads everything.
    // Chrome JSON: the events of the text's first bytes (whole events of the chunks that began
    // before it). XSpace: the same share of every line's events, the first in the file's order (its XLA
    // programs are left out). Progressive display's first look at a large file
    // (model/import/import_preview).
    uint64_t textLimit = 0;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(uint64_t done, uint64_t total) const {
        if (progress) progress(done, total);
    }
};

struct ImportResult {
    std::unique_ptr<Trace> trace;  // null on error or cancel
    std::string error;             // one line, for the user
    bool cancelled = false;

    bool ok() const { return trace != nullptr; }
    static ImportResult failure(std::string message) {
        ImportResult r;
        r.error = std::move(message);
        return r;
    }
    static ImportResult cancel() {
        ImportResult r;
        r.cancelled = true;
        r.error = "cancelled";
        return r;
    }
};

// AgentRecords: a fallback file of our CUPTI agent (<host>.<pid>.tscupti).
enum class TraceFormat { Unknown, ChromeJson, XSpace, RunMetadata, Directory, AgentRecords };

// Looks at the content (and for folders, the entries), never at the file name.
TraceFormat detectFormat(const std::string& path, std::string* error = nullptr);

// Opens any supported trace file or folder.
ImportResult importTrace(const std::string& path, const ImportOptions& options = {});

}  // namespace tracescope
