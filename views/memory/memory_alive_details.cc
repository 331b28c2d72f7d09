#include "views/memory/memory_alive_details.h"

#include "model/analysis/memory_alive.h"
#include "views/tables/value_format.h"

#include <QObject>

namespace tracescope {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

DetailsItem allocationRow(const Trace& trace, const MemoryIdProfile& p, uint32_t i,
                          const std::function<void(TimeNs, TimeNs)>& showLifetime) {
    const MemorySnapshot& s = p.timeline[i];
    const MemoryEventInfo info = memoryEventInfo(trace, p, i);
    const bool freed = s.partner < p.timeline.size();
    const TimeNs end = freed ? p.timeline[s.partner].time : trace.endNs;
    DetailsItem row;
    row.key = info.op.empty() ? QObject::tr("(no op)") : q(info.op);
    row.value = QObject::tr("%1 · allocated at %2 · %3")
                    .arg(formatBytes(s.allocationBytes), formatDuration(s.time - trace.startNs),
                         freed ? QObject::tr("freed at %1").arg(formatDuration(end - trace.startNs))
                               : QObject::tr("not freed in the profile"));
    row.toolTip = QObject::tr("Click to show its lifetime in the timeline");
    if (showLifetime) row.action = [showLifetime, begin = s.time, end] { showLifetime(begin, end); };
    auto add = [&](const QString& key, const std::string& value) {
        if (!value.empty()) row.children.push_back({key, q(value)});
    };
    add(QObject::tr("Shape"), info.shape);
    add(QObject::tr("Data type"), info.dataType);
    add(QObject::tr("Region type"), info.regionType);
    if (s.requestedBytes >= 0) row.children.push_back({QObject::tr("Requested"), formatBytes(s.requestedBytes)});
    row.expanded = false;
    return row;
}

}  // namespace

DetailsGroup aliveAllocationsDetails(const Trace& trace, const MemoryIdProfile& p, TimeNs moment,
                                     std::function<void(TimeNs, TimeNs)> showLifetime) {
    const AliveAllocations alive = allocationsAliveAt(p, moment);
    DetailsGroup group;
    const QString at = formatDuration(moment - trace.startNs);
    if (!alive.matched) {
        group.title = QObject::tr("Memory %1 at %2").arg(q(p.memoryId), at);
        if (alive.heapBytes >= 0) group.items.push_back({QObject::tr("In use"), formatBytes(alive.heapBytes)});
        group.items.push_back(
            {QObject::tr("Allocations"), p.source == MemorySource::Counter
                                             ? QObject::tr("not listed: the trace records memory as a counter")
                                             : QObject::tr("not listed: the trace records no allocation addresses, "
                                                           "so frees cannot be matched to allocations")});
        return group;
    }
    group.title = QObject::tr("Memory %1 at %2: %3 allocations alive, %4")
                      .arg(q(p.memoryId), at, formatCount(qint64(alive.snapshots.size())), formatBytes(alive.bytes));
    if (alive.heapBytes >= 0) {
        QString inUse = formatBytes(alive.heapBytes);
        if (alive.heapBytes > alive.bytes)
            inUse += QObject::tr(" (%1 allocated before the profile)").arg(formatBytes(alive.heapBytes - alive.bytes));
        group.items.push_back({QObject::tr("In use"), inUse});
    }
    const size_t shown = std::min(alive.snapshots.size(), kAliveAllocationRows);
    for (size_t k = 0; k < shown; ++k) group.items.push_back(allocationRow(trace, p, alive.snapshots[k], showLifetime));
    if (shown < alive.snapshots.size()) {
        int64_t rest = 0;
        for (size_t k = shown; k < alive.snapshots.size(); ++k) rest += p.timeline[alive.snapshots[k]].allocationBytes;
        group.items.push_back(
            {QObject::tr("…"), QObject::tr("%1 smaller allocations, %2")
                                   .arg(formatCount(qint64(alive.snapshots.size() - shown)), formatBytes(rest))});
    }
    if (alive.snapshots.empty()) group.items.push_back({QObject::tr("Allocations"), QObject::tr("none alive")});
    return group;
}

}  // namespace tracescope
