// The event parser compiled for AVX2 CPUs: this file alone is built with
// -mavx2 -mbmi -mpclmul -mlzcnt (model/CMakeLists.txt), which makes simdjson's
// builtin On-Demand implementation "haswell". It only runs where the CPU has them.
#include "model/import/chrome_event_parser_common.h"

#if defined(TRACESCOPE_CHROME_HASWELL)
namespace tracescope::chrome_haswell {
#include "model/import/chrome_event_parser.inc"
}  // namespace tracescope::chrome_haswell
#endif
