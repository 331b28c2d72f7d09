#include "views/collectives/collectives_view.h"

#include "model/results/collectives_results.h"
#include "model/results/trace_results.h"
#include "views/collectives/collective_wait_heatmap.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace tracescope {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }
QVariant ns(int64_t v) { return QVariant(qint64(v)); }
// Bandwidths in GB/s (10^9 bytes per second, as nccl-tests prints them); empty when unknown.
QVariant gbPerS(double bytesPerS) { return bytesPerS >= 0 ? QVariant(bytesPerS / 1e9) : QVariant(); }
QVariant knownBytes(int64_t b) { return b >= 0 ? QVariant(qint64(b)) : QVariant(); }
QVariant groupSize(int64_t n) { return n > 0 ? QVariant(qint64(n)) : QVariant(); }
QString timeSourceText(CollectiveTimeSource s) {
    switch (s) {
    case CollectiveTimeSource::Kernel: return QObject::tr("kernel");
    case CollectiveTimeSource::Worker: return QObject::tr("gloo worker");
    case CollectiveTimeSource::Host: return QObject::tr("host op");
    }
    return {};
}

template <typename Row>
using Columns = std::vector<typename RowTableModel<Row>::Column>;

const QString kAlgbwTip = QObject::tr("Size / time (nccl-tests' algbw), GB/s = 10⁹ bytes per second");
const QString kBusbwTip = QObject::tr(
    "algbw × the bus factor of nccl-tests: all-reduce 2(n−1)/n; all-gather, reduce-scatter, all-to-all (n−1)/n; "
    "broadcast, reduce, send/recv 1");
const QString kSizeTip = QObject::tr(
    "S as nccl-tests counts it: all-reduce, reduce-scatter, all-to-all, broadcast, reduce: the input "
    "(In msg nelems × sizeof dtype); all-gather: the gathered output");

Columns<const CollectiveSummaryRow*> summaryColumns() {
    using R = const CollectiveSummaryRow*;
    return {
        {{QObject::tr("Collective"), ColumnKind::Text}, [](R r) { return QVariant(q(r->kind)); }},
        {{QObject::tr("Size"), ColumnKind::Bytes, kSizeTip}, [](R r) { return knownBytes(r->sizeBytes); }},
        {{QObject::tr("Group"), ColumnKind::Text, QObject::tr("The process group's name")},
         [](R r) { return QVariant(q(r->group)); }},
        {{QObject::tr("Ranks"), ColumnKind::Integer, QObject::tr("n, the ranks in the group")},
         [](R r) { return groupSize(r->groupSize); }},
        {{QObject::tr("Calls"), ColumnKind::Integer}, [](R r) { return QVariant(qint64(r->count)); }},
        {{QObject::tr("Total"), ColumnKind::Duration}, [](R r) { return ns(r->totalNs); }},
        {{QObject::tr("Median"), ColumnKind::Duration}, [](R r) { return ns(r->medianNs); }},
        {{QObject::tr("p90"), ColumnKind::Duration, QObject::tr("90th percentile (linear interpolation)")},
         [](R r) { return ns(r->p90Ns); }},
        {{QObject::tr("algbw (GB/s)"), ColumnKind::Real, kAlgbwTip + QObject::tr(", at the median time")},
         [](R r) { return gbPerS(r->algbwBytesPerS); }},
        {{QObject::tr("busbw (GB/s)"), ColumnKind::Real, kBusbwTip}, [](R r) { return gbPerS(r->busbwBytesPerS); }},
        {{QObject::tr("Timed by"), ColumnKind::Text,
          QObject::tr("Its NCCL kernels, gloo's worker run, or its host op when it has neither")},
         [](R r) { return QVariant(timeSourceText(r->timeSource)); }},
    };
}

Columns<const CollectiveCall*> callColumns() {
    using C = const CollectiveCall*;
    return {
        {{QObject::tr("Start"), ColumnKind::Duration, QObject::tr("From the trace's start")},
         [](C c) { return ns(c->startNs); }},
        {{QObject::tr("Collective"), ColumnKind::Text}, [](C c) { return QVariant(q(c->kind)); }},
        {{QObject::tr("Group"), ColumnKind::Text}, [](C c) { return QVariant(q(c->group)); }},
        {{QObject::tr("Ranks"), ColumnKind::Integer}, [](C c) { return groupSize(c->groupSize); }},
        {{QObject::tr("Seq"), ColumnKind::Integer, QObject::tr("The call's sequence number in its group")},
         [](C c) { return c->seq ? QVariant(qint64(*c->seq)) : QVariant(); }},
        {{QObject::tr("dtype"), ColumnKind::Text}, [](C c) { return QVariant(q(c->dtype)); }},
        {{QObject::tr("Size"), ColumnKind::Bytes, kSizeTip}, [](C c) { return knownBytes(c->sizeBytes); }},
        {{QObject::tr("Time"), ColumnKind::Duration}, [](C c) { return ns(c->durationNs); }},
        {{QObject::tr("algbw (GB/s)"), ColumnKind::Real, kAlgbwTip}, [](C c) { return gbPerS(c->algbwBytesPerS); }},
        {{QObject::tr("busbw (GB/s)"), ColumnKind::Real, kBusbwTip}, [](C c) { return gbPerS(c->busbwBytesPerS); }},
        {{QObject::tr("Timed by"), ColumnKind::Text}, [](C c) { return QVariant(timeSourceText(c->timeSource)); }},
        {{QObject::tr("Kind from"), ColumnKind::Text,
          QObject::tr("Where the kind was read: Kineto's metadata, the c10d op, an annotation, the kernel's name")},
         [](C c) { return QVariant(q(c->kindSource)); }},
    };
}

Columns<const StepOverlap*> stepColumns() {
    using S = const StepOverlap*;
    return {
        {{QObject::tr("Step"), ColumnKind::Integer}, [](S s) { return QVariant(qint64(s->step)); }},
        {{QObject::tr("Step time"), ColumnKind::Duration}, [](S s) { return ns(s->durationNs); }},
        {{QObject::tr("Communication"), ColumnKind::Duration,
          QObject::tr("Time some communication kernel ran in the step (their union)")},
         [](S s) { return ns(s->overlap.communicationNs); }},
        {{QObject::tr("Overlapped"), ColumnKind::Duration,
          QObject::tr("Of it, the time some compute kernel ran too")},
         [](S s) { return ns(s->overlap.overlappedNs); }},
        {{QObject::tr("Overlap"), ColumnKind::Percent, QObject::tr("Overlapped / communication (HTA)")},
         [](S s) { return s->overlap.communicationNs > 0 ? QVariant(s->overlap.percent()) : QVariant(); }},
        {{QObject::tr("Exposed"), ColumnKind::Duration,
          QObject::tr("Communication with no compute beside it: what overlap could still hide")},
         [](S s) { return ns(s->overlap.exposedNs); }},
    };
}

TablePage* newTable(QAbstractItemModel* model, int sortColumn, Qt::SortOrder order, const QString& exportName,
                    QWidget* parent) {
    auto* page = new TablePage(parent);
    page->setSourceModel(model, sortColumn, order);
    page->setElasticColumn(sortColumn == 0 ? 1 : 0, 160);
    page->setExportName(exportName);
    return page;
}

}  // namespace

CollectivesView::CollectivesView(QWidget* parent) : AnalysisView(parent) {
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    headline_ = new WrappingLabel(content);
    headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(headline_);
    // Run mode: whose tables the tabs show.
    rankBar_ = new QWidget(content);
    auto* rankBar = new QHBoxLayout(rankBar_);
    rankBar->setContentsMargins(0, 0, 0, 0);
    rank_ = new QComboBox(rankBar_);
    rank_->setToolTip(tr("The rank whose calls, summary and overlap the tables show"));
    rank_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    rankBar->addWidget(new QLabel(tr("Rank:"), rankBar_));
    rankBar->addWidget(rank_);
    rankBar->addStretch(1);
    rankBar_->setVisible(false);
    layout->addWidget(rankBar_);
    connect(rank_, &QComboBox::currentIndexChanged, this, &CollectivesView::setRankIndex);
    tabs_ = new QTabWidget(content);
    // Run mode's first tab: the stragglers by collective.
    auto* stragglers = new QSplitter(Qt::Vertical, tabs_);
    heatmap_ = new CollectiveWaitHeatmap(stragglers);
    rankModel_ = new RowTableModel<const RankWait*>(
        {
            {{tr("Rank"), ColumnKind::Text},
             [this](const RankWait* w) { return QVariant(runResult_ ? q(runResult_->ranks[w->rank].name) : QString()); }},
            {{tr("Induced wait"), ColumnKind::Duration,
              tr("Over the collectives it arrived last to: the time the other ranks waited for it")},
             [](const RankWait* w) { return ns(w->inducedWaitNs); }},
            {{tr("Last to"), ColumnKind::Integer, tr("Collectives it arrived last to")},
             [](const RankWait* w) { return QVariant(qint64(w->lateCount)); }},
            {{tr("Waited"), ColumnKind::Duration, tr("The time it waited for the last rank, over all collectives")},
             [](const RankWait* w) { return ns(w->waitedNs); }},
        },
        this);
    ranks_ = newTable(rankModel_, 1, Qt::DescendingOrder, QStringLiteral("collective_stragglers.csv"), stragglers);
    stragglers->addWidget(heatmap_);
    stragglers->addWidget(ranks_);
    stragglers->setStretchFactor(0, 3);
    stragglers->setStretchFactor(1, 1);
    stragglers->setSizes({450, 150});  // the picture first; the ranks table is a few columns
    stragglers->setChildrenCollapsible(false);
    stragglers_ = stragglers;
    connect(heatmap_, &CollectiveWaitHeatmap::cellClicked, this, [this](int r, int c) {
        if (!runResult_ || size_t(c) >= runResult_->stragglers.collectives.size()) return;
        const auto& call = runResult_->stragglers.collectives[size_t(c)].calls[size_t(r)];
        if (call) openRankCall(size_t(r), runResult_->ranks[size_t(r)].result->calls[*call]);
    });
    summaryModel_ = new RowTableModel<const CollectiveSummaryRow*>(summaryColumns(), this);
    callModel_ = new RowTableModel<const CollectiveCall*>(callColumns(), this);
    stepModel_ = new RowTableModel<const StepOverlap*>(stepColumns(), this);
    summary_ = newTable(summaryModel_, 5, Qt::DescendingOrder, QStringLiteral("collectives_summary.csv"), tabs_);
    tabs_->addTab(summary_, tr("By collective and size"));
    calls_ = newTable(callModel_, 0, Qt::AscendingOrder, QStringLiteral("collective_calls.csv"), tabs_);
    tabs_->addTab(calls_, tr("Calls"));
    connect(calls_, &TablePage::sourceRowActivated, this, &CollectivesView::activateCall);
    steps_ = newTable(stepModel_, 0, Qt::AscendingOrder, QStringLiteral("overlap_per_step.csv"), tabs_);
    tabs_->addTab(steps_, tr("Overlap per step"));
    layout->addWidget(tabs_, 1);
    setContent(content);
}

void CollectivesView::setRun(std::shared_ptr<const MultiWorkerRun> run) {
    static uint64_t runs = 0;
    run_ = std::move(run);
    runSerial_ = ++runs;
}

void CollectivesView::setSummaryRun(std::shared_ptr<const SummaryRun> run) {
    static uint64_t runs = 0;
    summaries_ = std::move(run);
    if (summaries_) runSerial_ = ++runs + (uint64_t(1) << 40);  // never the serial of a run of traces
}

void CollectivesView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    if (summaries_) {
        const std::shared_ptr<const SummaryRun> summaries = summaries_;
        run<RunCollectives>(
            estimateAnalysisCost(AnalysisKind::Collectives, *trace),
            {"collectives-run", "summaries=" + std::to_string(runSerial_)},
            [summaries](ResultStore&) { return collectivesOfSummaries(*summaries); },
            [this](std::shared_ptr<const RunCollectives> r) { showRun(r); });
        return;
    }
    if (run_ && run_->loadedCount() > 1) {
        const std::shared_ptr<const MultiWorkerRun> workers = run_;
        run<RunCollectives>(
            estimateAnalysisCost(AnalysisKind::Collectives, *trace),
            {"collectives-run", "run=" + std::to_string(runSerial_)},
            [workers](ResultStore& results) { return runCollectivesOf(*workers, &results.trace()); },
            [this](std::shared_ptr<const RunCollectives> r) { showRun(r); });
        return;
    }
    // The store's own collectives result (the key and computation collectivesOf uses), shared with
    // the SQL table and whoever asked first.
    run<CollectivesResult>(estimateAnalysisCost(AnalysisKind::Collectives, *trace), kCollectivesKey,
                           [](ResultStore& results) { return computeCollectives(*classificationOf(results)); },
                           [this](std::shared_ptr<const CollectivesResult> r) { showResult(r); });
}

void CollectivesView::showRun(const std::shared_ptr<const RunCollectives>& run) {
    runResult_ = run;
    heatmap_->setData(run);
    std::vector<const RankWait*> waits;
    for (const RankWait& w : run->stragglers.ranks) waits.push_back(&w);
    rankModel_->setRows(std::move(waits));
    ranks_->fitColumns(360);
    if (tabs_->indexOf(stragglers_) < 0) tabs_->insertTab(0, stragglers_, tr("Stragglers by collective"));
    tabs_->setCurrentIndex(0);
    {
        const QSignalBlocker block(rank_);
        rank_->clear();
        for (const RankCollectives& r : run->ranks) rank_->addItem(q(r.name));
    }
    rankBar_->setVisible(!run->ranks.empty());
    rank_->setCurrentIndex(0);
    setRankIndex(0);
}

void CollectivesView::setRankIndex(int index) {
    if (!runResult_ || index < 0 || size_t(index) >= runResult_->ranks.size()) return;
    rankIndex_ = size_t(index);
    if (rank_->currentIndex() != index) {
        const QSignalBlocker block(rank_);
        rank_->setCurrentIndex(index);
    }
    showResult(runResult_->ranks[rankIndex_].result);
}

void CollectivesView::showResult(const std::shared_ptr<const CollectivesResult>& r) {
    result_ = r;
    if (!runResult_ && r->calls.empty() && r->overlap.communicationNs == 0) {
        showEmptyResult(tr("No collective communication in this trace: no NCCL kernels, no c10d or gloo "
                           "collectives, no record_param_comms with Kineto's collective metadata."));
        return;
    }
    QStringList lines;
    const int64_t withBw = std::count_if(r->calls.begin(), r->calls.end(),
                                         [](const CollectiveCall& c) { return c.busbwBytesPerS >= 0; });
    TimeNs total = 0;
    for (const CollectiveCall& c : r->calls) total += c.durationNs;
    const QString whose = runResult_ ? q(runResult_->ranks[rankIndex_].name).toHtmlEscaped() + QStringLiteral(": ")
                                     : QString();
    lines << tr("%1<b>%2</b> collective calls, %3 in all; %4 with a size and bus bandwidth.")
                 .arg(whose, formatCount(qint64(r->calls.size())), formatDuration(total), formatCount(withBw));
    if (r->overlap.communicationNs > 0)
        lines << tr("Communication kernels ran %1; compute kernels ran beside them <b>%2</b> of that time "
                    "(HTA's communication/compute overlap), %3 exposed.")
                     .arg(formatDuration(r->overlap.communicationNs), formatPercent(r->overlap.percent()),
                          formatDuration(r->overlap.exposedNs));
    for (const std::string& n : r->notes) lines << QStringLiteral("<i>• %1</i>").arg(q(n).toHtmlEscaped());
    if (runResult_) {
        const StragglerResult& s = runResult_->stragglers;
        QStringList top;
        if (!s.ranks.empty() && s.ranks.front().inducedWaitNs > 0)
            top << tr("<b>%1</b> kept the others waiting longest: %2 over %n collective(s)", nullptr,
                      int(s.ranks.front().lateCount))
                       .arg(q(runResult_->ranks[s.ranks.front().rank].name).toHtmlEscaped(),
                            formatDuration(s.ranks.front().inducedWaitNs));
        lines.prepend(tr("%1 ranks, %2 collectives matched %3. %4")
                          .arg(formatCount(qint64(runResult_->ranks.size())),
                               formatCount(qint64(s.collectives.size())),
                               s.bySeq ? tr("by (group, Seq)") : tr("by order (the n-th call of a kind in a group)"),
                               top.join(QString())));
        for (const std::string& n : s.notes) lines << QStringLiteral("<i>• %1</i>").arg(q(n).toHtmlEscaped());
        lines << (summaries_ ? tr("<i>From the ranks' summaries. The tables below show the rank chosen above. Click a "
                                  "cell of the heat map, or double-click a call, to open that rank's trace.</i>")
                             : tr("<i>The tables below show the rank chosen above. Click a cell of the heat map, or "
                                  "double-click a call, to see it in the timeline.</i>"));
    } else {
        lines << tr("<i>Double-click a call to see it in the timeline. Stragglers across ranks: open the rank files "
                    "together, or tracescope-cli collectives RANK_FILES… or a folder of rank summaries.</i>");
    }
    headline_->setText(lines.join(QStringLiteral("<br>")));
    std::vector<const CollectiveSummaryRow*> summary;
    for (const CollectiveSummaryRow& s : r->summary) summary.push_back(&s);
    summaryModel_->setRows(std::move(summary));
    std::vector<const CollectiveCall*> calls;
    for (const CollectiveCall& c : r->calls) calls.push_back(&c);
    callModel_->setRows(std::move(calls));
    std::vector<const StepOverlap*> steps;
    for (const StepOverlap& s : r->steps) steps.push_back(&s);
    stepModel_->setRows(std::move(steps));
    for (TablePage* t : {summary_, calls_, steps_}) t->fitColumns(360);
}

void CollectivesView::openRankCall(size_t rank, const CollectiveCall& c) {
    // A rank's calls are on its own clock, in its own trace (cut out of the run's view): shown by
    // their time in the run's timeline, on that worker's tracks.
    const RankCollectives& r = runResult_->ranks[rank];
    if (summaries_) {  // the run is its summaries: the rank's own trace holds the call
        const size_t i = runResult_->workers[rank];
        emit openRankTrace(i < summaries_->ranks.size() ? q(summaries_->ranks[i].tracePath) : QString(), q(r.name));
        return;
    }
    const qint64 begin = c.startNs + r.offsetNs;
    emit openInTimeline(q(r.name + ": "), begin, begin + std::max<qint64>(c.durationNs, 1));
}

void CollectivesView::activateCall(int row) {
    if (!result_ || row < 0 || row >= callModel_->rowCount()) return;
    const CollectiveCall& c = *callModel_->row(row);
    if (runResult_) {
        openRankCall(rankIndex_, c);
        return;
    }
    if (!selection_) return;
    std::vector<SliceRef> slices;
    for (SliceRef s : {c.hostOp, c.workerSlice})
        if (s.valid() && std::find(slices.begin(), slices.end(), s) == slices.end()) slices.push_back(s);
    slices.insert(slices.end(), c.kernels.begin(), c.kernels.end());
    if (slices.empty()) return;
    selection_->highlightSlices(std::move(slices), tr("%1: %2").arg(q(c.kind), formatDuration(c.durationNs)));
}

QString CollectivesView::summaryText() const { return headline_->text(); }

void CollectivesView::clearResult() {
    result_.reset();
    runResult_.reset();
    heatmap_->setData({});
    rankModel_->setRows({});
    if (const int i = tabs_->indexOf(stragglers_); i >= 0) tabs_->removeTab(i);
    rankBar_->setVisible(false);
    summaryModel_->setRows({});
    callModel_->setRows({});
    stepModel_->setRows({});
    headline_->clear();
}

}  // namespace tracescope
