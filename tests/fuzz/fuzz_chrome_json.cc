// Chrome trace JSON (plain) through the importer.
#include "model/import/chrome_json_importer.h"
#include "tests/fuzz/fuzz_support.h"

using namespace tracescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = fuzz::writeScratchFile(data, size, ".json");
    ImportResult r = importChromeJson(path, fuzz::fuzzImportOptions());
    if (r.ok()) (void)r.trace->counts();
    return 0;
}
