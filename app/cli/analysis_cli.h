// Shared pieces of the analysis subcommands: loading a trace, CSV quoting, JSON output.
#pragma once

#include "model/trace/trace.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>

namespace tracescope::cli {

// Imports `path`; on error prints it to stderr and returns null.
std::unique_ptr<Trace> loadTraceOrReport(const std::string& path);
// One CSV field, quoted when needed (RFC 4180).
std::string csvField(const std::string& s);
// Prints JSON with invalid UTF-8 replaced.
void printJson(const nlohmann::json& j);
// Prints the object `head` with a "rows" array added, writing one row at a time:
// a table of millions of rows built as one JSON tree first would take gigabytes.
void printJsonWithRows(const nlohmann::json& head, size_t rowCount,
                       const std::function<nlohmann::json(size_t row)>& rowAt);

}  // namespace tracescope::cli
