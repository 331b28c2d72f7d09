#include "model/trace/trace.h"

#include <algorithm>
#include <numeric>
#include <type_traits>

namespace tracescope {

namespace {
template <typename T>
size_t vecBytes(const std::vector<T>& v) { return v.capacity() * sizeof(T); }

bool refLess(const SliceRef& a, const SliceRef& b) {
    return a.track != b.track ? a.track < b.track : a.index < b.index;
}
}  // namespace

size_t SliceColumns::memoryBytes() const {
    return start.memoryBytes() + duration.memoryBytes() + name.memoryBytes() + category.memoryBytes() + vecBytes(args) +
           vecBytes(depthAndFlags);
}

size_t InstantColumns::memoryBytes() const {
    return time.memoryBytes() + name.memoryBytes() + category.memoryBytes() + vecBytes(args);
}

size_t CounterSeries::memoryBytes() const { return vecBytes(time) + vecBytes(value); }

size_t Track::memoryBytes() const {
    return sizeof(Track) + name.capacity() + slices.memoryBytes() + instants.memoryBytes() + counter.memoryBytes() +
           vecBytes(argBlob) + argTemplates.memoryBytes();
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
    size_t bytes = vecBytes(tracks) + vecBytes(flows) + vecBytes(flowKinds) + flowsByTo_.memoryBytes();
    for (const Track& t : tracks) bytes += t.memoryBytes() - sizeof(Track);
    return bytes;
}

const std::string* Trace::metadataValue(std::string_view key) const {
    for (const auto& [k, v] : metadata)
        if (k == key) return &v;
    return nullptr;
}

std::vector<uint32_t> Trace::flowsFrom(SliceRef s) const {
    auto range = std::equal_range(flows.begin(), flows.end(), s, [](const auto& a, const auto& b) {
        if constexpr (std::is_same_v<std::decay_t<decltype(a)>, SliceRef>) return refLess(a, b.from);
        else return refLess(a.from, b);
    });
    std::vector<uint32_t> out;
    for (auto it = range.first; it != range.second; ++it) out.push_back(uint32_t(it - flows.begin()));
    return out;
}

std::vector<uint32_t> Trace::flowsTo(SliceRef s) const {
    const std::vector<uint32_t>& byTo = flowsByTo_.get([this] {
        std::vector<uint32_t> order(flows.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [this](uint32_t a, uint32_t b) { return refLess(flows[a].to, flows[b].to); });
        return order;
    });
    auto range = std::equal_range(byTo.begin(), byTo.end(), s, [this](auto a, auto b) {
        if constexpr (std::is_same_v<decltype(a), SliceRef>) return refLess(a, flows[b].to);
        else return refLess(flows[a].to, b);
    });
    return {range.first, range.second};
}

}  // namespace tracescope
