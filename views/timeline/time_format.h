// Human-readable times and durations (ns / µs / ms / s), and parsing them back
// (for --range and typed input).
#pragma once

#include "model/trace/types.h"

#include <QString>

namespace tracescope {

// A duration with `significant` digits in the largest unit that keeps it >= 1: "1.25 ms", "830 ns".
QString formatDuration(TimeNs ns, int significant = 4);
// An exact duration for the details panel: "1,234.567 µs" style without losing ns.
QString formatDurationExact(TimeNs ns);
// A time on the ruler: `unitNs` picks the unit (1, 1e3, 1e6, 1e9) and `decimals` the precision.
QString formatTimeInUnit(double ns, double unitNs, int decimals);
// Parses "1500", "1.5us", "1.5µs", "2 ms", "0.3s", "12ns" into ns. Plain numbers are ns.
bool parseTime(const QString& text, TimeNs& out);
// Parses "A:B" where A and B are times as above.
bool parseTimeRange(const QString& text, TimeNs& begin, TimeNs& end);

}  // namespace tracescope
