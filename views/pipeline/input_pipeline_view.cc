#include "views/pipeline/input_pipeline_view.h"

#include "model/results/trace_results.h"
#include "views/charts/stacked_column_chart.h"
#include "views/charts/step_breakdown_chart.h"
#include "views/partial_trace_note.h"
#include "views/step_marker_box.h"
#include "views/step_set_box.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace tracescope {

namespace {

using StatRow = InputPipelineView::StatRow;
using CategoryRow = InputPipelineView::CategoryRow;

QString q(const std::string& s) { return QString::fromStdString(s); }

// A duration column that shows a double of ns, or a percent when the row says so.
QVariant statValue(const StatRow& r, double v) { return r.percent ? QVariant(v) : QVariant(qint64(std::llround(v))); }

class StatModel : public RowTableModel<StatRow> {
public:
    using RowTableModel<StatRow>::RowTableModel;

    // Rows mix durations and percents: format each cell by its row.
    QVariant data(const QModelIndex& index, int role) const override {
        if (index.isValid() && index.column() > 0 && index.column() < 5 && index.row() < rowCount() &&
            row(index.row()).percent) {
            if (role == Qt::DisplayRole)
                return displayText(ColumnKind::Percent, RowTableModel<StatRow>::data(index, SortRole));
            if (role == Qt::ToolTipRole) return {};
        }
        return RowTableModel<StatRow>::data(index, role);
    }
};

std::vector<RowTableModel<StatRow>::Column> statColumns() {
    return {
        {{QObject::tr("Per step"), ColumnKind::Text, {}}, [](const StatRow& r) { return QVariant(r.what); }},
        {{QObject::tr("Average"), ColumnKind::Duration, {}}, [](const StatRow& r) { return statValue(r, r.d.mean); }},
        {{QObject::tr("Std. dev."), ColumnKind::Duration, QObject::tr("Population standard deviation over steps")},
         [](const StatRow& r) { return statValue(r, r.d.stddev); }},
        {{QObject::tr("Min"), ColumnKind::Duration, {}}, [](const StatRow& r) { return statValue(r, r.d.min); }},
        {{QObject::tr("Max"), ColumnKind::Duration, {}}, [](const StatRow& r) { return statValue(r, r.d.max); }},
        {{QObject::tr("% of step time"), ColumnKind::Percent,
          QObject::tr("The category's time summed over the step set / the step time summed over it "
                      "(TensorBoard's input %)")},
         [](const StatRow& r) { return r.shareOfStep >= 0 ? QVariant(r.shareOfStep) : QVariant(); }},
    };
}

std::vector<RowTableModel<CategoryRow>::Column> categoryColumns() {
    return {
        {{QObject::tr("Input op category"), ColumnKind::Text, {}},
         [](const CategoryRow& r) { return QVariant(r.category); }},
        {{QObject::tr("Self time"), ColumnKind::Duration, {}},
         [](const CategoryRow& r) { return QVariant(qint64(r.ns)); }},
        {{QObject::tr("Share"), ColumnKind::Percent, QObject::tr("Of the self time of all host input ops")},
         [](const CategoryRow& r) { return QVariant(r.percent); }},
    };
}

std::vector<RowTableModel<InputOpRow>::Column> opColumns() {
    return {
        {{QObject::tr("Input op"), ColumnKind::Text, {}}, [](const InputOpRow& r) { return QVariant(q(r.name)); }},
        {{QObject::tr("Category"), ColumnKind::Text, {}},
         [](const InputOpRow& r) { return QVariant(QString::fromUtf8(inputOpCategoryName(r.category))); }},
        {{QObject::tr("Count"), ColumnKind::Integer, {}},
         [](const InputOpRow& r) { return QVariant(qint64(r.count)); }},
        {{QObject::tr("Total time"), ColumnKind::Duration, {}},
         [](const InputOpRow& r) { return QVariant(qint64(r.totalNs)); }},
        {{QObject::tr("Self time"), ColumnKind::Duration, {}},
         [](const InputOpRow& r) { return QVariant(qint64(r.selfNs)); }},
        {{QObject::tr("Total %"), ColumnKind::Percent, QObject::tr("Of all input ops' total time")},
         [](const InputOpRow& r) { return QVariant(r.totalPercent); }},
        {{QObject::tr("Self %"), ColumnKind::Percent, QObject::tr("Of all input ops' self time")},
         [](const InputOpRow& r) { return QVariant(r.selfPercent); }},
    };
}

QTableView* smallTable(QAbstractItemModel* model, QWidget* parent) {
    auto* v = new QTableView(parent);
    v->setModel(model);
    v->verticalHeader()->setVisible(false);
    v->setSelectionBehavior(QAbstractItemView::SelectRows);
    v->setAlternatingRowColors(true);
    v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 6);
    v->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);  // as tall as its rows
    v->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    return v;
}

QGroupBox* titled(const QString& title, QWidget* parent) {
    auto* b = new QGroupBox(title, parent);
    b->setStyleSheet(QStringLiteral("QGroupBox { font-weight: bold; } QGroupBox * { font-weight: normal; }"));
    return b;
}

}  // namespace

InputPipelineView::InputPipelineView(QWidget* parent) : AnalysisView(parent) {
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    verdict_ = new WrappingLabel(content);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* markerBar = new QHBoxLayout;
    markerBar->addWidget(new QLabel(tr("Steps from:"), content));
    markerBar->addWidget(stepMarkerBox());
    markerBar->addWidget(stepSetBox());
    markerBar->addStretch(1);
    layout->addLayout(markerBar);
    layout->addWidget(verdict_);
    layout->addWidget(partialTraceNote());

    auto* split = new QSplitter(Qt::Vertical, content);
    split->setChildrenCollapsible(false);

    // Device side: per-step wait chart + statistics.
    QGroupBox* device = titled(tr("Device side: step time and the wait for input"), split);
    auto* deviceLayout = new QHBoxLayout(device);
    chart_ = new StackedColumnChart(tr("Step-time breakdown per step"), device);
    deviceStats_ = new StatModel(statColumns(), this);
    deviceStatsView_ = smallTable(deviceStats_, device);
    auto* statsColumn = new QVBoxLayout;
    statsColumn->addWidget(deviceStatsView_);
    statsColumn->addStretch(1);
    deviceLayout->addWidget(chart_, 1);
    deviceLayout->addLayout(statsColumn, 1);
    split->addWidget(device);

    // Host side: categories + op table.
    QGroupBox* host = titled(tr("Host side: input ops"), split);
    host_ = host;
    auto* hostLayout = new QHBoxLayout(host);
    auto* left = new QVBoxLayout;
    hostCategories_ = new RowTableModel<CategoryRow>(categoryColumns(), this);
    hostCategoriesView_ = smallTable(hostCategories_, host);
    hostNote_ = new WrappingLabel(host);
    left->addWidget(hostNote_);
    left->addWidget(hostCategoriesView_);
    left->addStretch(1);
    hostLayout->addLayout(left, 2);
    ops_ = new TablePage(host);
    opsModel_ = new RowTableModel<InputOpRow>(opColumns(), this);
    ops_->setSourceModel(opsModel_, Self, Qt::DescendingOrder);
    ops_->setFilterColumns({Name, Category}, tr("Filter input ops"));
    ops_->setExportName(QStringLiteral("input_ops.csv"));
    ops_->setElasticColumn(Name, 200);
    hostLayout->addWidget(ops_, 5);
    split->addWidget(host);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    setContent(content);
    connect(ops_, &TablePage::sourceRowActivated, this, &InputPipelineView::activateRow);
}

void InputPipelineView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    const StepOptions options = stepOptions();
    run<Computed>(
        estimateAnalysisCost(AnalysisKind::InputPipeline, *trace), {"input-pipeline-page", stepOptionsKey(options)},
        [options](ResultStore& results) {
            Computed c;
            analysisStep("Classifying slices", 0, 0.1);
            c.classified = classificationOf(results);
            const ClassifiedTrace& ct = *c.classified;
            analysisStep("Measuring input waits", 0.1, 0.4);
            c.result = computeInputPipeline(ct, options);
            analysisStep("Indexing input ops", 0.4, 0.8);
            c.sliceRows = sliceRowIndexOf(ct, c.result);
            analysisStep("Looking for step markers", 0.8, 1);
            c.markerCandidates = stepMarkerCandidates(ct, 40);
            return c;
        },
        [this](std::shared_ptr<const Computed> c) {
            computed_ = std::move(c);
            stepMarkerBox()->setCandidates(computed_->markerCandidates);
            showResult(*computed_);
        });
}

void InputPipelineView::clearResult() {
    computed_.reset();
    verdict_->clear();
    deviceStats_->setRows({});
    hostCategories_->setRows({});
    opsModel_->setRows({});
    chart_->setData({}, {}, {});
}

void InputPipelineView::showResult(const Computed& c) {
    const InputPipelineResult& r = c.result;
    QString verdict = tr("<b>Verdict:</b> %1").arg(QString::fromUtf8(inputBoundName(r.verdict)).toHtmlEscaped());
    if (!r.summary.empty()) verdict += QStringLiteral("<br>") + q(r.summary).toHtmlEscaped();
    verdict_->setText(verdict);

    const bool haveSteps = !r.steps.empty();
    chart_->setVisible(haveSteps);
    std::vector<StatRow> stats;
    if (haveSteps) {
        showStepBreakdown(chart_, r.breakdown, &r.stepSet);
        stats.push_back({tr("Input wait time"), r.waitNs, false, r.inputPercent});
        // The mean of the per-step ratios differs from the ratio of the sums (the Input row's %,
        // as TensorBoard): the label says which it is.
        stats.push_back({tr("Input wait % (per-step mean)"), r.waitPercent, true});
        // Then every category the steps spent time in.
        for (size_t k = 0; k < kStepCategoryCount; ++k) {
            const CategorySummary& cs = r.categories[k];
            if (cs.ns.max <= 0) continue;
            stats.push_back({QString::fromUtf8(stepCategoryName(StepCategory(k))), cs.ns, false, cs.percentOfStep});
        }
    }
    deviceStats_->setRows(std::move(stats));
    deviceStatsView_->resizeColumnsToContents();

    std::vector<CategoryRow> cats;
    for (size_t c = 0; c < kInputOpCategoryCount; ++c) {
        TimeNs ns = r.byCategoryNs[c];
        double pct = r.hostInputSelfNs > 0 ? 100.0 * double(ns) / double(r.hostInputSelfNs) : 0;
        cats.push_back({QString::fromUtf8(inputOpCategoryName(InputOpCategory(c))), ns, pct});
    }
    hostCategories_->setRows(std::move(cats));
    hostCategoriesView_->resizeColumnsToContents();
    hostNote_->setText(tr("Input ops ran for %1 of self time on the host.").arg(formatDuration(r.hostInputSelfNs)));
    // Without input ops the host half would be an empty table: say so in one line instead.
    host_->setVisible(!r.ops.empty());
    if (r.ops.empty())
        verdict_->setText(verdict_->text() + tr("<br>No host input ops (tf.data iterators, DataLoader, infeed / H2D "
                                                "enqueue) in this trace."));
    opsModel_->setRows(r.ops);
    ops_->view()->sortByColumn(Self, Qt::DescendingOrder);
    ops_->fitColumns(420);
}

void InputPipelineView::activateRow(int row) {
    std::shared_ptr<const Trace> t = trace();
    if (!computed_ || !t || !selection_ || row < 0 || row >= opsModel_->rowCount()) return;
    std::vector<SliceRef> slices = occurrencesOf(*computed_->classified, computed_->result, size_t(row));
    if (slices.empty()) return;
    QString label = tr("%1: %2 occurrences").arg(q(opsModel_->row(row).name)).arg(slices.size());
    selection_->highlightSlices(std::move(slices), label);
}

void InputPipelineView::selectSlice(SliceRef slice) {
    if (!computed_) return;
    if (std::optional<uint32_t> row = computed_->sliceRows.rowOf(slice)) ops_->selectSourceRow(int(*row));
}

}  // namespace tracescope
