#include "model/query/counter_layout.h"

#include "model/trace/gallop.h"

#include <algorithm>
#include <cmath>

namespace tracescope {

namespace {

double finite(double v) { return std::isfinite(v) ? v : 0; }

// A pixel position as an int in [lo, hi], clamped as a double first: deep zooms put
// far samples billions of pixels away, past what an int holds.
int pixelIn(double x, int lo, int hi) { return int(std::clamp(x, double(lo), double(hi))); }

// Column x of the track area holds the samples with time in [columnStart(x), columnStart(x + 1)):
// whole nanoseconds, so that a sample belongs to exactly one column.
TimeNs columnStart(const TimeAxis& axis, double x) { return TimeNs(std::ceil(axis.time(x))); }

void layoutSteps(const CounterSeries& s, const CounterRangeIndex& range, const TimeAxis& axis, TimeNs endNs,
                 std::vector<CounterRun>& runs) {
    const int width = axis.width();
    int x = pixelIn(std::floor(axis.x(double(s.time.front()))), 0, width);
    const int xEnd = pixelIn(std::ceil(axis.x(double(endNs))) + 1, 0, width);
    // Columns go left to right, so each search gallops on from the previous
    // column's samples instead of bisecting the whole series.
    auto searchFrom = s.time.begin();
    while (x < xEnd) {
        const double t0 = axis.time(x), t1 = axis.time(x + 1);
        // The last sample at or before t0: the value carried into the column.
        auto after = gallopUpperBound(searchFrom, s.time.end(), TimeNs(std::floor(t0)));
        const size_t first = after == s.time.begin() ? 0 : size_t(after - s.time.begin()) - 1;
        searchFrom = s.time.begin() + ptrdiff_t(first);
        const size_t endIdx = size_t(gallopLowerBound(searchFrom, s.time.end(), TimeNs(std::ceil(t1))) - s.time.begin());
        CounterRun run{x, x + 1, 0, 0};
        if (endIdx <= first + 1) {
            // No new sample in this column: the value holds until the next sample's column.
            run.min = run.max = finite(s.value[first]);
            const double next = first + 1 < s.size() ? double(s.time[first + 1]) : double(endNs);
            run.x1 = pixelIn(std::floor(axis.x(next)), x + 1, std::max(x + 1, xEnd));
        } else if (!range.minMax(first, endIdx, run.min, run.max)) {
            ++x;
            continue;
        }
        runs.push_back(run);
        x = run.x1;
    }
}

// The point at track-area x `x` on the segment from sample i to sample i + 1.
CounterVertex pointOnSegment(const CounterSeries& s, const TimeAxis& axis, size_t i, double x) {
    const double x0 = axis.x(double(s.time[i])), x1 = axis.x(double(s.time[i + 1]));
    const double v0 = finite(s.value[i]), v1 = finite(s.value[i + 1]);
    const double f = x1 > x0 ? std::clamp((x - x0) / (x1 - x0), 0.0, 1.0) : 1.0;
    return {x, v0 + (v1 - v0) * f};
}

void layoutLine(const CounterSeries& s, const CounterRangeIndex& range, const TimeAxis& axis,
                std::vector<CounterVertex>& line) {
    const size_t n = s.size();
    const int width = axis.width();
    // The first sample at or after the window's first column; before the first
    // sample and after the last there is no line.
    size_t i = size_t(std::lower_bound(s.time.begin(), s.time.end(), columnStart(axis, 0)) - s.time.begin());
    if (i == n) return;
    // Segments far outside the window are cut at its edges (1 px out), so the
    // painter never gets coordinates millions of pixels away.
    auto exact = [&](size_t k) { line.push_back({axis.x(double(s.time[k])), finite(s.value[k])}); };
    if (i > 0) {
        if (axis.x(double(s.time[i - 1])) >= -1.0) exact(i - 1);
        else line.push_back(pointOnSegment(s, axis, i - 1, -1.0));
    }
    while (i < n) {
        const double x = std::floor(axis.x(double(s.time[i])));
        if (x >= width) {
            // The next sample is right of the window: the line leaves at its right edge.
            if (axis.x(double(s.time[i])) <= width + 1.0) exact(i);
            else if (i > 0) line.push_back(pointOnSegment(s, axis, i - 1, width + 1.0));
            break;
        }
        // Samples [i, j) fall in this column (galloping: columns go left to right).
        const size_t j = size_t(
            gallopLowerBound(s.time.begin() + ptrdiff_t(i + 1), s.time.end(), columnStart(axis, x + 1)) - s.time.begin());
        if (j - i <= 4) {
            for (size_t k = i; k < j; ++k) exact(k);
        } else {
            // Many samples in one pixel: the first, the extremes and the last (M4
            // aggregation) draw the same pixels as every segment between them.
            double mn = 0, mx = 0;
            range.minMax(i, j, mn, mx);
            exact(i);
            const bool rising = finite(s.value[j - 1]) >= finite(s.value[i]);
            line.push_back({x + 0.5, rising ? mn : mx});
            line.push_back({x + 0.5, rising ? mx : mn});
            exact(j - 1);
        }
        i = j;
    }
}

}  // namespace

CounterDrawMode defaultCounterDrawMode(std::string_view traceFormat) {
    return traceFormat == "xspace" ? CounterDrawMode::Line : CounterDrawMode::Step;
}

const char* counterDrawModeName(CounterDrawMode mode) { return mode == CounterDrawMode::Line ? "line" : "step"; }

CounterScale CounterScale::of(const CounterRangeIndex& range) {
    CounterScale s;
    s.lo = std::min(0.0, range.globalMin());
    s.hi = std::max(0.0, range.globalMax());
    if (!(s.hi > s.lo)) s.hi = s.lo + 1;
    return s;
}

double CounterScale::fraction(double v) const { return (std::clamp(finite(v), lo, hi) - lo) / (hi - lo); }

void layoutCounter(const CounterSeries& series, const CounterRangeIndex& range, const TimeAxis& axis, TimeNs endNs,
                   CounterDrawMode mode, CounterFrame& out) {
    out.clear();
    out.mode = mode;
    out.scale = CounterScale::of(range);
    if (series.empty() || range.size() != series.size() || axis.width() <= 0) return;
    if (mode == CounterDrawMode::Step) layoutSteps(series, range, axis, endNs, out.runs);
    else layoutLine(series, range, axis, out.line);
}

CounterHover counterAt(const CounterSeries& s, const CounterRangeIndex& range, const TimeAxis& axis, TimeNs endNs,
                       CounterDrawMode mode, double x) {
    CounterHover h;
    if (s.empty() || range.size() != s.size()) return h;
    const double t = axis.time(x);
    h.time = TimeNs(std::floor(t));
    const double column = std::floor(x);
    const auto colBegin = std::lower_bound(s.time.begin(), s.time.end(), columnStart(axis, column));
    const auto colEnd = std::lower_bound(colBegin, s.time.end(), columnStart(axis, column + 1));
    h.columnSamples = size_t(colEnd - colBegin);
    if (h.columnSamples > 0)
        range.minMax(size_t(colBegin - s.time.begin()), size_t(colEnd - s.time.begin()), h.columnMin, h.columnMax);

    // The sample in effect: the last at or before the cursor's time; in a column
    // drawn from its first sample on, that sample even left of the exact time.
    auto after = std::upper_bound(s.time.begin(), s.time.end(), h.time);
    if (after == s.time.begin()) {
        if (h.columnSamples == 0) return h;
        after = colBegin + 1;
    }
    h.sample = size_t(after - s.time.begin()) - 1;
    h.sampleTime = s.time[h.sample];
    h.sampleValue = finite(s.value[h.sample]);
    h.hasNext = h.sample + 1 < s.size();
    if (h.hasNext) {
        h.nextTime = s.time[h.sample + 1];
        h.nextValue = finite(s.value[h.sample + 1]);
    }
    if (mode == CounterDrawMode::Step) {
        if (h.time > endNs) return h;
        h.value = h.sampleValue;
        h.valid = true;
        return h;
    }
    if (h.hasNext) {
        h.value = pointOnSegment(s, axis, h.sample, x).value;
        h.valid = true;
    } else if (std::floor(axis.x(double(h.sampleTime))) == column) {
        // On the last sample's own column: the end of the line.
        h.value = h.sampleValue;
        h.valid = true;
    }
    return h;
}

}  // namespace tracescope
