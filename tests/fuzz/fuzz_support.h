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

// The analyses over more than one run, as the CLI's `pod` and `diff` and the GUI's pod page call
// them: `path` (the file `trace` was imported from) opened as a one-worker run and, with a copy
// of itself, as a two-worker run (pod, then merged and the pod again over the merged view, then
// with one worker moved by hand); `trace` diffed against itself, an empty trace and a small
// Kineto trace, both ways. Aborts when a run compared with itself shows a difference, or when a
// two-worker run of one file shows a straggler.
void runRunAnalyses(const std::string& path, const Trace& trace);

}  // namespace tracescope::fuzz
