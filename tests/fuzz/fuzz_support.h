// Helpers shared by the libFuzzer targets: a per-process scratch file or folder
// the input is written to (the importers read paths), and the analyses every
// CLI command runs on a trace.
#pragma once

#include "model/import/import.h"
#include "model/trace/trace.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace tracescope::fuzz {

// A directory for scratch files: $TRACESCOPE_FUZZ_TMP, else /dev/shm when present, else $TMPDIR or /tmp.
std::string scratchDir();

// Writes `data` to a per-process scratch file whose name ends with `suffix`; returns its path.
std::string writeScratchFile(const uint8_t* data, size_t size, const std::string& suffix = ".bin");

// Options for imports under the fuzzer: one worker thread (deterministic, cheaper).
ImportOptions fuzzImportOptions();

// Runs every analysis the CLI offers (stats both ways, kernels, overview, input pipeline,
// scopes, torch-ops in its three groupings, chrome export and the re-import of that export).
// Aborts when the exported JSON cannot be read back.
void runAllAnalyses(const Trace& trace);

}  // namespace tracescope::fuzz
