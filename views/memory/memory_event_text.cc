#include "views/memory/memory_event_text.h"

#include "views/tables/value_format.h"

#include <QObject>
#include <QStringList>

namespace tracescope {

QString memoryEventText(const Trace& trace, const MemoryIdProfile& p, size_t snapshot) {
    if (snapshot >= p.timeline.size()) return {};
    auto q = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
    const MemorySnapshot& s = p.timeline[snapshot];
    const MemoryEventInfo info = memoryEventInfo(trace, p, snapshot);
    QStringList lines;
    lines << QObject::tr("<b>%1</b> at %2 · %3")
                 .arg(QString::fromUtf8(memoryEventKindName(s.kind)), formatDuration(s.time - trace.startNs), q(p.memoryId));
    const QString sign = s.kind == MemoryEventKind::Deallocation ? QStringLiteral("−") : QString();
    if (s.requestedBytes >= 0) lines << QObject::tr("Requested: %1%2").arg(sign, formatBytes(s.requestedBytes));
    if (s.kind != MemoryEventKind::Sample) lines << QObject::tr("Allocation: %1%2").arg(sign, formatBytes(s.allocationBytes));
    if (!info.op.empty()) lines << QObject::tr("Op: %1").arg(q(info.op));
    if (s.step >= 0) lines << QObject::tr("Step: %1").arg(s.step);
    if (!info.regionType.empty()) lines << QObject::tr("Region type: %1").arg(q(info.regionType));
    if (!info.dataType.empty()) lines << QObject::tr("Data type: %1").arg(q(info.dataType));
    if (!info.shape.empty()) lines << QObject::tr("Shape: %1").arg(q(info.shape));
    lines << QObject::tr("Memory in use: %1").arg(formatBytes(s.inUseBytes()));
    if (s.stackBytes > 0) lines << QObject::tr("Stack: %1").arg(formatBytes(s.stackBytes));
    if (s.reservedBytes >= 0) lines << QObject::tr("Reserved: %1").arg(formatBytes(s.reservedBytes));
    if (s.freeBytes >= 0 && p.hasFree) lines << QObject::tr("Free: %1").arg(formatBytes(s.freeBytes));
    if (s.fragmentation >= 0) lines << QObject::tr("Fragmentation: %1").arg(formatPercent(100.0 * s.fragmentation));
    return lines.join(QStringLiteral("<br>"));
}

}  // namespace tracescope
