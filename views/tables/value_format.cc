#include "views/tables/value_format.h"

#include <cmath>
#include <cstdlib>

namespace tracescope {

namespace {

// Value with 3 significant digits (at least 1 decimal below 100) plus a unit.
QString scaled(double value, const char* unit) {
    double a = std::fabs(value);
    int decimals = a < 10 ? 2 : a < 100 ? 1 : 0;
    return QString::number(value, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit);
}

}  // namespace

QString formatDuration(int64_t ns) {
    double a = std::fabs(double(ns));
    if (a < 1e3) return QString::number(ns) + QStringLiteral(" ns");
    if (a < 1e6) return scaled(ns / 1e3, "µs");
    if (a < 1e9) return scaled(ns / 1e6, "ms");
    // Seconds keep 3 decimals: long traces are read to the millisecond.
    return QString::number(ns / 1e9, 'f', 3) + QStringLiteral(" s");
}

QString formatPercent(double percent) {
    if (!std::isfinite(percent)) return QStringLiteral("–");
    double a = std::fabs(percent);
    int decimals = a == 0 ? 0 : a < 0.1 ? 2 : 1;
    return QString::number(percent, 'f', decimals) + QStringLiteral(" %");
}

QString formatBytes(int64_t bytes) {
    double a = std::fabs(double(bytes));
    if (a < 1024) return QString::number(bytes) + QStringLiteral(" B");
    if (a < 1024.0 * 1024) return scaled(bytes / 1024.0, "KiB");
    if (a < 1024.0 * 1024 * 1024) return scaled(bytes / (1024.0 * 1024), "MiB");
    return scaled(bytes / (1024.0 * 1024 * 1024), "GiB");
}

QString formatCount(int64_t n) {
    QString digits = QString::number(n < 0 ? 0 - uint64_t(n) : uint64_t(n));  // safe for INT64_MIN
    for (int i = digits.size() - 3; i > 0; i -= 3) digits.insert(i, QLatin1Char(','));
    return n < 0 ? QLatin1Char('-') + digits : digits;
}

}  // namespace tracescope
