// The layout step of a counter track: for a time window and a pixel width,
// what the painter draws (held-value runs for step drawing, polyline vertices
// for line drawing) and which sample is under a cursor x. No Qt and no
// pixels beyond the track area's columns: views/timeline/counter_painter.cc
// only maps values to y and draws.
//
// Cost per frame: one galloping search per pixel column that holds samples and
// one O(log n) min/max query (CounterRangeIndex) per column with several, so
// O(width x log n) whatever the number of samples.
#pragma once

#include "model/query/counter_range_index.h"
#include "model/query/time_axis.h"
#include "model/trace/track.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace tracescope {

// How the value goes from one sample to the next.
enum class CounterDrawMode : uint8_t {
    Step,  // the value holds until the next sample (a sampled-and-held value)
    Line,  // a straight line between samples (a measurement of something that varies between them)
};

// The rule for a track of the file, by what its samples mean in the file's format.
// A Chrome "C" event sets the counter's value from its timestamp until the next one
// (the Trace Event Format's meaning; catapult, Perfetto and XProf's trace viewer
// all draw them as steps), TF1 allocator totals and memory in use only change at an
// allocation or free: steps. An XSpace "_counters_" line (the only counters an
// XSpace has) holds a device's periodically sampled hardware measurements (power,
// bandwidth, utilisation), where the value between two samples is best read on the
// line joining them: lines. Derived tracks (memory in use) are steps. The user
// overrides this per track or for all counters (View menu).
CounterDrawMode defaultCounterDrawMode(std::string_view traceFormat);  // Trace::format
const char* counterDrawModeName(CounterDrawMode mode);  // "step" / "line"

// The drawn value range: the series' minimum and maximum, stretched to include
// 0 so that the area under the curve starts at a visible baseline.
struct CounterScale {
    double lo = 0, hi = 1;
    static CounterScale of(const CounterRangeIndex& range);
    // Where v sits in [lo, hi], 0 (bottom) to 1 (top), clamped.
    double fraction(double v) const;
};

// Step drawing: columns [x0, x1) of the track area show values min..max (a held
// value when min == max: one horizontal run, however many columns it spans).
struct CounterRun {
    int x0 = 0, x1 = 0;
    double min = 0, max = 0;
};

// Line drawing: one vertex of the polyline, x in track-area pixels (fractional).
struct CounterVertex {
    double x = 0;
    double value = 0;
};

struct CounterFrame {
    CounterDrawMode mode = CounterDrawMode::Step;
    CounterScale scale;
    std::vector<CounterRun> runs;        // Step: left to right
    std::vector<CounterVertex> line;     // Line: left to right
    void clear() {
        runs.clear();
        line.clear();
    }
};

// Fills `out` (cleared first; buffers reused) for the window of `axis`. `endNs`
// is where the last sample's value stops holding (the trace's end). Values that
// are not finite count as 0, as in CounterRangeIndex.
void layoutCounter(const CounterSeries& series, const CounterRangeIndex& range, const TimeAxis& axis, TimeNs endNs,
                   CounterDrawMode mode, CounterFrame& out);

// What the track shows under track-area x `x`.
struct CounterHover {
    bool valid = false;       // false before the first sample, after `endNs`, and (Line) after the last sample
    size_t sample = 0;        // the sample in effect: the last one at or before the cursor's time
    TimeNs sampleTime = 0;
    double sampleValue = 0;
    bool hasNext = false;     // the sample after it (Line: the other end of the segment)
    TimeNs nextTime = 0;
    double nextValue = 0;
    double value = 0;         // the value drawn at the cursor: held (Step) or interpolated (Line)
    TimeNs time = 0;          // the cursor's time (ns, rounded down)
    // The samples that fall in the cursor's pixel column (zoomed out, one column holds many).
    size_t columnSamples = 0;
    double columnMin = 0, columnMax = 0;
};

CounterHover counterAt(const CounterSeries& series, const CounterRangeIndex& range, const TimeAxis& axis, TimeNs endNs,
                       CounterDrawMode mode, double x);

}  // namespace tracescope
