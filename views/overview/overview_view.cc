#include "views/overview/overview_view.h"

#include "model/results/gpu_advice_results.h"
#include "model/results/trace_results.h"
#include "views/charts/stacked_column_chart.h"
#include "views/charts/step_breakdown_chart.h"
#include "views/partial_trace_note.h"
#include "views/step_marker_box.h"
#include "views/step_set_box.h"
#include "views/tables/value_format.h"
#include "views/wrapping_label.h"

#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableView>
#include <QVBoxLayout>

namespace tracescope {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

void clearForm(QFormLayout* form) {
    while (form->rowCount() > 0) form->removeRow(0);
}

QLabel* valueLabel(const QString& text) {
    auto* l = new WrappingLabel(text);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

QGroupBox* box(const QString& title, QWidget* parent) {
    auto* b = new QGroupBox(title, parent);
    QFont f = b->font();
    f.setBold(true);
    b->setFont(f);
    return b;
}

// Children of a bold group box keep the normal weight.
void plainFont(QWidget* w) {
    QFont f = w->font();
    f.setBold(false);
    w->setFont(f);
}

QString verdictText(InputBound b) {
    switch (b) {
    case InputBound::Highly: return QObject::tr("HIGHLY input-bound");
    case InputBound::Moderately: return QObject::tr("MODERATELY input-bound");
    case InputBound::Potentially: return QObject::tr("POTENTIALLY input-bound");
    case InputBound::NotInputBound: return QObject::tr("NOT input-bound");
    case InputBound::Unknown: break;
    }
    return QObject::tr("unknown (no steps)");
}

using TopModel = RowTableModel<TopOp>;

std::vector<TopModel::Column> topColumns() {
    return {
        {{QObject::tr("Operation"), ColumnKind::Text, {}, true}, [](const TopOp& o) { return QVariant(q(o.name)); }},
        {{QObject::tr("Type"), ColumnKind::Text, {}}, [](const TopOp& o) { return QVariant(q(o.type)); }},
        {{QObject::tr("Self time"), ColumnKind::Duration, {}},
         [](const TopOp& o) { return QVariant(qint64(o.selfNs)); }},
        {{QObject::tr("Device self %"), ColumnKind::Percent, QObject::tr("Share of device self time (idle excluded)")},
         [](const TopOp& o) { return QVariant(o.percent); }},
    };
}

}  // namespace

OverviewView::OverviewView(QWidget* parent) : AnalysisView(parent) {
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* page = new QWidget;
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(8, 8, 8, 8);
    pageLayout->addWidget(partialTraceNote());  // above the performance summary
    auto* markerBar = new QHBoxLayout;
    markerBar->addWidget(new QLabel(tr("Steps from:"), page));
    markerBar->addWidget(stepMarkerBox());
    markerBar->addWidget(stepSetBox());
    markerBar->addStretch(1);
    pageLayout->addLayout(markerBar);
    auto* grid = new QGridLayout;
    pageLayout->addLayout(grid, 1);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(12);

    QGroupBox* summaryBox = box(tr("Performance summary"), page);
    summary_ = new QFormLayout(summaryBox);
    summary_->setLabelAlignment(Qt::AlignLeft);
    summary_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    grid->addWidget(summaryBox, 0, 0);

    QGroupBox* envBox = box(tr("Run environment"), page);
    environment_ = new QFormLayout(envBox);
    environment_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    grid->addWidget(envBox, 0, 1);

    QGroupBox* chartBox = box(tr("Step-time graph"), page);
    chartBox_ = chartBox;
    auto* chartLayout = new QVBoxLayout(chartBox);
    chart_ = new StackedColumnChart(tr("Step time breakdown per step"), chartBox);
    chart_->setMinimumHeight(280);
    // The chart takes the height the page has, not its own preferred (tall) size: the page
    // lays out for its width (wrapped labels), and a tall preference would push the chart's
    // axis and legend below a 1280x800 window.
    chart_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    // Nine category names do not fit in one row under a half-width chart at 1280 px (they were
    // elided to "Device co..."): a column on the right shows each name whole.
    chart_->setLegendAlignment(Qt::AlignRight);
    chartNote_ = new WrappingLabel(chartBox);
    plainFont(chartNote_);
    chartLayout->addWidget(chartNote_);
    chartLayout->addWidget(chart_, 1);
    grid->addWidget(chartBox, 1, 0, 2, 1);  // left, beside the top ops and recommendations

    QGroupBox* topBox = box(tr("Top 10 device ops by self time"), page);
    auto* topLayout = new QVBoxLayout(topBox);
    topOps_ = new TopModel(topColumns(), this);
    topOpsView_ = new QTableView(topBox);
    topOpsView_->setModel(topOps_);
    topOpsView_->verticalHeader()->setVisible(false);
    topOpsView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    topOpsView_->setTextElideMode(Qt::ElideRight);
    topOpsView_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    // Ten compact rows and the header, without a scroll bar.
    const int rowHeight = topOpsView_->fontMetrics().height() + 6;
    topOpsView_->verticalHeader()->setDefaultSectionSize(rowHeight);
    topOpsView_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);  // as tall as its (<= 10) rows
    topOpsView_->setMinimumHeight(rowHeight * 3);
    plainFont(topOpsView_);
    topLayout->addWidget(topOpsView_);
    noDeviceOps_ = new WrappingLabel(
        tr("No device activity in this trace (CPU-only run, or the device was not profiled)."), topBox);
    plainFont(noDeviceOps_);
    topLayout->addWidget(noDeviceOps_);
    topLayout->addStretch(1);
    topBox_ = topBox;
    grid->addWidget(topBox, 1, 1);

    QGroupBox* recBox = box(tr("Recommendations"), page);
    auto* recLayout = new QVBoxLayout(recBox);
    recommendations_ = new WrappingLabel(recBox);
    recommendations_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    recommendations_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    plainFont(recommendations_);
    recLayout->addWidget(recommendations_, 1);
    grid->addWidget(recBox, 2, 1);

    grid->setColumnStretch(0, 3);
    grid->setColumnStretch(1, 2);
    grid->setRowStretch(2, 1);
    grid_ = grid;
    scroll->setWidget(page);
    setContent(scroll);
}

void OverviewView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    const StepOptions options = stepOptions();
    run<Computed>(
        estimateAnalysisCost(AnalysisKind::Overview, *trace), {"overview-page", stepOptionsKey(options)},
        [options](ResultStore& results) {
            analysisStep("Classifying slices", 0, 0.15);
            const std::shared_ptr<const ClassifiedTrace> ct = classificationOf(results);
            analysisStep("Finding steps and summing them", 0.15, 0.85);
            Overview overview = computeOverview(*ct, options);
            analysisStep("Looking for step markers", 0.85, 0.9);
            std::vector<StepMarkerCandidate> candidates = stepMarkerCandidates(*ct, 40);
            // The GPU advice (shared with the GPU Utilization page) joins the recommendations.
            analysisStep("GPU advice", 0.9, 1);
            std::vector<std::string> advice = adviceSentences(*ct, *gpuAdviceOf(results));
            return Computed{std::move(overview), std::move(candidates), std::move(advice)};
        },
        [this](std::shared_ptr<const Computed> c) {
            overview_ = std::move(c);
            stepMarkerBox()->setCandidates(overview_->markerCandidates);
            showResult(overview_->overview);
        });
}

void OverviewView::clearResult() {
    overview_.reset();
    clearForm(summary_);
    clearForm(environment_);
    topOps_->setRows({});
    recommendations_->clear();
    chart_->setData({}, {}, {});
}

QString OverviewView::summaryField(const QString& label) const {
    for (QFormLayout* form : {summary_, environment_})
        for (int r = 0; r < form->rowCount(); ++r) {
            auto* l = qobject_cast<QLabel*>(
                form->itemAt(r, QFormLayout::LabelRole) ? form->itemAt(r, QFormLayout::LabelRole)->widget() : nullptr);
            auto* v = qobject_cast<QLabel*>(
                form->itemAt(r, QFormLayout::FieldRole) ? form->itemAt(r, QFormLayout::FieldRole)->widget() : nullptr);
            if (l && v && l->text() == label) return v->text();
        }
    return {};
}

void OverviewView::showResult(const Overview& o) {
    clearForm(summary_);
    auto add = [](QFormLayout* form, const QString& label, const QString& value) {
        auto* l = new QLabel(label);
        plainFont(l);
        QLabel* v = valueLabel(value);
        plainFont(v);
        form->addRow(l, v);
    };
    const StepsResult& steps = o.steps;
    const bool haveSteps = !steps.steps.empty();
    add(summary_, tr("Steps"),
        haveSteps ? (q(stepSourceName(steps.source)).startsWith(QLatin1String("inferred")) ? tr("%1 (%2)")
                                                                                           : tr("%1 (from %2)"))
                        .arg(formatCount(qint64(steps.steps.size())), q(stepSourceName(steps.source)))
                  : tr("No step marker observed"));
    // How the steps were found (or why none were), whichever rule it was.
    if (!steps.rule.empty()) add(summary_, tr("Step rule"), q(steps.rule));
    if (haveSteps) {
        // Every average and percentage below is over the step set, which says which steps and why.
        add(summary_, tr("Averaged over"), q(o.stepSet.description));
        const Distribution& d = o.stepTimeNs;
        add(summary_, tr("Average step time"),
            tr("%1  (σ %2, min %3, max %4)")
                .arg(formatDuration(qint64(o.averageStepNs)), formatDuration(qint64(d.stddev)),
                     formatDuration(qint64(d.min)), formatDuration(qint64(d.max))));
        add(summary_, tr("Input"),
            tr("%1 of step time: %2").arg(formatPercent(o.inputPercent), verdictText(o.inputBound)));
        add(summary_, tr("Kernel launch"), formatPercent(o.kernelLaunchPercent) + tr(" of step time"));
        add(summary_, tr("Output"), formatPercent(o.outputPercent) + tr(" of step time"));
        add(summary_, tr("All other time"), formatPercent(o.otherPercent) + tr(" of step time"));
    }
    add(summary_, tr("Op placement"),
        tr("Host %1 · Device %2 of op self time")
            .arg(formatPercent(o.hostOpPercent), formatPercent(o.deviceOpPercent)));
    if (o.compute16Percent + o.compute32Percent > 0)
        add(summary_, tr("Device compute precision"),
            tr("16-bit %1 · 32-bit %2").arg(formatPercent(o.compute16Percent), formatPercent(o.compute32Percent)));
    else add(summary_, tr("Device compute precision"), tr("no device compute"));

    clearForm(environment_);
    const RunEnvironment& env = o.environment;
    add(environment_, tr("Hosts"), q(hostsText(env)));
    add(environment_, tr("Device type"), q(env.deviceType));
    add(environment_, tr("Devices"), QString::number(env.deviceCount));
    for (const DeviceInfo& dev : env.devices) {
        QStringList props;
        for (const auto& [k, v] : dev.properties) props << QStringLiteral("%1: %2").arg(q(k), q(v));
        // The first few properties inline (name, capability...), all of them in the tooltip.
        const int kInline = 4;
        QString text =
            props.isEmpty() ? tr("(no properties recorded)") : props.mid(0, kInline).join(QStringLiteral("; "));
        if (props.size() > kInline) text += tr("; … (%1 more)").arg(props.size() - kInline);
        if (!dev.host.empty()) text = tr("on %1 — ").arg(q(dev.host)) + text;
        add(environment_, q(dev.name), text);
        if (auto* field = qobject_cast<QLabel*>(
                environment_->itemAt(environment_->rowCount() - 1, QFormLayout::FieldRole)->widget()))
            field->setToolTip(props.join(QLatin1Char('\n')));
    }

    // Without steps there is nothing to chart: the recommendations say why and how to add them.
    chartBox_->setVisible(haveSteps);
    // Without the chart the top ops take its place on the left.
    grid_->removeWidget(topBox_);
    if (haveSteps) grid_->addWidget(topBox_, 1, 1);
    else grid_->addWidget(topBox_, 1, 0, 2, 1);
    if (haveSteps) {
        QString note = tr("%1 steps; each column splits one step's time by what the host and devices were doing "
                          "(overlaps resolved by priority). The averages are over %2.")
                           .arg(o.breakdown.size())
                           .arg(q(o.stepSet.description));
        if (o.stepSet.count < o.breakdown.size()) note += tr(" A step number in parentheses is listed, not averaged.");
        chartNote_->setText(note);
        showStepBreakdown(chart_, o.breakdown, &o.stepSet);
    } else {
        chartNote_->setText(
            tr("No step marker observed, so no per-step breakdown. Annotate steps (e.g. "
               "tf.profiler.experimental.Trace('train', step_num=...), "
               "torch.profiler.profile with schedule / ProfilerStep) to get one."));
        chart_->setData({}, {}, tr("Step time (ms)"));
    }

    topOps_->setRows(o.topDeviceOps);
    topOpsView_->setVisible(!o.topDeviceOps.empty());
    noDeviceOps_->setVisible(o.topDeviceOps.empty());
    topOpsView_->resizeColumnsToContents();
    topOpsView_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);

    QString rec;
    for (const std::string& r : o.recommendations) rec += QStringLiteral("<p>%1</p>").arg(q(r).toHtmlEscaped());
    if (overview_ && !overview_->gpuAdvice.empty()) {
        for (const std::string& r : overview_->gpuAdvice) rec += QStringLiteral("<p>%1</p>").arg(q(r).toHtmlEscaped());
        rec += tr("<p><i>The GPU Utilization page lists each finding with its slices.</i></p>");
    }
    // What the file does not carry, so a zero above is not read as a measurement.
    for (const std::string& n : o.notes) rec += QStringLiteral("<p><i>%1</i></p>").arg(q(n).toHtmlEscaped());
    recommendations_->setText(rec.isEmpty() ? tr("No recommendation.") : rec);
}

}  // namespace tracescope
