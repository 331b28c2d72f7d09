// Analyses on accepted input: whatever the importers accept (any format, detected by
// content) goes through every analysis the CLI offers and through the Chrome JSON export.
#include "tests/fuzz/fuzz_support.h"

using namespace tracescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = fuzz::writeScratchFile(data, size, ".trace");
    ImportResult r = importTrace(path, fuzz::fuzzImportOptions());
    if (r.ok()) fuzz::runAllAnalyses(*r.trace);
    return 0;
}
