#include "views/timeline/time_format.h"

#include <QRegularExpression>

#include <cmath>
#include <cstdlib>

namespace tracescope {

namespace {

struct Unit {
    double ns;
    const char* suffix;
};
constexpr Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};

}  // namespace

QString formatDuration(TimeNs ns, int significant) {
    const double a = std::fabs(double(ns));
    for (const Unit& u : kUnits) {
        if (a >= u.ns || u.ns == 1) {
            const double v = double(ns) / u.ns;
            if (u.ns == 1) return QString::number(ns) + QStringLiteral(" ns");
            const int intDigits = a / u.ns >= 100 ? 3 : a / u.ns >= 10 ? 2 : 1;
            const int decimals = std::max(0, significant - intDigits);
            QString s = QString::number(v, 'f', decimals);
            // Drop trailing zeros after the point ("1.500 ms" -> "1.5 ms").
            if (s.contains('.')) {
                while (s.endsWith('0')) s.chop(1);
                if (s.endsWith('.')) s.chop(1);
            }
            return s + ' ' + QString::fromUtf8(u.suffix);
        }
    }
    return QString::number(ns) + QStringLiteral(" ns");
}

QString formatDurationExact(TimeNs ns) {
    const double a = std::fabs(double(ns));
    if (a < 1e3) return QString::number(ns) + QStringLiteral(" ns");
    for (const Unit& u : kUnits) {
        if (a >= u.ns) {
            const int decimals = int(std::lround(std::log10(u.ns)));
            QString s = QString::number(double(ns) / u.ns, 'f', decimals);
            while (s.endsWith('0')) s.chop(1);
            if (s.endsWith('.')) s.chop(1);
            return s + ' ' + QString::fromUtf8(u.suffix);
        }
    }
    return QString::number(ns) + QStringLiteral(" ns");
}

QString formatTimeInUnit(double ns, double unitNs, int decimals) {
    const char* suffix = "ns";
    for (const Unit& u : kUnits)
        if (u.ns == unitNs) suffix = u.suffix;
    return QString::number(ns / unitNs, 'f', std::max(0, decimals)) + ' ' + QString::fromUtf8(suffix);
}

bool parseTime(const QString& text, TimeNs& out) {
    static const QRegularExpression re(
        QStringLiteral("^\\s*(-?[0-9]+(?:\\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)\\s*(ns|us|µs|μs|ms|s)?\\s*$"));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch()) return false;
    bool ok = false;
    const double v = m.captured(1).toDouble(&ok);
    if (!ok) return false;
    const QString unit = m.captured(2);
    double scale = 1;
    if (unit == QLatin1String("us") || unit == QStringLiteral("µs") || unit == QStringLiteral("μs")) scale = 1e3;
    else if (unit == QLatin1String("ms")) scale = 1e6;
    else if (unit == QLatin1String("s")) scale = 1e9;
    const double ns = v * scale;
    if (!std::isfinite(ns) || std::fabs(ns) > 9.0e18) return false;
    out = TimeNs(std::llround(ns));
    return true;
}

bool parseTimeRange(const QString& text, TimeNs& begin, TimeNs& end) {
    const int colon = text.indexOf(':');
    if (colon < 0) return false;
    return parseTime(text.left(colon), begin) && parseTime(text.mid(colon + 1), end) && end > begin;
}

}  // namespace tracescope
