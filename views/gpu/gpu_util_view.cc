#include "views/gpu/gpu_util_view.h"

#include "model/analysis/analysis_cost.h"
#include "model/results/critical_path_results.h"
#include "model/results/cuda_api_results.h"
#include "model/results/gpu_advice_results.h"
#include "model/results/gpu_util_results.h"
#include "model/results/launch_queue_results.h"
#include "model/results/trace_results.h"
#include "views/trace_selection.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/wrapping_label.h"

#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace tracescope {

namespace {

using StreamItem = GpuUtilView::StreamItem;
using DistributionItem = GpuUtilView::DistributionItem;
using FindingItem = GpuUtilView::FindingItem;
using OutlierItem = GpuUtilView::OutlierItem;

QString q(const std::string& s) { return QString::fromStdString(s); }
QVariant ns(int64_t v) { return QVariant(qint64(v)); }
QString gpuName(const GpuUtilization& g) {
    return g.device >= 0 ? QObject::tr("GPU %1").arg(g.device) : QObject::tr("GPU (index not recorded)");
}

template <typename Row>
using Columns = std::vector<typename RowTableModel<Row>::Column>;

Columns<const GpuUtilization*> gpuColumns() {
    using G = const GpuUtilization*;
    auto pct = [](G g, TimeNs part) { return QVariant(g->percentOfWindow(part)); };
    return {
        {{QObject::tr("GPU"), ColumnKind::Text}, [](G g) { return QVariant(gpuName(*g)); }},
        {{QObject::tr("Active window"), ColumnKind::Duration,
          QObject::tr(
              "From the start of the GPU's first kernel, copy or memset to the end of its last (HTA's kernel_time)")},
         [](G g) { return ns(g->activeNs()); }},
        {{QObject::tr("Compute"), ColumnKind::Percent, QObject::tr("Union of its compute kernels, % of the window")},
         [pct](G g) { return pct(g, g->computeNs); }},
        {{QObject::tr("Non-compute"), ColumnKind::Percent,
          QObject::tr("Copies, memsets and communication kernels, % of the window")},
         [pct](G g) { return pct(g, g->nonComputeNs); }},
        {{QObject::tr("Idle"), ColumnKind::Percent, QObject::tr("Nothing ran on the GPU, % of the window")},
         [pct](G g) { return pct(g, g->idleNs); }},
        {{QObject::tr("Idle time"), ColumnKind::Duration}, [](G g) { return ns(g->idleNs); }},
        {{QObject::tr("Host wait"), ColumnKind::Duration,
          QObject::tr("Stream gaps whose next launch call began after the stream's work ended: the GPU waited on "
                      "the CPU (sum over streams)")},
         [](G g) { return ns(g->idle.of(IdleCause::HostWait)); }},
        {{QObject::tr("Kernel wait"), ColumnKind::Duration,
          QObject::tr("Gaps shorter than HTA's 30 µs between launched work: launch overhead (sum over streams)")},
         [](G g) { return ns(g->idle.of(IdleCause::KernelWait)); }},
        {{QObject::tr("Other"), ColumnKind::Duration,
          QObject::tr("Other gaps, e.g. waiting on an event or on work whose launch is not in the trace")},
         [](G g) { return ns(g->idle.of(IdleCause::Other)); }},
        {{QObject::tr("Kernels"), ColumnKind::Integer}, [](G g) { return QVariant(qint64(g->kernels)); }},
    };
}

QString stepsText(uint64_t steps) {
    return steps == 1 ? QObject::tr("in 1 step") : QObject::tr("in %1 steps").arg(formatCount(qint64(steps)));
}

QString ruleLabel(AdviceRule rule) {
    switch (rule) {
    case AdviceRule::GpuGap: return QObject::tr("GPU gap");
    case AdviceRule::SyncInStep: return QObject::tr("Blocking call in a step");
    case AdviceRule::PageableCopy: return QObject::tr("Pageable copy");
    case AdviceRule::ShortKernel: return QObject::tr("Kernel shorter than its launch");
    case AdviceRule::StarvedQueue: return QObject::tr("Starved launch queue");
    }
    return {};
}

Columns<FindingItem> findingColumns() {
    using F = const FindingItem&;
    return {
        {{QObject::tr("Finding"), ColumnKind::Text}, [](F f) { return QVariant(ruleLabel(f.finding->rule)); }},
        {{QObject::tr("What"), ColumnKind::Text,
          QObject::tr("The work after a gap, the op and call, the copy, the kernel, the stream")},
         [](F f) { return QVariant(q(f.finding->what)); }},
        {{QObject::tr("Worth"), ColumnKind::Duration,
          QObject::tr("A gap's length; the blocking calls', copies' or starved time; the launch calls' time "
                      "beyond their kernels'")},
         [](F f) { return ns(f.finding->costNs); }},
        {{QObject::tr("Count"), ColumnKind::Integer}, [](F f) { return QVariant(qint64(f.finding->occurrences)); }},
        {{QObject::tr("Step"), ColumnKind::Integer},
         [](F f) { return f.finding->step >= 0 ? QVariant(qint64(f.finding->step)) : QVariant(); }},
        {{QObject::tr("Details"), ColumnKind::Text}, [](F f) { return QVariant(f.details); }},
    };
}

Columns<StreamItem> streamColumns() {
    using S = const StreamItem&;
    return {
        {{QObject::tr("GPU"), ColumnKind::Text}, [](S s) { return QVariant(gpuName(*s.gpu)); }},
        {{QObject::tr("Stream"), ColumnKind::Integer}, [](S s) { return QVariant(qint64(s.stream->stream)); }},
        {{QObject::tr("Activities"), ColumnKind::Integer}, [](S s) { return QVariant(qint64(s.stream->activities)); }},
        {{QObject::tr("Host wait"), ColumnKind::Duration},
         [](S s) { return ns(s.stream->idle.of(IdleCause::HostWait)); }},
        {{QObject::tr("Kernel wait"), ColumnKind::Duration},
         [](S s) { return ns(s.stream->idle.of(IdleCause::KernelWait)); }},
        {{QObject::tr("Other"), ColumnKind::Duration}, [](S s) { return ns(s.stream->idle.of(IdleCause::Other)); }},
        {{QObject::tr("Gaps"), ColumnKind::Integer}, [](S s) { return QVariant(qint64(s.stream->gaps.size())); }},
        {{QObject::tr("Mean queue"), ColumnKind::Real,
          QObject::tr("Launches waiting on the stream, averaged over time (HTA's queue length)")},
         [](S s) { return s.queue ? QVariant(s.queue->timeWeightedMean) : QVariant(); }},
        {{QObject::tr("Max queue"), ColumnKind::Integer},
         [](S s) { return s.queue ? QVariant(qint64(s.queue->max)) : QVariant(); }},
        {{QObject::tr("At limit"), ColumnKind::Duration,
          QObject::tr("Time with CUDA's 1024-entry launch queue full: the CPU blocked on launches")},
         [](S s) { return s.queue ? ns(s.queue->timeAtLimitNs) : QVariant(); }},
    };
}

// A histogram in one line of text: the power-of-two bins from the first to the last that holds
// a value, each a block character as high as its count is to the largest, between the range's
// edges ("1.00 µs ▂▅█▃▁ 64.0 µs").
QString histogramText(const LaunchDistribution& d) {
    static const QChar kBlocks[] = {u'▁', u'▂', u'▃', u'▄', u'▅', u'▆', u'▇', u'█'};
    const std::vector<uint64_t>& bins = d.log2Bins;
    size_t first = bins.size(), last = 0;
    uint64_t most = 0;
    for (size_t k = 0; k < bins.size(); ++k)
        if (bins[k]) first = std::min(first, k), last = k, most = std::max(most, bins[k]);
    if (!most) return {};
    QString bars;
    for (size_t k = first; k <= last; ++k)
        bars += bins[k] ? kBlocks[std::min<uint64_t>(7, (bins[k] * 8 - 1) / most)] : QChar(u' ');
    const int64_t low = first == 0 ? 0 : int64_t(1) << (first - 1), high = int64_t(1) << std::min<size_t>(last, 62);
    return QStringLiteral("%1 %2 %3").arg(formatDuration(low), bars, formatDuration(high));
}

QString outlierKinds(uint8_t bits) {
    QStringList kinds;
    if (bits & kShortKernel) kinds << QObject::tr("short kernel");
    if (bits & kLongRuntime) kinds << QObject::tr("long launch call");
    if (bits & kLongLaunchDelay) kinds << QObject::tr("long launch delay");
    return kinds.join(QStringLiteral(", "));
}

// Each distinct name made into a QString once: a few names repeat over many launches.
std::vector<OutlierItem> outlierItems(const LaunchStats& launches, const ClassifiedTrace& classified) {
    std::unordered_map<std::string_view, QString> names;
    auto name = [&](SliceRef s) -> const QString& {
        const std::string_view text = fullNameView(classified, s);
        auto it = names.find(text);
        if (it == names.end()) it = names.emplace(text, QString::fromUtf8(text.data(), qsizetype(text.size()))).first;
        return it->second;
    };
    std::vector<OutlierItem> out;
    for (const LaunchRow& r : launches.rows)
        if (r.outliers) out.push_back({&r, name(r.call), name(r.activity)});
    // In the table's first order (kOutlierSortColumn, longest first; ties in launch order, as a
    // stable sort of the view would leave them): 150,000 rows are not sorted on the UI thread.
    std::stable_sort(out.begin(), out.end(),
                     [](const OutlierItem& a, const OutlierItem& b) { return a.row->cpuDurationNs > b.row->cpuDurationNs; });
    return out;
}

constexpr int kOutlierSortColumn = 3;  // Call (CPU)

Columns<OutlierItem> outlierColumns() {
    using O = const OutlierItem&;
    return {
        {{QObject::tr("Outlier"), ColumnKind::Text,
          QObject::tr("HTA's kinds: a kernel shorter than its launch call (call within 50 µs), a launch call over 50 "
                      "µs, a launch delay over 100 µs. Double-click: the call and its work in the timeline")},
         [](O o) { return QVariant(outlierKinds(o.row->outliers)); }},
        {{QObject::tr("Launch call"), ColumnKind::Text}, [](O o) { return QVariant(o.call); }},
        {{QObject::tr("Kernel, copy or memset"), ColumnKind::Text}, [](O o) { return QVariant(o.activity); }},
        {{QObject::tr("Call (CPU)"), ColumnKind::Duration}, [](O o) { return ns(o.row->cpuDurationNs); }},
        {{QObject::tr("Work (GPU)"), ColumnKind::Duration}, [](O o) { return ns(o.row->gpuDurationNs); }},
        {{QObject::tr("Launch delay"), ColumnKind::Duration}, [](O o) { return ns(o.row->launchDelayNs); }},
    };
}

Columns<DistributionItem> distributionColumns() {
    using D = const DistributionItem&;
    return {
        {{QObject::tr("Per launch"), ColumnKind::Text}, [](D d) { return QVariant(d.what); }},
        {{QObject::tr("Mean"), ColumnKind::Duration}, [](D d) { return ns(d.d->stats.mean); }},
        {{QObject::tr("Median"), ColumnKind::Duration}, [](D d) { return ns(d.d->stats.median); }},
        {{QObject::tr("p95"), ColumnKind::Duration}, [](D d) { return ns(d.d->p95); }},
        {{QObject::tr("Min"), ColumnKind::Duration}, [](D d) { return ns(d.d->stats.min); }},
        {{QObject::tr("Max"), ColumnKind::Duration}, [](D d) { return ns(d.d->stats.max); }},
        {{QObject::tr("Total"), ColumnKind::Duration}, [](D d) { return ns(d.d->stats.total); }},
        {{QObject::tr("Histogram"), ColumnKind::Text,
          QObject::tr("Counts in power-of-two bins, [2^(k-1), 2^k) ns, from the shortest value's bin to the "
                      "longest's; each block as high as its count is to the largest")},
         [](D d) { return QVariant(histogramText(*d.d)); }},
    };
}

Columns<const DurationRow*> apiColumns() {
    using R = const DurationRow*;
    return {
        {{QObject::tr("CUDA API"), ColumnKind::Text}, [](R r) { return QVariant(q(r->name)); }},
        {{QObject::tr("Calls"), ColumnKind::Integer}, [](R r) { return QVariant(qint64(r->time.count)); }},
        {{QObject::tr("Time %"), ColumnKind::Percent}, [](R r) { return QVariant(r->timePercent); }},
        {{QObject::tr("Total"), ColumnKind::Duration}, [](R r) { return ns(r->time.total); }},
        {{QObject::tr("Mean"), ColumnKind::Duration}, [](R r) { return ns(r->time.mean); }},
        {{QObject::tr("Median"), ColumnKind::Duration}, [](R r) { return ns(r->time.median); }},
        {{QObject::tr("Min"), ColumnKind::Duration}, [](R r) { return ns(r->time.min); }},
        {{QObject::tr("Max"), ColumnKind::Duration}, [](R r) { return ns(r->time.max); }},
        {{QObject::tr("Std"), ColumnKind::Duration}, [](R r) { return ns(r->time.std); }},
    };
}

Columns<const CopyRow*> copyColumns() {
    using R = const CopyRow*;
    return {
        {{QObject::tr("Copy kind"), ColumnKind::Text}, [](R r) { return QVariant(q(r->kind)); }},
        {{QObject::tr("Count"), ColumnKind::Integer}, [](R r) { return QVariant(qint64(r->time.count)); }},
        {{QObject::tr("Total"), ColumnKind::Duration}, [](R r) { return ns(r->time.total); }},
        {{QObject::tr("Mean"), ColumnKind::Duration}, [](R r) { return ns(r->time.mean); }},
        {{QObject::tr("Bytes"), ColumnKind::Bytes}, [](R r) { return QVariant(qint64(r->bytes.total)); }},
        {{QObject::tr("Bandwidth"), ColumnKind::Text,
          QObject::tr("Total bytes over the total time of the copies that record their size")},
         [](R r) { return r->bytesPerS < 0 ? QVariant() : QVariant(formatBytes(r->bytesPerS) + QObject::tr("/s")); }},
    };
}

Columns<const SyncRow*> syncColumns() {
    using R = const SyncRow*;
    return {
        {{QObject::tr("Synchronisation"), ColumnKind::Text}, [](R r) { return QVariant(q(r->kind)); }},
        {{QObject::tr("API"), ColumnKind::Text}, [](R r) { return QVariant(q(r->api)); }},
        {{QObject::tr("Count"), ColumnKind::Integer}, [](R r) { return QVariant(qint64(r->occurrences)); }},
        {{QObject::tr("Host blocked"), ColumnKind::Duration,
          QObject::tr("The synchronising calls' time: the CPU waited for the GPU (not for Stream Wait Event)")},
         [](R r) { return r->blocksHost ? ns(r->hostBlocked.total) : QVariant(); }},
        {{QObject::tr("Mean"), ColumnKind::Duration}, [](R r) { return ns(r->hostBlocked.mean); }},
        {{QObject::tr("Max"), ColumnKind::Duration}, [](R r) { return ns(r->hostBlocked.max); }},
    };
}

Columns<const CriticalPath*> pathColumns() {
    using P = const CriticalPath*;
    auto cat = [](P p, CpCategory c) { return ns(p->byCategory[size_t(c)]); };
    return {
        {{QObject::tr("Step"), ColumnKind::Integer,
          QObject::tr("Double-click a row: the path's events outlined in the timeline, the rest dimmed (blank: the "
                      "whole trace, which has no steps)")},
         [](P p) { return p->wholeTrace ? QVariant() : QVariant(qint64(p->stepNumber)); }},
        {{QObject::tr("Path length"), ColumnKind::Duration,
          QObject::tr("The longest chain of dependent work in the step (HTA's critical path)")},
         [](P p) { return ns(p->lengthNs); }},
        {{QObject::tr("CPU ops"), ColumnKind::Duration}, [cat](P p) { return cat(p, CpCategory::CpuOp); }},
        {{QObject::tr("Runtime"), ColumnKind::Duration, QObject::tr("CUDA runtime and driver calls on the path")},
         [cat](P p) { return cat(p, CpCategory::Runtime); }},
        {{QObject::tr("Kernels"), ColumnKind::Duration}, [cat](P p) { return cat(p, CpCategory::Kernel); }},
        {{QObject::tr("Copies"), ColumnKind::Duration, QObject::tr("Memcpy and memset on the path")},
         [](P p) {
             return ns(p->byCategory[size_t(CpCategory::Memcpy)] + p->byCategory[size_t(CpCategory::Memset)]);
         }},
        {{QObject::tr("Launch delay"), ColumnKind::Duration}, [cat](P p) { return cat(p, CpCategory::LaunchDelay); }},
        {{QObject::tr("Kernel gaps"), ColumnKind::Duration}, [cat](P p) { return cat(p, CpCategory::KernelGap); }},
        {{QObject::tr("Events"), ColumnKind::Integer}, [](P p) { return QVariant(qint64(p->events.size())); }},
        {{QObject::tr("Most on the path"), ColumnKind::Text},
         [](P p) {
             QStringList top;
             for (size_t i = 0; i < p->topContributors.size() && i < 3; ++i)
                 top << QStringLiteral("%1 %2").arg(q(p->topContributors[i].name),
                                                    formatDuration(p->topContributors[i].ns));
             return QVariant(top.join(QStringLiteral(" · ")));
         }},
    };
}

// A table sorted by `sortColumn` (the most time first for durations).
TablePage* newTable(QAbstractItemModel* model, int sortColumn, const QString& exportName, QWidget* parent) {
    auto* page = new TablePage(parent);
    page->setSourceModel(model, sortColumn, sortColumn == 0 ? Qt::AscendingOrder : Qt::DescendingOrder);
    page->setElasticColumn(0, 160);
    page->setExportName(exportName);
    return page;
}

}  // namespace

GpuUtilView::GpuUtilView(QWidget* parent) : AnalysisView(parent) {
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    summary_ = new WrappingLabel(content);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    tabs_ = new QTabWidget(content);
    adviceModel_ = new RowTableModel<FindingItem>(findingColumns(), this);
    gpuModel_ = new RowTableModel<const GpuUtilization*>(gpuColumns(), this);
    streamModel_ = new RowTableModel<StreamItem>(streamColumns(), this);
    launchModel_ = new RowTableModel<DistributionItem>(distributionColumns(), this);
    outlierModel_ = new RowTableModel<OutlierItem>(outlierColumns(), this);
    apiModel_ = new RowTableModel<const DurationRow*>(apiColumns(), this);
    copyModel_ = new RowTableModel<const CopyRow*>(copyColumns(), this);
    syncModel_ = new RowTableModel<const SyncRow*>(syncColumns(), this);
    pathModel_ = new RowTableModel<const CriticalPath*>(pathColumns(), this);
    // The advice first: its sentences above the findings, costliest first.
    auto* advicePage = new QWidget(tabs_);
    auto* adviceLayout = new QVBoxLayout(advicePage);
    adviceLayout->setContentsMargins(0, 4, 0, 0);
    adviceSummary_ = new WrappingLabel(advicePage);
    adviceSummary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    adviceLayout->addWidget(adviceSummary_);
    advice_ = newTable(adviceModel_, 2, QStringLiteral("advice.csv"), advicePage);
    advice_->setElasticColumn(5, 200);
    advice_->addShrinkableColumn(1, 120);
    adviceLayout->addWidget(advice_, 1);
    tabs_->addTab(advicePage, tr("Advice"));
    connect(advice_, &TablePage::sourceRowActivated, this, &GpuUtilView::activateFinding);
    // The GPUs (a row each) above their streams: the causes of idle time side by side.
    auto* split = new QSplitter(Qt::Vertical, tabs_);
    gpus_ = newTable(gpuModel_, 0, QStringLiteral("gpus.csv"), split);
    streams_ = newTable(streamModel_, 3, QStringLiteral("streams.csv"), split);
    split->addWidget(gpus_);
    split->addWidget(streams_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    tabs_->addTab(split, tr("GPUs and streams"));
    // The distributions (a row each, with a histogram) above HTA's outlier launches.
    auto* launchSplit = new QSplitter(Qt::Vertical, tabs_);
    launches_ = newTable(launchModel_, -1, QStringLiteral("launches.csv"), launchSplit);
    launches_->setElasticColumn(7, 160);
    outliers_ = newTable(nullptr, -1, QStringLiteral("launch_outliers.csv"), launchSplit);
    outliers_->setPresortedSourceModel(outlierModel_, kOutlierSortColumn, Qt::DescendingOrder);
    outliers_->setElasticColumn(2, 160);
    launchSplit->addWidget(launches_);
    launchSplit->addWidget(outliers_);
    launchSplit->setStretchFactor(0, 1);
    launchSplit->setStretchFactor(1, 4);
    tabs_->addTab(launchSplit, tr("Launches"));
    connect(outliers_, &TablePage::sourceRowActivated, this, &GpuUtilView::activateOutlier);
    api_ = newTable(apiModel_, 3, QStringLiteral("cuda_api.csv"), tabs_);
    tabs_->addTab(api_, tr("CUDA API"));
    copies_ = newTable(copyModel_, 2, QStringLiteral("copies.csv"), tabs_);
    tabs_->addTab(copies_, tr("Copies"));
    sync_ = newTable(syncModel_, 3, QStringLiteral("sync.csv"), tabs_);
    tabs_->addTab(sync_, tr("Synchronisation"));
    paths_ = newTable(pathModel_, 0, QStringLiteral("critical_paths.csv"), tabs_);
    paths_->setElasticColumn(9, 200);
    tabs_->addTab(paths_, tr("Critical path"));
    connect(paths_, &TablePage::sourceRowActivated, this, &GpuUtilView::activatePath);
    layout->addWidget(tabs_, 1);
    setContent(content);
}

void GpuUtilView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    run<Computed>(
        estimateAnalysisCost(AnalysisKind::GpuUtilization, *trace), {"gpu-util-page", ""},
        [](ResultStore& results) {
            Computed c;
            analysisStep("GPU idle time by cause", 0, 0.4);
            c.gpus = gpuUtilizationOf(results);
            analysisStep("Kernel launches", 0.4, 0.6);
            c.launches = launchStatsOf(results);
            analysisStep("Queue length per stream", 0.6, 0.8);
            c.queues = queueLengthOf(results);
            analysisStep("CUDA API summaries", 0.8, 0.9);
            c.api = cudaApiSummaryOf(results);
            analysisStep("Advice", 0.9, 0.95);
            c.classified = classificationOf(results);
            c.advice = gpuAdviceOf(results);
            analysisStep("Critical path per step", 0.95, 1);
            c.paths = criticalPathsOf(results);
            c.outliers = outlierItems(*c.launches, *c.classified);
            return c;
        },
        [this](std::shared_ptr<const Computed> c) { showResult(c); });
}

void GpuUtilView::showResult(const std::shared_ptr<const Computed>& c) {
    computed_ = c;
    const GpuUtilizationResult& g = *c->gpus;
    if (g.gpus.empty()) {
        // The analysis says what the trace lacks (CPU-only, or device activity not read as kernels).
        QString why = g.notes.empty() ? tr("no kernels, copies or memsets in this trace") : q(g.notes.front());
        if (!why.isEmpty()) why[0] = why[0].toUpper();
        showEmptyResult(why + QLatin1Char('.'));
        return;
    }
    QStringList lines;
    for (const GpuUtilization& gpu : g.gpus) {
        const TimeNs idle = gpu.idle.total();
        auto causePct = [&](IdleCause cause) {
            return formatPercent(idle > 0 ? 100.0 * double(gpu.idle.of(cause)) / double(idle) : 0.0);
        };
        lines << tr("<b>%1</b>: compute %2, non-compute %3, idle <b>%4</b> of its %5 window; idle streams were "
                    "waiting on the host %6, on launch overhead %7, on other work %8 of their gap time.")
                     .arg(gpuName(gpu), formatPercent(gpu.percentOfWindow(gpu.computeNs)),
                          formatPercent(gpu.percentOfWindow(gpu.nonComputeNs)),
                          formatPercent(gpu.percentOfWindow(gpu.idleNs)), formatDuration(gpu.activeNs()),
                          causePct(IdleCause::HostWait), causePct(IdleCause::KernelWait), causePct(IdleCause::Other));
    }
    const LaunchStats& l = *c->launches;
    if (!l.rows.empty())
        lines << tr("<b>%1</b> launches: launch delay median %2 (p95 %3); outliers as HTA counts them: %4 kernels "
                    "shorter than their launch call, %5 launch calls over %6, %7 launch delays over %8.")
                     .arg(formatCount(qint64(l.rows.size())), formatDuration(l.launchDelay.stats.median),
                          formatDuration(l.launchDelay.p95), formatCount(qint64(l.shortKernels)),
                          formatCount(qint64(l.longRuntime)), formatDuration(l.options.runtimeCutoffNs),
                          formatCount(qint64(l.longLaunchDelay)), formatDuration(l.options.delayCutoffNs));
    QStringList notes;
    for (const auto* list : {&g.notes, &l.notes, &c->queues->notes, &c->api->notes})
        for (const std::string& n : *list) notes << q(n).toHtmlEscaped();
    // What the trace lacks, counted by the analyses: one line each.
    for (const QString& n : notes) lines << QStringLiteral("<i>• %1</i>").arg(n);
    summary_->setText(lines.join(QStringLiteral("<br>")));

    std::vector<const GpuUtilization*> gpuRows;
    std::vector<StreamItem> streamRows;
    for (const GpuUtilization& gpu : g.gpus) {
        gpuRows.push_back(&gpu);
        for (const StreamIdle& s : gpu.streams) {
            const QueueLengthStream* queue = nullptr;
            for (const QueueLengthStream& qs : c->queues->streams)
                if (qs.stream == s.stream && std::find(s.tracks.begin(), s.tracks.end(), qs.track) != s.tracks.end())
                    queue = &qs;
            streamRows.push_back({&gpu, &s, queue});
        }
    }
    gpuModel_->setRows(std::move(gpuRows));
    streamModel_->setRows(std::move(streamRows));
    launchModel_->setRows({{tr("Launch delay"), &l.launchDelay},
                           {tr("Launch call (CPU)"), &l.runtime},
                           {tr("Kernel, copy or memset (GPU)"), &l.kernel}});
    std::vector<const DurationRow*> api;
    for (const DurationRow& r : c->api->api) api.push_back(&r);
    apiModel_->setRows(std::move(api));
    std::vector<const CopyRow*> copies;
    for (const auto* list : {&c->api->memcpy, &c->api->memset})
        for (const CopyRow& r : *list) copies.push_back(&r);
    copyModel_->setRows(std::move(copies));
    std::vector<const SyncRow*> sync;
    for (const SyncRow& r : c->api->sync) sync.push_back(&r);
    syncModel_->setRows(std::move(sync));
    showAdvice(*c);
    outlierModel_->setRows(c->outliers);
    std::vector<const CriticalPath*> paths;
    for (const CriticalPath& p : c->paths->paths) paths.push_back(&p);
    pathModel_->setRows(std::move(paths));
    for (TablePage* t : {advice_, gpus_, streams_, launches_, outliers_, api_, copies_, sync_, paths_})
        t->fitColumns(360);
}

void GpuUtilView::showAdvice(const Computed& c) {
    const GpuAdvice& a = *c.advice;
    auto name = [&](SliceRef s) { return q(std::string(fullNameView(*c.classified, s))); };
    std::vector<FindingItem> rows;
    for (const AdviceFinding& f : a.findings) {
        QStringList details;
        switch (f.rule) {
        case AdviceRule::GpuGap:
            if (f.hostTrack == kNoIndex) {
                details << tr("launch of the next work not in the trace");
                break;
            }
            for (const GapHostSlice& h : f.host) details << tr("%1 %2").arg(name(h.slice), formatDuration(h.selfNs));
            if (f.hostUntracedNs > 0) details << tr("no slice %1").arg(formatDuration(f.hostUntracedNs));
            if (!details.isEmpty()) details.first().prepend(tr("host: "));
            break;
        case AdviceRule::SyncInStep:
            details << stepsText(f.steps);
            break;
        case AdviceRule::StarvedQueue:
            details << tr("GPU %1: queue ≤ 1 for %2 of the step").arg(f.device).arg(formatPercent(100.0 * f.fraction));
            break;
        case AdviceRule::PageableCopy:
        case AdviceRule::ShortKernel:
            if (f.steps) details << stepsText(f.steps);
            break;
        }
        rows.push_back({&f, details.join(QStringLiteral(" · "))});
    }
    adviceModel_->setRows(std::move(rows));
    QStringList lines;
    for (const std::string& s : adviceSentences(*c.classified, a)) lines << QStringLiteral("• ") + q(s).toHtmlEscaped();
    if (lines.isEmpty())
        lines << tr("Nothing found: no GPU gap of %1 or more, no blocking call in a step, no pageable copy, no "
                    "kernel shorter than its launch, no starved launch queue.")
                     .arg(formatDuration(a.options.gapThresholdNs));
    for (const std::string& n : a.notes) lines << QStringLiteral("<i>• %1</i>").arg(q(n).toHtmlEscaped());
    lines << tr("<i>Double-click a finding to see its slices in the timeline.</i>");
    adviceSummary_->setText(lines.join(QStringLiteral("<br>")));
}

void GpuUtilView::activateFinding(int row) {
    if (!computed_ || !selection_ || row < 0 || row >= adviceModel_->rowCount()) return;
    const AdviceFinding& f = *adviceModel_->row(row).finding;
    // A gap shows the host's work first (the timeline zooms to the first slice), then the work after it.
    std::vector<SliceRef> slices;
    for (const GapHostSlice& h : f.host) slices.push_back(h.slice);
    slices.insert(slices.end(), f.slices.begin(), f.slices.end());
    if (slices.empty()) {
        selection_->showSpan(f.start, f.end);
        return;
    }
    selection_->highlightSlices(std::move(slices), ruleLabel(f.rule) + QStringLiteral(": ") + q(f.what));
}

void GpuUtilView::activateOutlier(int row) {
    if (!computed_ || !selection_ || row < 0 || row >= outlierModel_->rowCount()) return;
    const OutlierItem& o = outlierModel_->row(row);
    selection_->highlightSlices({o.row->call, o.row->activity},
                                outlierKinds(o.row->outliers) + QStringLiteral(": ") + o.activity);
}

void GpuUtilView::activatePath(int row) {
    if (!computed_ || !selection_ || row < 0 || row >= pathModel_->rowCount()) return;
    const CriticalPath& p = *pathModel_->row(row);
    if (p.events.empty()) return;
    // The timeline outlines the path's events and dims the rest, zoomed to the first.
    selection_->highlightSlices(p.events, tr("Critical path of %1: %2, %3 events")
                                              .arg(p.wholeTrace ? tr("the trace") : tr("step %1").arg(p.stepNumber),
                                                   formatDuration(p.lengthNs))
                                              .arg(p.events.size()));
}

QString GpuUtilView::adviceText() const { return adviceSummary_->text(); }

QString GpuUtilView::summaryText() const { return summary_->text(); }

void GpuUtilView::clearResult() {
    computed_.reset();
    adviceModel_->setRows({});
    adviceSummary_->clear();
    pathModel_->setRows({});
    gpuModel_->setRows({});
    streamModel_->setRows({});
    launchModel_->setRows({});
    outlierModel_->setRows({});
    apiModel_->setRows({});
    copyModel_->setRows({});
    syncModel_->setRows({});
    summary_->clear();
}

}  // namespace tracescope
