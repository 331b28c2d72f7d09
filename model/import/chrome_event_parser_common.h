// Headers needed by chrome_event_parser.inc, included before any target region
// so that library templates are never compiled for a wider CPU than the default.
#pragma once

#include "model/import/chrome_event_parser.h"
#include "model/import/json_number.h"
#include "model/import/json_text.h"
#include "model/trace/args.h"
#include "model/trace/utf8.h"

#include <simdjson.h>

#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>
