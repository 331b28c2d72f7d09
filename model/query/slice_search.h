// Finding slices by name: a case-insensitive substring or an ECMAScript regex.
//
// Each distinct name is tested once (names are interned), then the name
// columns are scanned with a lookup table, so a search over 10M slices costs
// one pass over 40 MB of ids.
#pragma once

#include "model/trace/trace.h"

#include <atomic>
#include <string>
#include <vector>

namespace tracescope {

struct SliceSearchResult {
    // Matches ordered by start time, then by track index.
    std::vector<SliceRef> matches;
    // nameMatches[id] is 1 when the string with that id matches (for highlighting).
    std::vector<uint8_t> nameMatches;
    std::string error;  // e.g. an invalid regex; then matches is empty
    bool cancelled = false;
};

enum class SearchMode { Substring, Regex };

SliceSearchResult searchSlices(const Trace& trace, const std::string& query, SearchMode mode,
                               const std::atomic<bool>* cancel = nullptr);

}  // namespace tracescope
