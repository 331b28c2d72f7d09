// The CUPTI agent's framed record stream (what the viewer reads from its socket and from
// fallback files) through the one decoder, whole and in two pieces split where the first
// byte says, then, when it decoded a hello, the conversion to XSpace and our importer.
#include "model/capture/agent/record_decoder.h"
#include "model/capture/agent/records_to_xspace.h"
#include "model/import/xspace_importer.h"
#include "tests/fuzz/fuzz_support.h"

using namespace tracescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    agent::DecodeResult whole = agent::decodeRecordStream(bytes);
    if (size > 1) {
        const size_t cut = 1 + size_t(data[0]) * (size - 1) / 255;
        agent::RecordDecoder pieces;
        pieces.feed(bytes.substr(0, cut));
        pieces.feed(bytes.substr(cut));
        // Same stream, same result, however it arrives.
        if (pieces.ok() != whole.error.empty()) __builtin_trap();
        if (pieces.records().activityCount() != whole.records.activityCount()) __builtin_trap();
    }
    if (!whole.records.hasHello) return 0;
    const std::string xspace = agent::recordsToXSpaceBytes(whole.records);
    std::vector<XSpaceSource> one{{"host", "", xspace}};
    ImportResult r = importXSpaces(one, fuzz::fuzzImportOptions());
    if (r.ok()) (void)r.trace->counts();
    return 0;
}
