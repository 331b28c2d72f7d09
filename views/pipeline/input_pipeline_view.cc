#include "views/pipeline/input_pipeline_view.h"

#include "views/charts/stacked_column_chart.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"

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
        if (index.isValid() && index.column() > 0 && index.row() < rowCount() && row(index.row()).percent) {
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
    };
}

std::vector<RowTableModel<CategoryRow>::Column> categoryColumns() {
    return {
        {{QObject::tr("Input op category"), ColumnKind::Text, {}}, [](const CategoryRow& r) { return QVariant(r.category); }},
        {{QObject::tr("Self time"), ColumnKind::Duration, {}}, [](const CategoryRow& r) { return QVariant(qint64(r.ns)); }},
        {{QObject::tr("Share"), ColumnKind::Percent, QObject::tr("Of the self time of all host input ops")},
         [](const CategoryRow& r) { return QVariant(r.percent); }},
    };
}

std::vector<RowTableModel<InputOpRow>::Column> opColumns() {
    return {
        {{QObject::tr("Input op"), ColumnKind::Text, {}}, [](const InputOpRow& r) { return QVariant(q(r.name)); }},
        {{QObject::tr("Category"), ColumnKind::Text, {}},
         [](const InputOpRow& r) { return QVariant(QString::fromUtf8(inputOpCategoryName(r.category))); }},
        {{QObject::tr("Count"), ColumnKind::Integer, {}}, [](const InputOpRow& r) { return QVariant(qint64(r.count)); }},
        {{QObject::tr("Total time"), ColumnKind::Duration, {}}, [](const InputOpRow& r) { return QVariant(qint64(r.totalNs)); }},
        {{QObject::tr("Self time"), ColumnKind::Duration, {}}, [](const InputOpRow& r) { return QVariant(qint64(r.selfNs)); }},
        {{QObject::tr("Total %"), ColumnKind::Percent, QObject::tr("Of all input ops' self time")},
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
    v->horizontalHeader()->setStretchLastSection(true);
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
    verdict_ = new QLabel(content);
    verdict_->setWordWrap(true);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(verdict_);

    auto* split = new QSplitter(Qt::Vertical, content);
    split->setChildrenCollapsible(false);

    // Device side: per-step wait chart + statistics.
    QGroupBox* device = titled(tr("Device side: time waiting for input per step"), split);
    auto* deviceLayout = new QHBoxLayout(device);
    chart_ = new StackedColumnChart(tr("Input wait per step"), device);
    deviceStats_ = new StatModel(statColumns(), this);
    deviceStatsView_ = smallTable(deviceStats_, device);
    deviceStatsView_->setMinimumWidth(460);
    deviceLayout->addWidget(chart_, 3);
    deviceLayout->addWidget(deviceStatsView_, 2);
    split->addWidget(device);

    // Host side: categories + op table.
    QGroupBox* host = titled(tr("Host side: input ops"), split);
    auto* hostLayout = new QHBoxLayout(host);
    auto* left = new QVBoxLayout;
    hostCategories_ = new RowTableModel<CategoryRow>(categoryColumns(), this);
    hostCategoriesView_ = smallTable(hostCategories_, host);
    hostNote_ = new QLabel(host);
    hostNote_->setWordWrap(true);
    left->addWidget(hostNote_);
    left->addWidget(hostCategoriesView_, 1);
    hostLayout->addLayout(left, 2);
    ops_ = new TablePage(host);
    opsModel_ = new RowTableModel<InputOpRow>(opColumns(), this);
    ops_->setSourceModel(opsModel_, Self, Qt::DescendingOrder);
    ops_->setFilterColumns({Name, Category}, tr("Filter input ops"));
    ops_->setExportName(QStringLiteral("input_ops.csv"));
    hostLayout->addWidget(ops_, 5);
    split->addWidget(host);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    setContent(content);
    connect(ops_, &TablePage::sourceRowActivated, this, &InputPipelineView::activateRow);
}

void InputPipelineView::setSelection(TraceSelection* selection) {
    if (selection_) disconnect(selection_, nullptr, this, nullptr);
    AnalysisView::setSelection(selection);
    if (selection) connect(selection, &TraceSelection::sliceSelected, this, &InputPipelineView::selectSlice);
}

void InputPipelineView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    std::shared_ptr<const Trace> t = trace;
    run<Computed>(
        [t] {
            Computed c;
            c.result = computeInputPipeline(*t);
            c.sliceRows = sliceRowIndexOf(*t, c.result);
            return c;
        },
        [this](Computed& c) {
            computed_ = std::make_shared<Computed>(std::move(c));
            showResult(computed_->result);
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

void InputPipelineView::showResult(const InputPipelineResult& r) {
    QString verdict = tr("<b>Verdict:</b> %1").arg(QString::fromUtf8(inputBoundName(r.verdict)).toHtmlEscaped());
    if (!r.summary.empty()) verdict += QStringLiteral("<br>") + q(r.summary).toHtmlEscaped();
    verdict_->setText(verdict);

    const bool haveSteps = !r.steps.empty();
    chart_->setVisible(haveSteps);
    if (haveSteps) {
        QStringList labels;
        StackedSeries wait{tr("Waiting for input"), {}}, rest{tr("Rest of the step"), {}};
        for (const DeviceInputStep& s : r.steps) {
            labels << QString::number(s.stepNumber);
            wait.values.push_back(double(s.waitInputNs) / 1e6);
            rest.values.push_back(double(s.stepNs - s.waitInputNs) / 1e6);
        }
        chart_->setData(labels, {wait, rest}, tr("Time (ms)"));
        deviceStats_->setRows({{tr("Input wait time"), r.waitNs, false}, {tr("Input wait % of step"), r.waitPercent, true}});
    } else {
        deviceStats_->setRows({});
    }
    deviceStatsView_->resizeColumnsToContents();

    std::vector<CategoryRow> cats;
    for (size_t c = 0; c < kInputOpCategoryCount; ++c) {
        TimeNs ns = r.byCategoryNs[c];
        double pct = r.hostInputSelfNs > 0 ? 100.0 * double(ns) / double(r.hostInputSelfNs) : 0;
        cats.push_back({QString::fromUtf8(inputOpCategoryName(InputOpCategory(c))), ns, pct});
    }
    hostCategories_->setRows(std::move(cats));
    hostCategoriesView_->resizeColumnsToContents();
    hostNote_->setText(r.ops.empty() ? tr("No host input ops (tf.data iterators, DataLoader, infeed / H2D enqueue) "
                                          "in this trace.")
                                     : tr("Input ops ran for %1 of self time on the host.")
                                           .arg(formatDuration(r.hostInputSelfNs)));
    opsModel_->setRows(r.ops);
    ops_->view()->sortByColumn(Self, Qt::DescendingOrder);
    ops_->fitColumns(420);
}

void InputPipelineView::activateRow(int row) {
    std::shared_ptr<const Trace> t = trace();
    if (!computed_ || !t || !selection_ || row < 0 || row >= opsModel_->rowCount()) return;
    std::vector<SliceRef> slices = occurrencesOf(*t, computed_->result, size_t(row));
    if (slices.empty()) return;
    QString label = tr("%1: %2 occurrences").arg(q(opsModel_->row(row).name)).arg(slices.size());
    selection_->highlightSlices(std::move(slices), label);
}

void InputPipelineView::selectSlice(SliceRef slice) {
    if (!computed_) return;
    if (std::optional<uint32_t> row = computed_->sliceRows.rowOf(slice)) ops_->selectSourceRow(int(*row));
}

}  // namespace tracescope
