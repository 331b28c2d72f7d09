#include "views/memory/memory_profile_view.h"

#include "model/results/trace_results.h"
#include "views/memory/memory_alive_details.h"
#include "views/memory/memory_chart.h"
#include "views/memory/memory_event_text.h"
#include "views/partial_trace_note.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace tracescope {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

std::vector<RowTableModel<MemoryBreakdownRow>::Column> breakdownColumns() {
    using R = MemoryBreakdownRow;
    return {
        {{QObject::tr("Op name"), ColumnKind::Text,
          QObject::tr("The op that made the allocation (tf_op), or the op open on the allocating thread")},
         [](const R& r) { return QVariant(r.op.empty() ? QObject::tr("(no op)") : q(r.op)); }},
        {{QObject::tr("Allocation size"), ColumnKind::Bytes,
          QObject::tr("Bytes held by these allocations at the peak")},
         [](const R& r) { return QVariant(qint64(r.allocationBytes)); }},
        {{QObject::tr("Requested size"), ColumnKind::Bytes,
          QObject::tr("Bytes the ops asked for (the allocator rounds up)")},
         [](const R& r) { return r.requestedBytes >= 0 ? QVariant(qint64(r.requestedBytes)) : QVariant(); }},
        {{QObject::tr("Occurrences"), ColumnKind::Integer, QObject::tr("Allocations alive at the peak")},
         [](const R& r) { return r.special ? QVariant() : QVariant(qint64(r.occurrences)); }},
        {{QObject::tr("Region type"), ColumnKind::Text, {}}, [](const R& r) { return QVariant(q(r.regionType)); }},
        {{QObject::tr("Data type"), ColumnKind::Text, {}}, [](const R& r) { return QVariant(q(r.dataType)); }},
        {{QObject::tr("Shape"), ColumnKind::Text, {}}, [](const R& r) { return QVariant(q(r.shape)); }},
    };
}

std::vector<RowTableModel<MemoryLeakHint>::Column> leakColumns() {
    using L = MemoryLeakHint;
    return {
        {{QObject::tr("Op name"), ColumnKind::Text, {}}, [](const L& l) { return QVariant(q(l.op)); }},
        {{QObject::tr("Alive at end"), ColumnKind::Integer,
          QObject::tr("Allocations made inside a step and never freed in the profile")},
         [](const L& l) { return QVariant(qint64(l.allocations)); }},
        {{QObject::tr("Bytes"), ColumnKind::Bytes, {}}, [](const L& l) { return QVariant(qint64(l.bytes)); }},
        {{QObject::tr("Steps"), ColumnKind::Integer,
          QObject::tr(
              "Distinct steps they were made in: the same op leaving memory behind in several steps suggests a leak")},
         [](const L& l) { return QVariant(qint64(l.steps)); }},
    };
}

QString row(const QString& label, const QString& value) {
    return QStringLiteral("<tr><td style='padding-right:10px'>%1</td><td><b>%2</b></td></tr>").arg(label, value);
}

}  // namespace

MemoryProfileView::MemoryProfileView(QWidget* parent) : AnalysisView(parent) {
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);

    auto* top = new QHBoxLayout;
    auto* idLabel = new QLabel(tr("Memory ID:"), content);
    ids_ = new QComboBox(content);
    ids_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    ids_->setToolTip(tr("Allocator or device whose memory is shown"));
    top->addWidget(idLabel);
    top->addWidget(ids_);
    top->addSpacing(16);
    showFree_ = new QCheckBox(tr("Show free memory"), content);
    showFree_->setToolTip(tr("Stack free memory on top of the memory in use (up to the allocator's capacity)"));
    top->addWidget(showFree_);
    top->addStretch(1);
    // How to use the chart (a tooltip on it would fight its hover popup).
    auto* hint = new QLabel(tr("Chart: drag or wheel to zoom · double-click to show all · click to see that moment "
                               "in the timeline"),
                            content);
    hint->setForegroundRole(QPalette::PlaceholderText);
    top->addWidget(hint);
    layout->addLayout(top);
    layout->addWidget(partialTraceNote());

    auto* split = new QSplitter(Qt::Vertical, content);
    split->setChildrenCollapsible(false);
    auto* upper = new QWidget(split);
    auto* upperLayout = new QHBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel(upper);
    summary_->setTextFormat(Qt::RichText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    summary_->setMinimumWidth(280);
    auto* left = new QVBoxLayout;
    left->addWidget(summary_);
    notes_ = new WrappingLabel(upper);
    notes_->setMaximumWidth(340);
    notes_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    left->addWidget(notes_);
    left->addStretch(1);
    upperLayout->addLayout(left);
    chart_ = new MemoryChart(upper);
    chart_->setHoverText([this](size_t s) { return snapshotText(s); });
    upperLayout->addWidget(chart_, 1);
    split->addWidget(upper);

    tabs_ = new QTabWidget(split);
    breakdown_ = new TablePage(tabs_);
    breakdownModel_ = new RowTableModel<MemoryBreakdownRow>(breakdownColumns(), this);
    breakdown_->setSourceModel(breakdownModel_, AllocationSize, Qt::DescendingOrder);
    breakdown_->setFilterColumns({Op, RegionType, DataType, Shape},
                                 tr("Filter by op name, region, data type or shape"));
    breakdown_->setExportName(QStringLiteral("memory_breakdown.csv"));
    breakdown_->setElasticColumn(Op, 220);
    tabs_->addTab(breakdown_, tr("Memory breakdown at the peak"));
    leaks_ = new TablePage(tabs_);
    leakModel_ = new RowTableModel<MemoryLeakHint>(leakColumns(), this);
    leaks_->setSourceModel(leakModel_, LeakBytes, Qt::DescendingOrder);
    leaks_->setFilterColumns({LeakOp}, tr("Filter by op name"));
    leaks_->setExportName(QStringLiteral("memory_leak_hints.csv"));
    leaks_->setElasticColumn(LeakOp, 220);
    tabs_->addTab(leaks_, tr("Leak hints"));
    split->addWidget(tabs_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    setContent(content);

    connect(ids_, &QComboBox::currentIndexChanged, this, &MemoryProfileView::showMemoryId);
    connect(showFree_, &QCheckBox::toggled, this, [this](bool on) {
        chart_->setShowFree(on);
        if (const MemoryIdProfile* p = current()) chart_->setProfile(p, trace()->startNs, trace()->endNs);
    });
    // A click: the timeline at that moment, and Details lists the allocations alive then.
    connect(chart_, &MemoryChart::timeClicked, this, [this](qint64 t) {
        if (!selection_) return;
        selection_->showTime(t);
        const MemoryIdProfile* p = current();
        if (!p || !trace()) return;
        QPointer<TraceSelection> selection = selection_;
        selection_->showDetails(aliveAllocationsDetails(*trace(), *p, t, [selection](TimeNs b, TimeNs e) {
            if (selection) selection->showSpan(b, e);
        }));
    });
    connect(breakdown_, &TablePage::sourceRowActivated, this, [this](int r) {
        if (r >= 0 && r < breakdownModel_->rowCount()) jumpToSnapshot(breakdownModel_->row(r).firstSnapshot);
    });
    connect(leaks_, &TablePage::sourceRowActivated, this, [this](int r) {
        if (r >= 0 && r < leakModel_->rowCount()) jumpToSnapshot(leakModel_->row(r).firstSnapshot);
    });
}

void MemoryProfileView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    // The store's memory profile, which the timeline's memory tracks show too.
    run<std::shared_ptr<const MemoryProfileResult>>(
        estimateAnalysisCost(AnalysisKind::MemoryProfile, *trace), {"memory-page", ""},
        [](ResultStore& results) {
            analysisStep("Replaying allocations", 0, 1);
            return memoryProfileOf(results);
        },
        [this](std::shared_ptr<const std::shared_ptr<const MemoryProfileResult>> r) {
            result_ = *r;
            showResult();
        });
}

void MemoryProfileView::clearResult() {
    chart_->setProfile(nullptr, 0, 1);
    result_.reset();
    ids_->clear();
    breakdownModel_->setRows({});
    leakModel_->setRows({});
    summary_->clear();
}

const MemoryIdProfile* MemoryProfileView::current() const {
    const int i = ids_->currentIndex();
    if (!result_ || i < 0 || size_t(i) >= result_->ids.size()) return nullptr;
    return &result_->ids[size_t(i)];
}

void MemoryProfileView::showResult() {
    if (result_->ids.empty()) {
        showEmptyResult(q(result_->howToRecord));
        return;
    }
    const QSignalBlocker block(ids_);
    ids_->clear();
    // The busiest id first: the one a user most likely came for.
    size_t busiest = 0;
    for (size_t i = 0; i < result_->ids.size(); ++i) {
        const MemoryIdProfile& p = result_->ids[i];
        ids_->addItem(q(p.memoryId));
        if (p.peakBytes > result_->ids[busiest].peakBytes) busiest = i;
    }
    ids_->setCurrentIndex(int(busiest));
    showMemoryId(int(busiest));
}

void MemoryProfileView::showMemoryId(int) {
    const MemoryIdProfile* p = current();
    const Trace* t = trace().get();
    if (!p || !t) return;
    QString s = QStringLiteral("<table>");
    s += row(tr("Allocations / deallocations"),
             tr("%1 / %2").arg(formatCount(qint64(p->allocations)), formatCount(qint64(p->deallocations))));
    if (p->capacityBytes) s += row(tr("Memory capacity"), formatBytes(*p->capacityBytes));
    if (p->lifetimePeakBytes) s += row(tr("Lifetime peak heap"), formatBytes(*p->lifetimePeakBytes));
    s += row(tr("Peak memory in profile"), formatBytes(p->peakBytes));
    s += row(tr("&nbsp;&nbsp;at"), formatDuration(p->peakTimeNs - t->startNs) +
                                       (p->peakStep ? tr(" (step %1)").arg(*p->peakStep) : QString()));
    if (p->hasStack || p->source == MemorySource::XSpace)
        s += row(tr("&nbsp;&nbsp;stack reservation"), formatBytes(p->stackAtPeak));
    s += row(p->source == MemorySource::XSpace   ? tr("&nbsp;&nbsp;heap allocation")
             : p->source == MemorySource::Kineto ? tr("&nbsp;&nbsp;allocated")
                                                 : tr("&nbsp;&nbsp;in use"),
             formatBytes(p->heapAtPeak));
    if (p->freeAtPeak) s += row(tr("&nbsp;&nbsp;free memory"), formatBytes(*p->freeAtPeak));
    if (p->fragmentationAtPeak)
        s += row(tr("&nbsp;&nbsp;fragmentation"), formatPercent(100.0 * *p->fragmentationAtPeak));
    if (p->peakReservedBytes) s += row(tr("Peak reserved"), formatBytes(*p->peakReservedBytes));
    if (p->hasAddresses)
        s += row(tr("Alive at the end"),
                 tr("%1 (%2)").arg(formatBytes(p->aliveAtEndBytes), formatCount(qint64(p->aliveAtEnd))));
    s += QStringLiteral("</table>");
    summary_->setText(s);
    QStringList notes;
    for (const std::string& n : p->notes) {
        QString text = q(n);
        if (!text.isEmpty()) text[0] = text[0].toUpper();
        notes << QStringLiteral("• ") + text + QStringLiteral(".");
    }
    if (result_->stepCount < 2 && p->source != MemorySource::Counter)
        notes << tr("• Leak hints need at least two steps; this trace has %1.").arg(result_->stepCount);
    notes_->setText(notes.join(QStringLiteral("\n")));
    notes_->setVisible(!notes.isEmpty());
    // Free memory dwarfs the rest when the peak uses a small part of the device: off then, a click away.
    {
        const QSignalBlocker blockFree(showFree_);
        showFree_->setVisible(p->hasFree);
        showFree_->setChecked(p->capacityBytes && double(p->peakBytes) >= 0.1 * double(*p->capacityBytes));
    }
    chart_->setShowFree(showFree_->isChecked());
    chart_->setProfile(p, t->startNs, t->endNs);
    tabs_->setVisible(p->source != MemorySource::Counter);
    breakdownModel_->setRows(p->breakdown);
    // Columns the trace has no data for (PyTorch records no requested size, region, type or shape).
    auto any = [&](auto has) { return std::any_of(p->breakdown.begin(), p->breakdown.end(), has); };
    breakdown_->setColumnShown(RequestedSize, any([](const MemoryBreakdownRow& r) { return r.requestedBytes >= 0; }));
    breakdown_->setColumnShown(RegionType, any([](const MemoryBreakdownRow& r) { return !r.regionType.empty(); }));
    breakdown_->setColumnShown(DataType, any([](const MemoryBreakdownRow& r) { return !r.dataType.empty(); }));
    breakdown_->setColumnShown(Shape, any([](const MemoryBreakdownRow& r) { return !r.shape.empty(); }));
    breakdown_->view()->sortByColumn(AllocationSize, Qt::DescendingOrder);
    breakdown_->fitColumns(900);
    leakModel_->setRows(p->leaks);
    leaks_->view()->sortByColumn(LeakBytes, Qt::DescendingOrder);
    leaks_->fitColumns(900);
    tabs_->setTabText(1, tr("Leak hints (%1)").arg(p->leaks.size()));
}

QString MemoryProfileView::snapshotText(size_t snapshot) const {
    const MemoryIdProfile* p = current();
    const Trace* t = trace().get();
    if (!p || !t) return {};
    return memoryEventText(*t, *p, snapshot);
}

void MemoryProfileView::jumpToSnapshot(uint32_t snapshot) {
    const MemoryIdProfile* p = current();
    if (!p || !selection_ || snapshot >= p->timeline.size()) return;
    selection_->showTime(p->timeline[snapshot].time);
}

}  // namespace tracescope
