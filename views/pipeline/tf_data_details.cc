#include "views/pipeline/tf_data_details.h"

#include "views/timeline/time_format.h"

#include <QObject>
#include <QStringList>

namespace tracescope {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }
QString tr(const char* s) { return QObject::tr(s); }

QString eventCount(size_t n) { return n == 1 ? tr("1 event") : tr("%1 events").arg(n); }

QString signedDuration(TimeNs ns) {
    return ns < 0 ? QStringLiteral("−") + formatDurationExact(-ns) : QStringLiteral("+") + formatDurationExact(ns);
}

// The labels of the iterators that feed `id` in the call ("Range"), for the self-time wording.
QString inputNames(const TfDataPipeline& p, const TfDataCall& call, uint64_t id) {
    QStringList names;
    for (const TfDataIteratorStat& s : call.iterators) {
        const TfDataIterator* it = p.iterator(s.id);
        if (it && it->hasParent && it->parentId == id && s.id != id) names << q(it->label);
    }
    return names.join(QStringLiteral(", "));
}

QString criticalPathText(const TfDataCall& call, const TfDataIteratorStat& s) {
    if (s.id == call.bottleneckId) return tr("the bottleneck of this call: the blocking iterator with the most self time");
    if (s.blocking) return tr("on the critical path: the call waited for it");
    return tr("not blocking: its work did not overlap its consumer's call");
}

QString selfToolTip() {
    return tr("tf.data's self time (as XProf's tf.data analysis): each event's duration less the time its input "
              "iterators overlapped it. Work the event runs itself, such as a map function nested in it, counts. "
              "The timeline's Self time of one event also subtracts every slice nested in it, so it can be much "
              "smaller.");
}

}  // namespace

QString tfDataCallName(size_t rank, size_t calls) {
    return rank == 0 ? tr("call #0 (the slowest of %1)").arg(calls)
                     : tr("call #%1 of %2 (slowest first)").arg(rank).arg(calls);
}

DetailsGroup tfDataIteratorDetails(const Trace& trace, const TfDataResult& r, size_t pipeline, size_t rank,
                                   uint64_t iteratorId) {
    DetailsGroup g;
    if (pipeline >= r.pipelines.size() || rank >= r.pipelines[pipeline].calls.size()) return g;
    const TfDataPipeline& p = r.pipelines[pipeline];
    const TfDataCall& call = p.calls[rank];
    const TfDataIteratorStat* s = call.stat(iteratorId);
    if (!s) return g;
    const TfDataIterator* it = p.iterator(iteratorId);
    const QString label = it ? q(it->label) : QString::number(iteratorId);
    const std::vector<TfDataEventRef> events = tfDataCallEvents(trace, r, pipeline, rank, iteratorId);
    const QString eventsText = eventCount(events.size());
    g.title = tr("tf.data: %1 in %2 of %3 on %4, %5 summed")
                  .arg(label, tfDataCallName(rank, p.calls.size()), q(p.name), q(p.host), eventsText);

    DetailsItem iterator{tr("Iterator"), it ? q(it->longName) : label, {}, {}, {}, {}, true};
    iterator.toolTip = tr("id %1%2").arg(QString::number(iteratorId),
                                         it && it->isAsync ? tr(", asynchronous: its input runs on other threads")
                                                           : QString());
    g.items.push_back(std::move(iterator));
    DetailsItem callItem;
    callItem.key = tr("Call");
    callItem.value = tr("#%1 of %2, slowest first; its root event").arg(rank).arg(p.calls.size());
    callItem.link = call.root;
    callItem.toolTip = tr("The figures here are this iterator's events reached from this call of the root "
                          "iterator (one GetNext of the pipeline), summed.");
    g.items.push_back(std::move(callItem));
    g.items.push_back({tr("Events summed"), tr("%1 (listed below)").arg(events.size()), {}, {}, {}, {}, true});
    g.items.push_back({tr("Total"),
                       tr("%1: the sum of its events' durations").arg(formatDurationExact(s->totalNs)),
                       {}, {}, {}, {}, true});
    const QString inputs = inputNames(p, call, iteratorId);
    g.items.push_back({tr("Self (tf.data)"),
                       inputs.isEmpty()
                           ? tr("%1: it has no input iterator in this call").arg(formatDurationExact(s->selfNs))
                           : tr("%1: its events less the time its input iterators (%2) overlapped them")
                                 .arg(formatDurationExact(s->selfNs), inputs),
                       selfToolTip(), {}, {}, {}, true});
    g.items.push_back({tr("Start"),
                       tr("%1 from the call's start%2")
                           .arg(signedDuration(s->startNs - call.startNs),
                                s->startNs < call.startNs ? tr(" (it began before the call)") : QString()),
                       {}, {}, {}, {}, true});
    if (s->aheadNs > 0)
        g.items.push_back({tr("Before the call"),
                           tr("%1 of its total ran before the call began: work done ahead by an asynchronous "
                              "producer, on another thread")
                               .arg(formatDurationExact(s->aheadNs)),
                           {}, {}, {}, {}, true});
    g.items.push_back({tr("Critical path"), criticalPathText(call, *s), {}, {}, {}, {}, true});

    DetailsItem list;
    list.key = tr("Events");
    list.value = tr("%1, in time order (one event's own Self time also subtracts the slices nested in it)")
                     .arg(events.size());
    list.toolTip = selfToolTip();
    for (size_t i = 0; i < events.size(); ++i) {
        DetailsItem e;
        e.key = QStringLiteral("#%1").arg(i + 1);
        e.value = tr("self %1").arg(formatDurationExact(events[i].selfNs));
        e.link = events[i].slice;
        list.children.push_back(std::move(e));
    }
    list.expanded = events.size() <= 20;
    g.items.push_back(std::move(list));
    return g;
}

std::vector<DetailsItem> tfDataEventAnnotation(const Trace& trace, const TfDataResult& r, SliceRef slice,
                                               const std::function<void(size_t, size_t, uint64_t)>& showBox) {
    const TfDataEventRef* e = tfDataEventAt(r, slice);
    if (!e || e->pipeline >= r.pipelines.size() || e->call >= r.pipelines[e->pipeline].calls.size()) return {};
    const TfDataPipeline& p = r.pipelines[e->pipeline];
    const TfDataCall& call = p.calls[e->call];
    const TfDataIteratorStat* s = call.stat(e->iteratorId);
    const TfDataIterator* it = p.iterator(e->iteratorId);
    const QString label = it ? q(it->label) : QString::number(e->iteratorId);
    const std::vector<TfDataEventRef> events = tfDataCallEvents(trace, r, e->pipeline, e->call, e->iteratorId);
    size_t index = 0;
    while (index < events.size() && !(events[index].slice == slice)) ++index;

    DetailsItem top;
    top.key = tr("tf.data");
    top.value = tr("%1: event %2 of %3 in %4 of %5")
                    .arg(label)
                    .arg(index + 1)
                    .arg(events.size())
                    .arg(tfDataCallName(e->call, p.calls.size()), q(p.name));
    top.children.push_back({tr("Self (tf.data)"),
                            tr("%1: this event less the time its input iterators overlapped it")
                                .arg(formatDurationExact(e->selfNs)),
                            selfToolTip(), {}, {}, {}, true});
    if (s) {
        DetailsItem box;
        box.key = tr("In the graph");
        box.value = tr("%1 in %2: %3, total %4, self %5 (click for the box's figures)")
                        .arg(label, tfDataCallName(e->call, p.calls.size()), eventCount(events.size()),
                             formatDurationExact(s->totalNs), formatDurationExact(s->selfNs));
        const size_t pipeline = e->pipeline, rank = e->call;
        const uint64_t id = e->iteratorId;
        box.action = [showBox, pipeline, rank, id] { showBox(pipeline, rank, id); };
        top.children.push_back(std::move(box));
    }
    return {std::move(top)};
}

}  // namespace tracescope
