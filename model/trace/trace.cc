#include "model/trace/trace.h"

#include <algorithm>

namespace tracescope {

namespace {
template <typename T>
size_t vecBytes(const std::vector<T>& v) { return v.capacity() * sizeof(T); }

bool refLess(const SliceRef& a, const SliceRef& b) {
    return a.track != b.track ? a.track < b.track : a.index < b.index;
}
}  // namespace

size_t SliceColumns::memoryBytes() const {
    return vecBytes(start) + vecBytes(duration) + vecBytes(name) + vecBytes(category) + vecBytes(args) +
           vecBytes(depthAndFlags);
}

size_t InstantColumns::memoryBytes() const {
    return vecBytes(time) + vecBytes(name) + vecBytes(category) + vecBytes(args);
}

size_t CounterSeries::memoryBytes() const { return vecBytes(time) + vecBytes(value); }

size_t Track::memoryBytes() const {
    return sizeof(Track) + name.capacity() + slices.memoryBytes() + instants.memoryBytes() + counter.memoryBytes() +
           vecBytes(argBlob);
}

TraceCounts Trace::counts() const {
    TraceCounts c;
    c.processes = processes.size();
    for (const Track& t : tracks) {
        switch (t.kind) {
        case TrackKind::Thread:
            if (t.overflowOf == kNoIndex) ++c.tracks;
            c.slices += t.slices.size();
            break;
        case TrackKind::Async: c.asyncSlices += t.slices.size(); break;
        case TrackKind::Counter:
            ++c.counterTracks;
            c.counterSamples += t.counter.size();
            break;
        case TrackKind::Markers: break;
        }
        c.instants += t.instants.size();
    }
    c.flows = flows.size();
    return c;
}

size_t Trace::eventMemoryBytes() const {
    size_t bytes = vecBytes(tracks) + vecBytes(flows) + vecBytes(flowsByFrom) + vecBytes(flowsByTo);
    for (const Track& t : tracks) bytes += t.memoryBytes() - sizeof(Track);
    return bytes;
}

const std::string* Trace::metadataValue(std::string_view key) const {
    for (const auto& [k, v] : metadata)
        if (k == key) return &v;
    return nullptr;
}

std::vector<uint32_t> Trace::flowsFrom(SliceRef s) const {
    auto range = std::equal_range(flowsByFrom.begin(), flowsByFrom.end(), s, [&](auto a, auto b) {
        if constexpr (std::is_same_v<decltype(a), SliceRef>) return refLess(a, flows[b].from);
        else return refLess(flows[a].from, b);
    });
    return {range.first, range.second};
}

std::vector<uint32_t> Trace::flowsTo(SliceRef s) const {
    auto range = std::equal_range(flowsByTo.begin(), flowsByTo.end(), s, [&](auto a, auto b) {
        if constexpr (std::is_same_v<decltype(a), SliceRef>) return refLess(a, flows[b].to);
        else return refLess(flows[a].to, b);
    });
    return {range.first, range.second};
}

}  // namespace tracescope
