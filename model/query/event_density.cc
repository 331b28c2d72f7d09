#include "model/query/event_density.h"

#include <algorithm>

namespace tracescope {

std::vector<uint32_t> eventDensity(const Trace& trace, size_t buckets, const std::atomic<bool>* cancel) {
    const TimeNs span = trace.spanNs();
    if (span <= 0 || buckets == 0) return {};
    std::vector<uint32_t> out(buckets, 0);
    // (t - start) * buckets / span without overflow: 128-bit intermediate.
    auto add = [&](const auto& times) {
        for (TimeNs t : times) {
            const __int128 offset = std::clamp<TimeNs>(minusSat(t, trace.startNs), 0, span);
            const size_t b = std::min(buckets - 1, size_t(offset * __int128(buckets) / span));
            if (out[b] != UINT32_MAX) ++out[b];
        }
    };
    for (const Track& track : trace.tracks) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return {};
        add(track.slices.start);
        add(track.instants.time);
        add(track.counter.time);
    }
    return out;
}

}  // namespace tracescope
