// Shared pieces of the subcommands that read a trace: loading it, reporting its
// import warnings (stderr, the "warnings" array of --json, --strict), CSV quoting,
// JSON output.
#pragma once

#include "model/import/import.h"
#include "model/import/workers.h"
#include "model/trace/trace.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope::cli {

// Import options for a path named on the command line (streams allowed: "-", pipes, FIFOs).
ImportOptions cliImportOptions();
// Imports `path`; on error prints it to stderr and returns null. A loaded trace's
// import warnings go through reportImportWarnings.
std::unique_ptr<Trace> loadTraceOrReport(const std::string& path);
// Imports several files (or folders of them) as the workers of one run. Returns 0, or the exit
// status after printing why: 1 when none could be opened, 2 when the files are not one job
// (checkOneJob) unless `forceMerge`. The warnings of every worker (prefixed by its name) and of
// the run itself (a worker that could not be opened, files merged by force, far clock offsets)
// go through reportImportWarnings.
int loadWorkersOrReport(const std::vector<std::string>& paths, MultiWorkerRun& run, bool forceMerge = false);
// Prints import warnings to stderr and keeps them for this run: printJson and
// printJsonWithRows add them as a top-level "warnings" array, and exitStatus turns
// them into status 3 under --strict. (One run of the CLI reads one trace.)
void reportImportWarnings(const std::vector<ImportWarning>& warnings);
// The warnings as the "warnings" array of --json output: one object per warning
// with its kind, message and facts (null where unknown).
nlohmann::json warningsJson(const std::vector<ImportWarning>& warnings);
// A command's exit status: 3 instead of 0 when `args` has --strict and the trace
// had import warnings; otherwise `status` unchanged (scripts keep working).
int exitStatus(const std::vector<std::string>& args, int status);
// A time given on the command line: an integer with an optional unit, ns (the default), us, ms or s
// ("-2500000", "-2500us"). False when it is not one or overflows.
bool parseTimeNs(std::string_view text, TimeNs& out);
// One CSV field, quoted when needed (RFC 4180).
std::string csvField(const std::string& s);
// Prints JSON with invalid UTF-8 replaced (and the reported warnings, see above).
void printJson(const nlohmann::json& j);
// Prints the object `head` with a "rows" array added, writing one row at a time:
// a table of millions of rows built as one JSON tree first would take gigabytes.
void printJsonWithRows(const nlohmann::json& head, size_t rowCount,
                       const std::function<nlohmann::json(size_t row)>& rowAt);

// The same, for rows that come one at a time (a query's): begin() prints the head's fields and
// opens "rows", row() prints one, end() closes the object.
class JsonRowsWriter {
public:
    void begin(const nlohmann::json& head);
    void row(const nlohmann::json& r);
    void end();

private:
    size_t rows_ = 0;
};

}  // namespace tracescope::cli
