#include "model/query/slice_search.h"

#include "model/trace/text_match.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace tracescope {


SliceSearchResult searchSlices(const Trace& trace, const std::string& query, SearchMode mode,
                               const std::atomic<bool>* cancel) {
    SliceSearchResult result;
    if (query.empty()) return result;
    auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };

    // 1. Which names match.
    result.nameMatches.assign(trace.strings.size(), 0);
    bool any = false;
    if (mode == SearchMode::Regex) {
        std::regex re;
        try {
            re = std::regex(query, std::regex::ECMAScript | std::regex::icase | std::regex::optimize);
        } catch (const std::regex_error& e) {
            result.error = std::string("invalid regular expression: ") + e.what();
            result.nameMatches.clear();
            return result;
        }
        for (StringId id = 1; id < trace.strings.size(); ++id) {
            if ((id & 1023) == 0 && cancelled()) break;
            const std::string_view s = trace.strings.get(id);
            if (std::regex_search(s.begin(), s.end(), re)) result.nameMatches[id] = any = 1;
        }
    } else {
        const std::string needle = asciiLower(query);
        for (StringId id = 1; id < trace.strings.size(); ++id) {
            if (asciiLower(trace.strings.get(id)).find(needle) != std::string::npos) result.nameMatches[id] = any = 1;
        }
    }
    if (cancelled()) {
        result.cancelled = true;
        return result;
    }
    if (!any) return result;

    // 2. Which slices carry a matching name.
    for (TrackIndex t = 0; t < trace.tracks.size(); ++t) {
        if (cancelled()) {
            result.cancelled = true;
            result.matches.clear();
            return result;
        }
        const SliceColumns& c = trace.tracks[t].slices;
        for (uint32_t k = 0; k < c.size(); ++k)
            if (result.nameMatches[c.name[k]]) result.matches.push_back({t, k});
    }
    std::sort(result.matches.begin(), result.matches.end(), [&](SliceRef a, SliceRef b) {
        const TimeNs sa = trace.tracks[a.track].slices.start[a.index];
        const TimeNs sb = trace.tracks[b.track].slices.start[b.index];
        if (sa != sb) return sa < sb;
        return a.track != b.track ? a.track < b.track : a.index < b.index;
    });
    return result;
}

}  // namespace tracescope
