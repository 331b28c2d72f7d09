// What a memory chart draws for a time window at a pixel width: per quantity (a stacked
// layer or the fragmentation line) runs of pixel columns, each with the least and the
// most value of the states shown in it: the value carried into the column and every
// snapshot in it. The peak of every column is drawn (unlike XProf's fixed 1,000-point
// sampling), and a frame is at most one run per column whatever the event count.
//
// Runs, not a polyline: Qt's raster engine fills a polygon whose outline goes up and
// down in every pixel column (a busy allocator zoomed out) in time quadratic in the
// columns it crosses per scanline, seconds for one chart; a rect per run costs nothing.
// The runs are those of the timeline's step counters (CounterRun, counter_layout.h).
#pragma once

#include "model/analysis/memory_profile.h"
#include "model/query/counter_layout.h"

#include <cstdint>
#include <vector>

namespace tracescope {

// A value of a snapshot the chart draws, in bytes (Fragmentation: 0..1).
enum class MemoryQuantity : uint8_t {
    Stack,          // XSpace stack reservation
    InUse,          // stack + heap
    InUseAndFree,   // in use + free memory (XSpace, up to the allocator's capacity)
    Allocated,      // heap bytes: PyTorch's allocated, an allocator counter's in use
    Reserved,       // PyTorch's reserved (at least the allocated)
    Fragmentation,  // XSpace; unknown at some snapshots
};

// The value at a snapshot; NaN where the snapshot does not know it.
double memoryQuantity(MemoryQuantity q, const MemorySnapshot& s);

// The stacked layers of the chart for a profile, bottom first: each layer's quantity is
// its upper bound, the one below it its lower bound.
std::vector<MemoryQuantity> memoryChartLayers(const MemoryIdProfile& profile, bool showFree);

// Runs of columns [0, columns) for the window [begin, end], one vector per quantity, all
// aligned: run k covers the same columns in each (min = max = NaN where a quantity is
// unknown throughout). The value before the window's first snapshot enters from the left
// edge; the last one holds to the right edge. Column c holds the times t with
// floor((t - begin) / (end - begin) * columns) == c (the window's end in the last one).
std::vector<std::vector<CounterRun>> memoryRuns(const MemoryIdProfile& profile,
                                                const std::vector<MemoryQuantity>& quantities, TimeNs begin,
                                                TimeNs end, int columns);

}  // namespace tracescope
