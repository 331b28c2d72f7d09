// XSpace (.xplane.pb) bytes through the importer, as one host and as two hosts
// of one run (the second host is the same bytes, which exercises the alignment of runs), and
// as a progressive display's preview (a share of every line's events).
#include "model/import/xspace_importer.h"
#include "tests/fuzz/fuzz_support.h"

using namespace tracescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    if (size == 0) return 0;  // an empty view means "read the path"
    std::vector<XSpaceSource> one{{"host", "", bytes}};
    ImportResult r = importXSpaces(one, fuzz::fuzzImportOptions());
    if (r.ok()) (void)r.trace->counts();
    if (size % 4 == 1) {  // a fraction of the inputs: a preview of about a third of the events
        ImportOptions preview = fuzz::fuzzImportOptions();
        preview.textLimit = size / 3 + 1;
        ImportResult p = importXSpaces(one, preview);
        if (p.ok()) (void)p.trace->counts();
    }
    if (size % 8 == 0) {  // a fraction of the inputs: two hosts
        std::vector<XSpaceSource> two{{"a", "", bytes}, {"b", "", bytes}};
        ImportResult r2 = importXSpaces(two, fuzz::fuzzImportOptions());
        if (r2.ok()) (void)r2.trace->counts();
    }
    return 0;
}
