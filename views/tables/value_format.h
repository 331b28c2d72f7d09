// How numbers from analysis results read in tables and charts: one place, so every
// view shows durations, percentages and sizes the same way.
#pragma once

#include <QString>

#include <cstdint>

namespace tracescope {

// Nanoseconds in a unit that keeps 3-4 significant digits: "850 ns", "12.3 µs", "4.56 ms", "1.234 s".
QString formatDuration(int64_t ns);
// A percentage given as 0..100: "12.3 %"; values under 0.1 keep two decimals.
QString formatPercent(double percent);
// Bytes in binary units: "512 B", "1.50 KiB", "3.25 MiB".
QString formatBytes(int64_t bytes);
// An integer with thousands separators: "1,234,567".
QString formatCount(int64_t n);

}  // namespace tracescope
