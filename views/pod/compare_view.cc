#include "views/pod/compare_view.h"

#include "model/analysis/op_classify.h"
#include "model/results/trace_results.h"
#include "views/name_style.h"
#include "views/step_marker_box.h"
#include "views/step_set_box.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/timeline/timeline_view.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace tracescope {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

using DiffModel = RowTableModel<DiffRow>;

// `basis`: which values; `sayBasis`: the headers name it (the step table, per step only, needs not).
std::vector<DiffModel::Column> diffColumns(const QString& nameHeader, const QString& detailHeader, bool names,
                                           DiffBasis basis, bool sayBasis = true) {
    const bool perStep = basis == DiffBasis::PerStep;
    const QString per = !sayBasis ? QString() : perStep ? QObject::tr(" / step") : QObject::tr(" total");
    const QString how = perStep ? QObject::tr(", per step: the run's total over the steps in its step set")
                                : QObject::tr(", over the whole profile");
    return {
        {{nameHeader, ColumnKind::Text, {}, names}, [](const DiffRow& r) { return QVariant(q(r.name)); }},
        {{detailHeader, ColumnKind::Text, {}}, [](const DiffRow& r) { return QVariant(q(r.detail)); }},
        {{QObject::tr("A") + per, ColumnKind::Duration, QObject::tr("Time in the open trace") + how},
         [perStep](const DiffRow& r) { return QVariant(qint64(perStep ? r.aPerStepNs : r.aNs)); }},
        {{QObject::tr("B") + per, ColumnKind::Duration, QObject::tr("Time in the trace compared with") + how},
         [perStep](const DiffRow& r) { return QVariant(qint64(perStep ? r.bPerStepNs : r.bNs)); }},
        {{QObject::tr("Δ (B − A)") + per, ColumnKind::Duration, QObject::tr("Positive: B is slower (a regression)")},
         [perStep](const DiffRow& r) { return QVariant(qint64(perStep ? r.deltaPerStepNs : r.deltaNs)); }},
        {{QObject::tr("Δ %"), ColumnKind::Percent, QObject::tr("Of A's time; empty when A has none")},
         [perStep](const DiffRow& r) {
             const std::optional<double>& p = perStep ? r.deltaPerStepPercent : r.deltaPercent;
             return p ? QVariant(*p) : QVariant();
         }},
        {{QObject::tr("A occurrences"), ColumnKind::Integer, QObject::tr("In the whole profile")},
         [](const DiffRow& r) { return QVariant(qint64(r.aOccurrences)); }},
        {{QObject::tr("B occurrences"), ColumnKind::Integer, QObject::tr("In the whole profile")},
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
    bar->addSpacing(16);
    // Per step by default: a 3-step profile and a 524-step one compare like for like.
    bar->addWidget(new QLabel(tr("Ops and kernels:"), page));
    perStepButton_ = new QRadioButton(tr("Per step"), page);
    perStepButton_->setToolTip(
        tr("Each run's total divided by the steps in its step set: runs of different lengths compare like for like"));
    totalsButton_ = new QRadioButton(tr("Totals"), page);
    totalsButton_->setToolTip(tr("Each run's total over its whole profile"));
    auto* basisGroup = new QButtonGroup(page);
    basisGroup->addButton(perStepButton_);
    basisGroup->addButton(totalsButton_);
    perStepButton_->setChecked(true);
    connect(perStepButton_, &QRadioButton::toggled, this,
            [this](bool on) { setBasis(on ? DiffBasis::PerStep : DiffBasis::Totals); });
    bar->addWidget(perStepButton_);
    bar->addWidget(totalsButton_);
    bar->addStretch(1);
    layout->addLayout(bar);
    summary_ = new WrappingLabel(page);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    tabs_ = new QTabWidget(page);
    // One model per basis for ops and kernels (the switch swaps them); step rows are per step.
    auto makePage = [this](TablePage*& page, DiffModel** models, const QString& name, const QString& detail, bool names,
                           const QString& title, const QString& csv) {
        const bool stepRows = models == &stepModel_;
        models[0] = new DiffModel(diffColumns(name, detail, names, DiffBasis::PerStep, !stepRows), this);
        if (!stepRows) models[1] = new DiffModel(diffColumns(name, detail, names, DiffBasis::Totals), this);
        page = new TablePage(tabs_);
        page->setSourceModel(models[0], kDeltaColumn, Qt::DescendingOrder);
        page->setFilterColumns({0, 1}, tr("Filter names"));
        page->setExportName(csv);
        page->setElasticColumn(0);
        tabs_->addTab(page, title);
    };
    makePage(steps_, &stepModel_, tr("Step time"), tr("Per"), false, tr("Step time"),
             QStringLiteral("compare_steps.csv"));
    makePage(ops_, opModels_, tr("Op"), tr("Side / type"), true, tr("Ops"), QStringLiteral("compare_ops.csv"));
    makePage(kernels_, kernelModels_, tr("Kernel"), tr("Op"), true, tr("Kernels"),
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
    connect(timelineA_, &TimelineView::viewChanged, this,
            [this] { syncTimelines(timelineA_, timelineB_, alignA_, alignB_); });
    connect(timelineB_, &TimelineView::viewChanged, this,
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
    to->followWindowOf(*from, double(toOrigin) - double(fromOrigin));
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
    timelineA_->setHeaderWidth(std::max(timelineA_->headerWidth(), timelineB_->headerWidth()));
    timelineA_->setVisibleRange(double(alignA_) - pad, double(alignA_ + span) + pad);  // B follows
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
        showMessage(tr("Open a second trace (another run, or the same job before a change) to compare its step "
                       "time, ops and kernels with this one, per step.\n(File › Compare with… does the same.)"),
                    tr("Open…"), [this] { emit openCompareRequested(); });
        // The page shows what it can (how to pick the second trace): ready, as the others say it;
        // not if a second trace came in the meantime (its comparison says when it is ready).
        QTimer::singleShot(0, this, [this, serial = bSerial_] {
            if (!b_ && bSerial_ == serial) emit resultReady();
        });
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
    for (DiffModel* m : {opModels_[0], opModels_[1], kernelModels_[0], kernelModels_[1]}) m->setRows({});
}

void CompareView::setBasis(DiffBasis basis) {
    if (basis_ == basis) return;
    basis_ = basis;
    if (!diff_) return;
    showTables();
    updateSummary();
}

DiffBasis CompareView::shownBasis() const { return diff_ && !diff_->perStep ? DiffBasis::Totals : basis_; }

// The op and kernel tables on the basis shown, the switch saying which (per step is offered only
// when both runs have steps).
void CompareView::showTables() {
    const DiffBasis shown = shownBasis();
    const int i = shown == DiffBasis::PerStep ? 0 : 1;
    const QSignalBlocker blockA(perStepButton_), blockB(totalsButton_);
    (shown == DiffBasis::PerStep ? perStepButton_ : totalsButton_)->setChecked(true);
    const bool perStep = diff_ && diff_->perStep;
    perStepButton_->setEnabled(perStep);
    if (diff_ && !perStep) perStepButton_->setToolTip(q(diff_->perStepDescription));
    ops_->setSourceModel(opModels_[i], kDeltaColumn, Qt::DescendingOrder);
    kernels_->setSourceModel(kernelModels_[i], kDeltaColumn, Qt::DescendingOrder);
    for (TablePage* p : {ops_, kernels_}) p->fitColumns();
}

void CompareView::showResult() {
    const RunDiff& d = *diff_;
    updateSummary();
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
    for (DiffModel* m : opModels_) m->setRows(d.ops);
    for (DiffModel* m : kernelModels_) m->setRows(d.kernels);
    // The step table keeps its fixed order (step time first, then the categories).
    steps_->view()->sortByColumn(-1, Qt::AscendingOrder);
    steps_->fitColumns();
    showTables();
}

void CompareView::updateSummary() {
    const RunDiff& d = *diff_;
    const DiffBasis shown = shownBasis();
    const bool perStep = shown == DiffBasis::PerStep;
    const DiffRow& step = d.steps.front();
    QString stepText;
    if (d.aSteps && d.bSteps)
        stepText =
            tr("average step %1 → %2 (<b>%3%4</b>%5)")
                .arg(formatDuration(step.aNs), formatDuration(step.bNs), step.deltaNs >= 0 ? "+" : "−",
                     formatDuration(std::abs(step.deltaNs)),
                     step.deltaPercent ? QStringLiteral(", %1").arg(formatPercent(*step.deltaPercent)) : QString());
    const auto steps = [](size_t n) { return n == 1 ? tr("1 step") : tr("%1 steps").arg(n); };
    QStringList lines;
    QStringList head{tr("A: the open trace (%1)").arg(steps(d.aSteps)),
                     tr("B: %1 (%2)").arg(bName_.toHtmlEscaped(), steps(d.bSteps))};
    if (!stepText.isEmpty()) head << stepText;
    head << tr("ops: %1 new, %2 vanished").arg(d.newOps).arg(d.vanishedOps)
         << tr("kernels: %1 new, %2 vanished").arg(d.newKernels).arg(d.vanishedKernels);
    lines << head.join(QStringLiteral(" · "));
    // How the tables' values are made; differing step counts are named either way.
    if (perStep || !d.perStep) lines << q(d.perStepDescription).toHtmlEscaped();
    else if (d.aSteps != d.bSteps)
        lines << tr("Totals over the whole profiles, which have different step counts (A %1, B %2): "
                    "Per step compares them like for like")
                     .arg(d.aSteps)
                     .arg(d.bSteps);
    else lines << tr("Totals over the whole profiles (A and B have %1 each)").arg(steps(d.aSteps));
    if (d.aSteps && d.bSteps)
        lines << tr("Averages over A: %1; B: %2").arg(q(d.aStepSet).toHtmlEscaped(), q(d.bStepSet).toHtmlEscaped());
    // The largest regression among ops and kernels, named up front, on the basis shown.
    for (const auto& [rows, what] : {std::pair{&d.kernels, tr("kernel")}, std::pair{&d.ops, tr("op")}})
        if (const DiffRow* top = largestRegression(*rows, shown)) {
            const TimeNs delta = perStep ? top->deltaPerStepNs : top->deltaNs;
            const std::optional<double>& percent = perStep ? top->deltaPerStepPercent : top->deltaPercent;
            lines << tr("Largest %1 regression%2: <b>%3</b> +%4%5")
                         .arg(what, perStep ? tr(" per step") : tr(" in total"),
                              q(NameStyleSetting::instance().shortNames() ? shortName(top->name) : top->name)
                                  .left(120)
                                  .toHtmlEscaped(),
                              formatDuration(delta),
                              percent ? QStringLiteral(" (%1)").arg(formatPercent(*percent)) : QString());
        }
    lines << tr("Rows sorted by Δ, the largest regression first");
    summary_->setText(lines.join(QStringLiteral("<br>")));
}

}  // namespace tracescope
