#include "views/pod/compare_view.h"

#include "model/analysis/op_classify.h"
#include "model/results/trace_results.h"
#include "views/name_style.h"
#include "views/step_marker_box.h"
#include "views/step_set_box.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_view.h"
#include "views/trace_selection.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace tracescope {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

using DiffModel = RowTableModel<DiffRow>;

std::vector<DiffModel::Column> diffColumns(const QString& nameHeader, const QString& detailHeader, bool names) {
    return {
        {{nameHeader, ColumnKind::Text, {}, names}, [](const DiffRow& r) { return QVariant(q(r.name)); }},
        {{detailHeader, ColumnKind::Text, {}}, [](const DiffRow& r) { return QVariant(q(r.detail)); }},
        {{QObject::tr("A"), ColumnKind::Duration, QObject::tr("Time in the open trace")},
         [](const DiffRow& r) { return QVariant(qint64(r.aNs)); }},
        {{QObject::tr("B"), ColumnKind::Duration, QObject::tr("Time in the trace compared with")},
         [](const DiffRow& r) { return QVariant(qint64(r.bNs)); }},
        {{QObject::tr("Δ (B − A)"), ColumnKind::Duration, QObject::tr("Positive: B is slower (a regression)")},
         [](const DiffRow& r) { return QVariant(qint64(r.deltaNs)); }},
        {{QObject::tr("Δ %"), ColumnKind::Percent, QObject::tr("Of A's time; empty when A has none")},
         [](const DiffRow& r) { return r.deltaPercent ? QVariant(*r.deltaPercent) : QVariant(); }},
        {{QObject::tr("A occurrences"), ColumnKind::Integer, {}},
         [](const DiffRow& r) { return QVariant(qint64(r.aOccurrences)); }},
        {{QObject::tr("B occurrences"), ColumnKind::Integer, {}},
         [](const DiffRow& r) { return QVariant(qint64(r.bOccurrences)); }},
        {{QObject::tr("Status"), ColumnKind::Text, QObject::tr("new: only in B; vanished: only in A")},
         [](const DiffRow& r) { return QVariant(QString::fromUtf8(diffStatusName(r.status))); }},
    };
}

constexpr int kDeltaColumn = 4;

}  // namespace

CompareView::CompareView(QWidget* parent) : AnalysisView(parent) {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(8, 8, 8, 8);
    // The steps of both runs come from the step marker every step-based page uses.
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Steps from:"), page));
    bar->addWidget(stepMarkerBox());
    bar->addWidget(stepSetBox());
    bar->addStretch(1);
    layout->addLayout(bar);
    summary_ = new QLabel(page);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    tabs_ = new QTabWidget(page);
    auto makePage = [this](TablePage*& page, DiffModel*& model, const QString& name, const QString& detail, bool names,
                           const QString& title, const QString& csv) {
        model = new DiffModel(diffColumns(name, detail, names), this);
        page = new TablePage(tabs_);
        page->setSourceModel(model, kDeltaColumn, Qt::DescendingOrder);
        page->setFilterColumns({0, 1}, tr("Filter names"));
        page->setExportName(csv);
        page->setElasticColumn(0);
        tabs_->addTab(page, title);
    };
    makePage(steps_, stepModel_, tr("Step time"), tr("Per"), false, tr("Step time"),
             QStringLiteral("compare_steps.csv"));
    makePage(ops_, opModel_, tr("Op"), tr("Side / type"), true, tr("Ops"), QStringLiteral("compare_ops.csv"));
    makePage(kernels_, kernelModel_, tr("Kernel"), tr("Op"), true, tr("Kernels"),
             QStringLiteral("compare_kernels.csv"));
    // Timelines: A above B.
    auto* split = new QSplitter(Qt::Vertical, tabs_);
    for (auto [view, label, name] :
         {std::tuple{&timelineA_, &labelA_, tr("A")}, std::tuple{&timelineB_, &labelB_, tr("B")}}) {
        auto* holder = new QWidget(split);
        auto* l = new QVBoxLayout(holder);
        l->setContentsMargins(0, 0, 0, 0);
        *label = new QLabel(holder);
        l->addWidget(*label);
        *view = new TimelineView(holder);
        (*view)->setSelection(new TraceSelection(*view));
        l->addWidget(*view, 1);
    }
    tabs_->addTab(split, tr("Timelines"));
    connect(timelineA_->canvas(), &TimelineCanvas::viewChanged, this,
            [this] { syncTimelines(timelineA_, timelineB_, alignA_, alignB_); });
    connect(timelineB_->canvas(), &TimelineCanvas::viewChanged, this,
            [this] { syncTimelines(timelineB_, timelineA_, alignB_, alignA_); });
    connect(timelineA_, &TimelineView::ready, this, &CompareView::alignTimelines);
    // Shown: the canvases have their real width now.
    connect(tabs_, &QTabWidget::currentChanged, this, [this, split](int) {
        if (tabs_->currentWidget() == split) QTimer::singleShot(0, this, &CompareView::alignTimelines);
    });
    connect(timelineB_, &TimelineView::ready, this, &CompareView::alignTimelines);
    layout->addWidget(tabs_, 1);
    setContent(page);
}

void CompareView::syncTimelines(TimelineView* from, TimelineView* to, TimeNs fromOrigin, TimeNs toOrigin) {
    if (syncing_ || !from->isReady() || !to->isReady()) return;
    syncing_ = true;
    // Same start (relative to each first step) and the same scale, so one time is one x in both.
    const TimeAxis& axis = from->canvas()->controller().axis();
    TimelineController& target = to->canvas()->controller();
    if (target.headerWidth() != from->canvas()->controller().headerWidth())
        to->canvas()->setHeaderWidth(from->canvas()->controller().headerWidth());
    const double begin = axis.begin() - double(fromOrigin) + double(toOrigin);
    to->canvas()->setVisibleRange(begin, begin + axis.nsPerPx() * target.trackAreaWidth(to->canvas()->width()));
    syncing_ = false;
}

// Both runs' first steps start at the left edge, the longer of them fills the width.
void CompareView::alignTimelines() {
    if (!diff_ || !timelineA_->isReady() || !timelineB_->isReady()) return;
    const RunDiff& d = *diff_;
    const TimeNs span =
        std::max(d.aFirstStep ? d.aFirstStep->durationNs : 0, d.bFirstStep ? d.bFirstStep->durationNs : 0);
    if (span <= 0) return;  // no steps: each shows its whole trace
    const double pad = double(span) * 0.03;
    const int header =
        std::max(timelineA_->canvas()->controller().headerWidth(), timelineB_->canvas()->controller().headerWidth());
    timelineA_->canvas()->setHeaderWidth(header);
    timelineA_->canvas()->setVisibleRange(double(alignA_) - pad, double(alignA_ + span) + pad);  // B follows
}

void CompareView::setCompareTrace(std::shared_ptr<const Trace> b, const QString& name) {
    static uint64_t traces = 0;
    b_ = std::move(b);
    bName_ = name;
    bSerial_ = ++traces;
    if (trace()) startAnalysis(trace());
}

QString CompareView::summaryText() const { return summary_->text(); }

void CompareView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    if (!b_) {
        diff_.reset();
        showMessage(
            tr("File › Compare with… opens a second trace (another run, or the same job before a change) "
               "and compares its step time, ops and kernels with this one."));
        // The page shows what it can (how to pick the second trace): ready, as the others say it.
        QTimer::singleShot(0, this, [this] { emit resultReady(); });
        return;
    }
    std::shared_ptr<const Trace> b = b_;
    const StepOptions options = stepOptions();
    struct Data {
        RunDiff diff;
        std::vector<StepMarkerCandidate> candidates;  // offered from A, the open trace
    };
    const TraceCounts countsB = b->counts();
    run<Data>(
        estimateAnalysisCost(
            AnalysisKind::Diff, *trace,
            trace->counts().slices + trace->counts().asyncSlices + countsB.slices + countsB.asyncSlices),
        {"compare-page", stepOptionsKey(options) + " with=" + std::to_string(bSerial_)},
        [b, options](ResultStore& results) {
            Data d;
            analysisStep("Comparing the runs", 0, 0.8);
            const std::shared_ptr<const ClassifiedTrace> ca = classificationOf(results);
            d.diff = diffRuns(*ca, *classificationOf(*ResultStore::of(b)), options);
            analysisStep("Looking for step markers", 0.8, 1);
            d.candidates = stepMarkerCandidates(*ca, 40);
            return d;
        },
        [this](std::shared_ptr<const Data> d) {
            diff_ = std::shared_ptr<const RunDiff>(d, &d->diff);
            stepMarkerBox()->setCandidates(d->candidates);
            showResult();
        });
}

void CompareView::clearResult() {
    diff_.reset();
    timelineA_->setTrace(nullptr);
    timelineB_->setTrace(nullptr);
    shownA_ = shownB_ = nullptr;
    stepModel_->setRows({});
    opModel_->setRows({});
    kernelModel_->setRows({});
}

void CompareView::showResult() {
    const RunDiff& d = *diff_;
    const DiffRow& step = d.steps.front();
    QString stepText;
    if (d.aSteps && d.bSteps)
        stepText =
            tr("average step %1 → %2 (<b>%3%4</b>%5)")
                .arg(formatDuration(step.aNs), formatDuration(step.bNs), step.deltaNs >= 0 ? "+" : "−",
                     formatDuration(std::abs(step.deltaNs)),
                     step.deltaPercent ? QStringLiteral(", %1").arg(formatPercent(*step.deltaPercent)) : QString());
    else stepText = tr("steps: A %1, B %2").arg(d.aSteps).arg(d.bSteps);
    summary_->setText(tr("A: the open trace · B: %1 · %2 · ops: %3 new, %4 vanished · kernels: %5 new, %6 vanished · "
                         "rows sorted by Δ, the largest regression first")
                          .arg(bName_.toHtmlEscaped(), stepText)
                          .arg(d.newOps)
                          .arg(d.vanishedOps)
                          .arg(d.newKernels)
                          .arg(d.vanishedKernels));
    if (d.aSteps && d.bSteps)
        summary_->setText(
            summary_->text() +
            tr("<br>Averages over A: %1; B: %2").arg(q(d.aStepSet).toHtmlEscaped(), q(d.bStepSet).toHtmlEscaped()));
    // The largest regression among ops and kernels, named up front.
    for (const auto& [rows, what] : {std::pair{&d.kernels, tr("kernel")}, std::pair{&d.ops, tr("op")}})
        if (!rows->empty() && rows->front().deltaNs > 0) {
            const DiffRow& top = rows->front();
            summary_->setText(
                summary_->text() +
                tr("<br>Largest %1 regression: <b>%2</b> +%3%4")
                    .arg(what,
                         q(NameStyleSetting::instance().shortNames() ? shortName(top.name) : top.name)
                             .left(120)
                             .toHtmlEscaped(),
                         formatDuration(top.deltaNs),
                         top.deltaPercent ? QStringLiteral(" (%1)").arg(formatPercent(*top.deltaPercent)) : QString()));
        }
    alignA_ = d.aFirstStep ? d.aFirstStep->startNs : 0;
    alignB_ = d.bFirstStep ? d.bFirstStep->startNs : 0;
    labelA_->setText(tr("<b>A</b>: the open trace%1")
                         .arg(d.aFirstStep
                                  ? tr(" — aligned on its first step (%1)").arg(q(d.aFirstStep->name).toHtmlEscaped())
                                  : QString()));
    labelB_->setText(tr("<b>B</b>: %1%2")
                         .arg(bName_.toHtmlEscaped(),
                              d.bFirstStep
                                  ? tr(" — aligned on its first step (%1)").arg(q(d.bFirstStep->name).toHtmlEscaped())
                                  : QString()));
    if (shownA_ != trace().get()) timelineA_->setTrace(trace());  // a new index only for a new trace
    if (shownB_ != b_.get()) timelineB_->setTrace(b_);
    shownA_ = trace().get();
    shownB_ = b_.get();
    alignTimelines();
    stepModel_->setRows(d.steps);
    opModel_->setRows(d.ops);
    kernelModel_->setRows(d.kernels);
    // The step table keeps its fixed order (step time first, then the categories).
    steps_->view()->sortByColumn(-1, Qt::AscendingOrder);
    for (TablePage* p : {steps_, ops_, kernels_}) p->fitColumns();
}

}  // namespace tracescope
