// Analyses on accepted input: whatever the importers accept (any format, detected by
// content) goes through every analysis the CLI offers and through the Chrome JSON export;
// then `pod` (a one-worker run of it, and a two-worker run of it with itself) and `diff` (it
// against itself, an empty trace and a small one).
#include "tests/fuzz/fuzz_support.h"

using namespace tracescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = fuzz::writeScratchFile(data, size, ".trace");
    ImportResult r = importTrace(path, fuzz::fuzzImportOptions());
    if (!r.ok()) return 0;
    fuzz::runAllAnalyses(*r.trace);
    fuzz::runRunAnalyses(path, *r.trace);
    return 0;
}
