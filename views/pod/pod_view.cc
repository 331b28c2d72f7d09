#include "views/pod/pod_view.h"

#include "model/analysis/op_classify.h"
#include "model/results/trace_results.h"
#include "views/charts/stacked_column_chart.h"
#include "views/charts/step_breakdown_chart.h"
#include "views/partial_trace_note.h"
#include "views/pod/straggler_heatmap.h"
#include "views/step_marker_box.h"
#include "views/step_set_box.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/wrapping_label.h"

#include <QComboBox>
#include <QCursor>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tracescope {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

using OverlapModel = RowTableModel<PodView::OverlapRow>;

std::vector<OverlapModel::Column> overlapColumns() {
    using R = PodView::OverlapRow;
    return {
        {{QObject::tr("#"), ColumnKind::Integer, QObject::tr("Worker order: by rank, then name")},
         [](const R& r) { return QVariant(qint64(r.order)); }},
        {{QObject::tr("Worker"), ColumnKind::Text, {}}, [](const R& r) { return QVariant(r.worker); }},
        {{QObject::tr("Clock offset"), ColumnKind::Duration,
          QObject::tr("Added to this worker's times to put it on the run's clock (Pod › Clock offsets… to change)")},
         [](const R& r) { return QVariant(r.offsetNs); }},
        {{QObject::tr("Aligned by"), ColumnKind::Text, {}}, [](const R& r) { return QVariant(r.clock); }},
        {{QObject::tr("Step time"), ColumnKind::Duration, QObject::tr("The step (or the average step) of this worker")},
         [](const R& r) { return QVariant(r.stepNs); }},
        {{QObject::tr("Communication"), ColumnKind::Duration, QObject::tr("Time any NCCL / collective kernel ran")},
         [](const R& r) { return QVariant(qint64(r.overlap.communicationNs)); }},
        {{QObject::tr("Overlapped"), ColumnKind::Duration,
          QObject::tr("Communication during which a compute kernel also ran (hidden)")},
         [](const R& r) { return QVariant(qint64(r.overlap.overlappedNs)); }},
        {{QObject::tr("Exposed"), ColumnKind::Duration,
          QObject::tr("Communication with no compute kernel beside it: the step waits for it")},
         [](const R& r) { return QVariant(qint64(r.overlap.exposedNs)); }},
        {{QObject::tr("Exposed %"), ColumnKind::Percent,
          QObject::tr("Exposed communication as a share of the step time")},
         [](const R& r) {
             return QVariant(r.stepNs > 0 ? 100.0 * double(r.overlap.exposedNs) / double(r.stepNs) : 0.0);
         }},
    };
}

QGroupBox* box(const QString& title, QWidget* parent) {
    auto* b = new QGroupBox(title, parent);
    return b;
}

}  // namespace

PodView::PodView(QWidget* parent) : AnalysisView(parent) {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addWidget(partialTraceNote());

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Step:"), page));
    step_ = new QComboBox(page);
    step_->setMinimumContentsLength(34);
    step_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    bar->addWidget(step_);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Sort:"), page));
    sort_ = new QComboBox(page);
    sort_->addItems({tr("By worker"), tr("By step time")});
    bar->addWidget(sort_);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Steps from:"), page));
    bar->addWidget(stepMarkerBox());
    bar->addWidget(stepSetBox());
    bar->addSpacing(12);
    auto* offsets = new QPushButton(tr("Clock offsets…"), page);
    offsets->setToolTip(tr("Shift a worker's clock by hand when the files' clocks disagree"));
    connect(offsets, &QPushButton::clicked, this, &PodView::editOffsets);
    offsetsButton_ = offsets;
    bar->addWidget(offsets);
    bar->addStretch(1);
    layout->addLayout(bar);

    summary_ = new WrappingLabel(page);
    summary_->setTextFormat(Qt::RichText);  // its parts are HTML-escaped, with or without a <b> in them
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);

    // The two pictures side by side on top, the workers table across the whole width below: its
    // nine columns need the width more than the charts need the height.
    auto* split = new QSplitter(Qt::Vertical, page);
    auto* upper = new QSplitter(Qt::Horizontal, split);
    QGroupBox* chartBox = box(tr("Step-time breakdown per worker"), upper);
    auto* chartLayout = new QVBoxLayout(chartBox);
    chart_ = new StackedColumnChart(tr("Step time per worker"), chartBox);
    chart_->setCategoryAxisTitle(tr("Worker"));
    chart_->setLegendAlignment(Qt::AlignRight);  // beside the heat map the chart is narrow
    chart_->setMinimumHeight(240);
    chartLayout->addWidget(chart_);
    auto* note = new WrappingLabel(
        tr("Hover a column for its breakdown; click it to open that worker and step in the timeline."), chartBox);
    chartLayout->addWidget(note);

    QGroupBox* heatBox = box(tr("Stragglers: step time per worker and step"), upper);
    auto* heatLayout = new QVBoxLayout(heatBox);
    heatmap_ = new StragglerHeatmap(heatBox);
    heatLayout->addWidget(heatmap_);
    QGroupBox* overlapBox = box(tr("Workers: clock offset, communication vs compute overlap"), split);
    auto* overlapLayout = new QVBoxLayout(overlapBox);
    overlap_ = new OverlapModel(overlapColumns(), this);
    table_ = new TablePage(overlapBox);
    table_->setSourceModel(overlap_, 0, Qt::AscendingOrder);
    table_->setFilterColumns({1}, tr("Filter workers"));
    table_->setExportName(QStringLiteral("pod_overlap.csv"));
    overlapLayout->addWidget(table_);
    upper->setStretchFactor(0, 3);
    upper->setStretchFactor(1, 2);
    upper->setChildrenCollapsible(false);
    upper->setSizes({600, 400});  // proportions: the chart and its legend get the larger part
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);
    setContent(page);

    connect(step_, &QComboBox::currentIndexChanged, this, [this] { refreshStep(); });
    connect(sort_, &QComboBox::currentIndexChanged, this, [this] { refreshStep(); });
    connect(chart_, &StackedColumnChart::columnHovered, this, [this](int column, bool entered) {
        if (!entered || !data_ || column < 0 || size_t(column) >= order_.size()) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(QCursor::pos(), breakdownText(order_[size_t(column)]), chart_);
    });
    connect(chart_, &StackedColumnChart::columnClicked, this, [this](int column) {
        if (data_ && column >= 0 && size_t(column) < order_.size())
            openWorkerStep(order_[size_t(column)], step_->currentIndex() - 1);
    });
    connect(heatmap_, &StragglerHeatmap::cellClicked, this, [this](int w, int s) { openWorkerStep(size_t(w), s); });
}

void PodView::setRun(std::shared_ptr<const MultiWorkerRun> run) {
    static uint64_t runs = 0;
    run_ = std::move(run);
    runSerial_ = ++runs;
}

void PodView::setSummaryRun(std::shared_ptr<const SummaryRun> run) {
    static uint64_t runs = 0;
    summaries_ = std::move(run);
    if (summaries_) runSerial_ = ++runs + (uint64_t(1) << 40);  // never the serial of a run of traces
}

void PodView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    if (summaries_) {
        const std::shared_ptr<const SummaryRun> summaries = summaries_;
        run<Data>(
            estimateAnalysisCost(AnalysisKind::Pod, *trace), {"pod-page", "summaries=" + std::to_string(runSerial_)},
            [summaries](ResultStore&) {
                Data d;
                d.pod = podOfSummaries(*summaries);
                return d;
            },
            [this](std::shared_ptr<const Data> d) {
                data_ = std::move(d);
                showResult();
            });
        return;
    }
    std::shared_ptr<const MultiWorkerRun> workers = run_;
    if (!workers) {  // a single trace: one worker
        auto one = std::make_shared<MultiWorkerRun>();
        WorkerTrace w;
        w.trace = trace;
        w.name = !trace->hosts.empty() && !trace->hosts.front().empty() ? trace->hosts.front() : "worker";
        w.clock = WorkerClock::WallClock;
        one->workers.push_back(std::move(w));
        workers = std::move(one);
    }
    const StepOptions options = stepOptions();
    std::shared_ptr<const Trace> view = trace;  // a run's workers are cut out of its merged view
    // The run's identity: a result computed for another run of the same view is not this one's.
    run<Data>(
        estimateAnalysisCost(AnalysisKind::Pod, *view),
        {"pod-page", stepOptionsKey(options) + " run=" + std::to_string(runSerial_)},
        [workers, options](ResultStore& results) {
            Data d;
            analysisStep("Breaking each worker's steps down", 0, 0.8);
            d.pod = computePod(*workers, options, &results.trace(), [&](const std::shared_ptr<const Trace>& t) {
                return t.get() == &results.trace() ? classificationOf(results) : classificationOf(*ResultStore::of(t));
            });
            analysisStep("Looking for step markers", 0.8, 1);
            d.candidates = stepMarkerCandidates(*classificationOf(results), 40);
            return d;
        },
        [this](std::shared_ptr<const Data> d) {
            data_ = std::move(d);
            showResult();
        });
}

void PodView::clearResult() {
    data_.reset();
    order_.clear();
    overlap_->setRows({});
    heatmap_->setData({});
}

QString PodView::summaryText() const { return summary_->text(); }

void PodView::showResult() {
    const PodResult& pod = data_->pod;
    size_t loaded = 0;
    QStringList failed, clocks, rules, sets;
    for (const PodWorker& w : pod.workers) {
        if (!w.loaded) {
            failed << q(w.name);
            continue;
        }
        ++loaded;
        const QString c = QString::fromUtf8(workerClockName(w.clock));
        if (!clocks.contains(c)) clocks << c;
        const QString r = q(w.stepRule);
        if (!r.isEmpty() && !rules.contains(r)) rules << r;
        const QString set = q(w.stepSet.description);
        if (!set.isEmpty() && !sets.contains(set)) sets << set;
    }
    QStringList parts;
    parts << tr("%n worker(s)", nullptr, int(pod.workers.size()));
    if (summaries_) parts << tr("<b>from their rank summaries</b>: click a worker's column to open its trace");
    if (!failed.isEmpty()) parts << tr("<b>not loaded:</b> %1").arg(failed.join(", ").toHtmlEscaped());
    if (pod.workers.size() > 1) parts << tr("clocks aligned by %1").arg(clocks.join(" / "));
    parts << tr("%n step(s)", nullptr, int(pod.steps.size()));
    parts << tr("steps: %1").arg(rules.join("; ").toHtmlEscaped());
    if (!sets.isEmpty()) parts << tr("averages over: %1").arg(sets.join("; ").toHtmlEscaped());
    for (const auto& n : pod.notes) parts << q(n).toHtmlEscaped();
    summary_->setText(parts.join(QStringLiteral("  ·  ")));
    offsetsButton_->setEnabled(run_ != nullptr && pod.workers.size() > 1);

    const QSignalBlocker block(step_);
    step_->clear();
    step_->addItem(tr("Average step (per worker, over its step set)"));
    for (const PodStep& s : pod.steps) {
        if (s.workerCount > 1)
            step_->addItem(tr("Step %1 — slowest %2, +%3 over median")
                               .arg(s.number)
                               .arg(q(pod.workers[s.slowestWorker].name), formatDuration(s.lagNs)));
        else step_->addItem(tr("Step %1").arg(s.number));
    }
    stepMarkerBox()->setCandidates(data_->candidates);

    HeatmapData h;
    for (const PodWorker& w : pod.workers) h.workers << q(w.name);
    for (const PodStep& s : pod.steps) {
        h.steps << QString::number(s.number);
        h.medians.push_back(s.medianNs);
    }
    for (const PodWorker& w : pod.workers) {
        std::vector<std::optional<qint64>> row;
        for (size_t s = 0; s < pod.steps.size(); ++s) {
            if (s < w.steps.size() && w.steps[s].present) row.push_back(w.steps[s].breakdown.step.durationNs);
            else row.push_back(std::nullopt);
        }
        h.durations.push_back(std::move(row));
    }
    heatmap_->setData(std::move(h));
    refreshStep();
}

void PodView::editOffsets() {
    if (!data_ || !run_) return;
    const PodResult& pod = data_->pod;
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Worker clock offsets"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* note = new WrappingLabel(tr("Milliseconds added to each worker's times to put it on the run's clock. "
                               "Found from the files' wall clocks, or the first step where a file has none."),
                            &dialog);
    layout->addWidget(note);
    auto* scroll = new QScrollArea(&dialog);
    scroll->setWidgetResizable(true);
    auto* inner = new QWidget;
    auto* form = new QFormLayout(inner);
    std::vector<QDoubleSpinBox*> boxes;
    for (const PodWorker& w : pod.workers) {
        auto* spin = new QDoubleSpinBox(inner);
        spin->setDecimals(6);
        spin->setRange(-1e9, 1e9);
        spin->setSuffix(tr(" ms"));
        spin->setValue(double(w.offsetNs) / 1e6);
        spin->setEnabled(w.loaded);
        form->addRow(q(w.name), spin);
        boxes.push_back(spin);
    }
    scroll->setWidget(inner);
    layout->addWidget(scroll, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog.resize(420, 480);
    if (dialog.exec() != QDialog::Accepted) return;
    std::vector<qint64> offsets;
    for (QDoubleSpinBox* b : boxes) offsets.push_back(qint64(std::llround(b->value() * 1e6)));
    emit offsetsEdited(std::move(offsets));
}

void PodView::setStepIndex(int index) { step_->setCurrentIndex(index + 1); }
void PodView::setSortByTime(bool byTime) { sort_->setCurrentIndex(byTime ? 1 : 0); }

void PodView::refreshStep() {
    if (!data_) return;
    const PodResult& pod = data_->pod;
    const int stepIndex = step_->currentIndex() - 1;
    // Per worker: category times of the chosen step, or its average step.
    std::vector<std::array<double, kStepCategoryCount>> ns(pod.workers.size());
    std::vector<double> total(pod.workers.size(), 0);
    std::vector<OverlapRow> rows;
    for (size_t w = 0; w < pod.workers.size(); ++w) {
        const PodWorker& pw = pod.workers[w];
        if (!pw.loaded) continue;
        ns[w].fill(0);
        OverlapRow row;
        row.order = int(w);
        row.worker = q(pw.name);
        row.offsetNs = pw.offsetNs;
        row.clock = QString::fromUtf8(workerClockName(pw.clock));
        if (stepIndex < 0) {  // the worker's average step over its step set (the model's)
            ns[w] = pw.averageNs;
            row.stepNs = qint64(std::llround(pw.stepTimeNs.mean));
            row.overlap = pw.averageOverlap;
        } else if (size_t(stepIndex) < pw.steps.size() && pw.steps[size_t(stepIndex)].present) {
            const WorkerStep& ws = pw.steps[size_t(stepIndex)];
            for (size_t c = 0; c < kStepCategoryCount; ++c) ns[w][c] = double(ws.breakdown.ns[c]);
            row.stepNs = ws.breakdown.step.durationNs;
            row.overlap = ws.overlap;
        }
        total[w] = std::accumulate(ns[w].begin(), ns[w].end(), 0.0);
        rows.push_back(row);
    }
    order_.clear();
    for (size_t w = 0; w < pod.workers.size(); ++w)
        if (pod.workers[w].loaded) order_.push_back(w);
    if (sort_->currentIndex() == 1)
        std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) { return total[a] > total[b]; });
    QStringList categories;
    for (size_t w : order_) categories << q(pod.workers[w].name);
    std::vector<StackedSeries> series;
    for (size_t c = 0; c < kStepCategoryCount; ++c) {
        StackedSeries one{QString::fromUtf8(stepCategoryName(StepCategory(c))), {}, categoryColour(StepCategory(c))};
        for (size_t w : order_) one.values.push_back(ns[w][c] / 1e6);
        series.push_back(std::move(one));
    }
    chart_->setData(categories, series, stepIndex < 0 ? tr("Average step time (ms)") : tr("Step time (ms)"));
    overlap_->setRows(std::move(rows));
    table_->fitColumns();
}

QString PodView::breakdownText(size_t worker) const {
    const PodResult& pod = data_->pod;
    const PodWorker& w = pod.workers[worker];
    const int stepIndex = step_->currentIndex() - 1;
    std::array<double, kStepCategoryCount> ns{};
    double total = 0;
    size_t n = 0;
    for (size_t s = 0; s < w.steps.size(); ++s) {
        if (!w.steps[s].present || (stepIndex >= 0 && int(s) != stepIndex)) continue;
        ++n;
        for (size_t c = 0; c < kStepCategoryCount; ++c) ns[c] += double(w.steps[s].breakdown.ns[c]);
    }
    if (n == 0) return tr("%1: no steps").arg(q(w.name));
    for (double& x : ns) total += (x /= double(n));
    QString text = QStringLiteral("<b>%1</b> — %2 %3<table>")
                       .arg(q(w.name).toHtmlEscaped(),
                            stepIndex < 0 ? tr("average step") : tr("step %1").arg(pod.steps[size_t(stepIndex)].number),
                            formatDuration(qint64(total)));
    for (size_t c = 0; c < kStepCategoryCount; ++c) {
        if (ns[c] <= 0) continue;
        text += QStringLiteral(
                    "<tr><td><span style='color:%1'>■</span> %2</td><td align=right>&nbsp;%3</td>"
                    "<td align=right>&nbsp;%4</td></tr>")
                    .arg(categoryColour(StepCategory(c)).name(), QString::fromUtf8(stepCategoryName(StepCategory(c))),
                         formatDuration(qint64(ns[c])), formatPercent(total > 0 ? 100.0 * ns[c] / total : 0));
    }
    return text + QStringLiteral("</table>");
}

void PodView::openWorkerStep(size_t worker, int stepIndex) {
    const PodResult& pod = data_->pod;
    if (worker >= pod.workers.size()) return;
    const PodWorker& w = pod.workers[worker];
    // "All steps": the worker's first step.
    int s = stepIndex;
    if (s < 0)
        for (size_t k = 0; k < w.steps.size() && s < 0; ++k)
            if (w.steps[k].present) s = int(k);
    if (s < 0 || size_t(s) >= w.steps.size() || !w.steps[size_t(s)].present) return;
    const WorkerStep& ws = w.steps[size_t(s)];
    if (summaries_) {  // the run is its summaries: the rank's own trace holds the step
        emit openRankTrace(worker < summaries_->ranks.size() ? q(summaries_->ranks[worker].tracePath) : QString(),
                           q(w.name));
        return;
    }
    // A single trace (no run) has no worker prefix in its process names.
    const QString prefix = run_ ? q(w.name + ": ") : QString();
    emit openInTimeline(prefix, ws.runStartNs, ws.runStartNs + ws.breakdown.step.durationNs);
}

}  // namespace tracescope
