// Any file given to the CLI: format detection by content, then whichever importer it picks.
#include "tests/fuzz/fuzz_support.h"

using namespace tracescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = fuzz::writeScratchFile(data, size, ".trace");
    std::string error;
    (void)detectFormat(path, &error);
    ImportResult r = importTrace(path, fuzz::fuzzImportOptions());
    if (!r.ok() && (r.error.empty() || r.error.find('\n') != std::string::npos)) {
        std::fprintf(stderr, "an import error must be one non-empty line: '%s'\n", r.error.c_str());
        std::abort();
    }
    return 0;
}
