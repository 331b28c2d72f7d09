#include "model/analysis/memory_downsample.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tracescope {

double memoryQuantity(MemoryQuantity q, const MemorySnapshot& s) {
    switch (q) {
    case MemoryQuantity::Stack: return double(s.stackBytes);
    case MemoryQuantity::InUse: return double(s.inUseBytes());
    case MemoryQuantity::InUseAndFree: return double(s.inUseBytes()) + double(std::max<int64_t>(s.freeBytes, 0));
    case MemoryQuantity::Allocated: return double(s.heapBytes);
    case MemoryQuantity::Reserved: return double(std::max(s.reservedBytes, s.heapBytes));
    case MemoryQuantity::Fragmentation:
        return s.fragmentation >= 0 ? double(s.fragmentation) : std::numeric_limits<double>::quiet_NaN();
    }
    return std::numeric_limits<double>::quiet_NaN();
}

std::vector<MemoryQuantity> memoryChartLayers(const MemoryIdProfile& p, bool showFree) {
    switch (p.source) {
    case MemorySource::XSpace: {
        std::vector<MemoryQuantity> out;
        if (p.hasStack) out.push_back(MemoryQuantity::Stack);
        out.push_back(MemoryQuantity::InUse);
        if (p.hasFree && showFree) out.push_back(MemoryQuantity::InUseAndFree);
        return out;
    }
    case MemorySource::Kineto:
        if (p.hasReserved) return {MemoryQuantity::Allocated, MemoryQuantity::Reserved};
        return {MemoryQuantity::Allocated};
    default: return {MemoryQuantity::Allocated};
    }
}

namespace {

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

// Widens [run.min, run.max] to v; NaN (unknown) leaves it as it is.
void include(CounterRun& run, double v) {
    if (std::isnan(v)) return;
    if (std::isnan(run.min)) {
        run.min = run.max = v;
        return;
    }
    run.min = std::min(run.min, v);
    run.max = std::max(run.max, v);
}

}  // namespace

std::vector<std::vector<CounterRun>> memoryRuns(const MemoryIdProfile& profile,
                                                const std::vector<MemoryQuantity>& quantities, TimeNs begin,
                                                TimeNs end, int columns) {
    std::vector<std::vector<CounterRun>> out(quantities.size());
    const auto& t = profile.timeline;
    if (t.empty() || end < begin || columns < 1) return out;
    const double perNs = double(columns) / std::max(double(end - begin), 1.0);
    const auto columnOf = [&](TimeNs time) { return std::min(int(double(time - begin) * perNs), columns - 1); };
    size_t i = size_t(std::lower_bound(t.begin(), t.end(), begin,
                                       [](const MemorySnapshot& s, TimeNs x) { return s.time < x; }) -
                      t.begin());
    const size_t last = size_t(std::upper_bound(t.begin(), t.end(), end,
                                                [](TimeNs x, const MemorySnapshot& s) { return x < s.time; }) -
                               t.begin());
    // The state shown at the current column: the last snapshot before it (none before the first).
    const MemorySnapshot* carried = i > 0 ? &t[i - 1] : nullptr;
    int x = carried ? 0 : (i < last ? columnOf(t[i].time) : columns);
    while (x < columns) {
        const int next = i < last ? columnOf(t[i].time) : columns;  // the column of the next snapshot
        if (next > x) {
            // No snapshot before column `next`: the carried state holds until then.
            for (size_t q = 0; q < quantities.size(); ++q) {
                const double v = memoryQuantity(quantities[q], *carried);
                out[q].push_back({x, next, v, v});
            }
            x = next;
            continue;
        }
        // Snapshots [i, j) fall in column x, and the carried state is shown at its left edge.
        size_t j = i;
        while (j < last && columnOf(t[j].time) == x) ++j;
        for (size_t q = 0; q < quantities.size(); ++q) {
            CounterRun run{x, x + 1, kUnknown, kUnknown};
            if (carried) include(run, memoryQuantity(quantities[q], *carried));
            for (size_t k = i; k < j; ++k) include(run, memoryQuantity(quantities[q], t[k]));
            out[q].push_back(run);
        }
        carried = &t[j - 1];
        i = j;
        ++x;
    }
    return out;
}

}  // namespace tracescope
