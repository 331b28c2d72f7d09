#include "model/import/chrome_event_parser.h"

#include <simdjson.h>

namespace tracescope {

#if defined(TRACESCOPE_CHROME_HASWELL)
namespace chrome_haswell {
std::unique_ptr<EventChunkParser> makeParser(SharedStrings& strings, size_t chunkBytes);
}
#endif
namespace chrome_fallback {
std::unique_ptr<EventChunkParser> makeParser(SharedStrings& strings, size_t chunkBytes);
}

namespace {
bool haswellSupported() {
#if defined(TRACESCOPE_CHROME_HASWELL)
    static const bool supported = [] {
        const auto* impl = simdjson::get_available_implementations()["haswell"];
        return impl && impl->supported_by_runtime_system();
    }();
    return supported;
#else
    return false;
#endif
}
}  // namespace

std::unique_ptr<EventChunkParser> makeEventChunkParser(SharedStrings& strings, size_t chunkBytes) {
#if defined(TRACESCOPE_CHROME_HASWELL)
    if (haswellSupported()) return chrome_haswell::makeParser(strings, chunkBytes);
#endif
    return chrome_fallback::makeParser(strings, chunkBytes);
}

const char* eventChunkParserImplementation() { return haswellSupported() ? "haswell" : "fallback"; }

}  // namespace tracescope
