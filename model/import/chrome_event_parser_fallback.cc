// The event parser for any CPU (simdjson's portable "fallback" kernels when the
// build targets baseline x86-64).
#include "model/import/chrome_event_parser_common.h"

namespace tracescope::chrome_fallback {
#include "model/import/chrome_event_parser.inc"
}  // namespace tracescope::chrome_fallback
