// TF1 RunMetadata / StepStats bytes through the importer (and its format sniffing).
#include "model/import/run_metadata_importer.h"
#include "tests/fuzz/fuzz_support.h"

using namespace tracescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    (void)looksLikeRunMetadata(data, size);
    const std::string path = fuzz::writeScratchFile(data, size, ".pb");
    ImportResult r = importRunMetadata(path, fuzz::fuzzImportOptions());
    if (r.ok()) (void)r.trace->counts();
    return 0;
}
