#include "views/tables/op_stats_view.h"

#include "model/results/trace_results.h"
#include "model/trace/producer.h"

#include "views/charts/pie_chart.h"
#include "views/partial_trace_note.h"
#include "views/tables/table_page.h"
#include "views/tables/torch_ops_table.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace tracescope {

namespace {

using Item = OpStatsView::Item;
using Model = RowTableModel<Item>;

qint64 rounded(double ns) { return qint64(std::llround(ns)); }

std::vector<Model::Column> opColumns() {
    auto q = [](const std::string& s) { return QString::fromStdString(s); };
    return {
        {{QObject::tr("Rank"), ColumnKind::Integer, QObject::tr("Rank by total self time within the side")},
         [](const Item& i) { return QVariant(qint64(i.rank)); }},
        {{QObject::tr("Type"), ColumnKind::Text, QObject::tr("Op type / category")},
         [q](const Item& i) { return QVariant(q(i.row.type)); }},
        {{QObject::tr("Operation"), ColumnKind::Text, QObject::tr("Op name"), true},
         [q](const Item& i) { return QVariant(q(i.row.name)); }},
        // IDLE is time, not occurrences: its count and averages stay blank.
        {{QObject::tr("Occurrences"), ColumnKind::Integer, {}},
         [](const Item& i) { return i.row.isIdle ? QVariant() : QVariant(qint64(i.row.occurrences)); }},
        {{QObject::tr("Total time"), ColumnKind::Duration, QObject::tr("Sum of the durations of all occurrences")},
         [](const Item& i) { return QVariant(qint64(i.row.totalNs)); }},
        {{QObject::tr("Avg time"), ColumnKind::Duration, {}},
         [](const Item& i) { return i.row.isIdle ? QVariant() : QVariant(rounded(i.row.avgNs)); }},
        {{QObject::tr("Min time"), ColumnKind::Duration, {}},
         [](const Item& i) { return QVariant(qint64(i.row.minNs)); }},
        {{QObject::tr("Max time"), ColumnKind::Duration, {}},
         [](const Item& i) { return QVariant(qint64(i.row.maxNs)); }},
        {{QObject::tr("Total self time"), ColumnKind::Duration,
          QObject::tr("Total time minus the time of ops nested inside")},
         [](const Item& i) { return QVariant(qint64(i.row.selfNs)); }},
        {{QObject::tr("Avg self time"), ColumnKind::Duration, {}},
         [](const Item& i) { return i.row.isIdle ? QVariant() : QVariant(rounded(i.row.avgSelfNs)); }},
        {{QObject::tr("Self %"), ColumnKind::Percent, QObject::tr("Share of the side's total self time")},
         [](const Item& i) { return QVariant(i.row.selfPercent); }},
        {{QObject::tr("Cumulative self %"), ColumnKind::Percent, QObject::tr("Running sum of self % in rank order")},
         [](const Item& i) { return QVariant(i.row.cumulativeSelfPercent); }},
        {{QObject::tr("TensorCore %"), ColumnKind::Percent,
          QObject::tr("Time of kernels that use TensorCores / all kernel time of the op")},
         [](const Item& i) {
             if (i.row.kernelNs <= 0) return QVariant();
             return QVariant(100.0 * double(i.row.tensorCoreNs) / double(i.row.kernelNs));
         }},
    };
}

std::vector<ChartSlice> toSlices(const std::vector<PieEntry>& pie) {
    std::vector<ChartSlice> out;
    for (const PieEntry& e : pie) out.push_back({QString::fromStdString(e.label), double(e.valueNs), e.foldedCount});
    return out;
}

}  // namespace

OpStatsView::OpStatsView(QWidget* parent) : AnalysisView(parent) {
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);

    // The convention: XProf's op table or PyTorch's key_averages() table.
    conventionRow_ = new QWidget(content);
    auto* conventionLayout = new QHBoxLayout(conventionRow_);
    conventionLayout->setContentsMargins(0, 0, 0, 0);
    convention_ = new QComboBox;
    convention_->addItem(tr("XProf (TF Stats)"), int(Convention::XProf));
    convention_->addItem(tr("PyTorch (key_averages)"), int(Convention::PyTorch));
    convention_->setToolTip(
        tr("XProf folds CUDA runtime calls into the op that made them; PyTorch's table lists "
           "them as rows of their own and counts CUDA time per op"));
    conventionLayout->addWidget(new QLabel(tr("Convention:")));
    conventionLayout->addWidget(convention_);
    conventionLayout->addStretch(1);
    layout->addWidget(conventionRow_);
    layout->addWidget(partialTraceNote());
    pages_ = new QStackedWidget(content);
    layout->addWidget(pages_, 1);
    auto* xprofPage = new QWidget(pages_);
    auto* xprofLayout = new QVBoxLayout(xprofPage);
    xprofLayout->setContentsMargins(0, 0, 0, 0);
    torchTable_ = new TorchOpsTable(pages_);
    pages_->addWidget(xprofPage);
    pages_->addWidget(torchTable_);

    table_ = new TablePage(content);
    side_ = new QComboBox;
    side_->addItem(tr("Device ops"), int(OpSide::Device));
    side_->addItem(tr("Host ops"), int(OpSide::Host));
    side_->setToolTip(tr("Ops that ran on the accelerators or on host threads"));
    group_ = new QComboBox;
    group_->addItem(tr("Group by op name"), int(OpGrouping::ByName));
    group_->addItem(tr("Group by op type"), int(OpGrouping::ByType));
    idle_ = new QCheckBox(tr("Include IDLE"));
    idle_->setChecked(true);
    idle_->setToolTip(tr("Add an IDLE row: time on the side not covered by any op"));
    table_->addToolbarWidget(side_);
    table_->addToolbarWidget(group_);
    table_->addToolbarWidget(idle_);
    table_->setFilterColumns({Name, Type}, tr("Filter by op name or type"));
    table_->setExportName(QStringLiteral("op_stats.csv"));
    table_->setElasticColumn(Name, 220);

    summary_ = new WrappingLabel(content);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    xprofLayout->addWidget(summary_);

    model_ = new Model(opColumns(), this);
    model_->setCellToolTip(Name, [](const Item& i) {
        if (!i.row.isIdle) return QString();
        return tr("IDLE: %1")
            .arg(QString::fromUtf8(i.row.side == OpSide::Device ? kDeviceIdleDefinition : kHostIdleDefinition));
    });
    table_->setSourceModel(model_, Rank, Qt::AscendingOrder);

    auto* pies = new QWidget(content);
    auto* pieLayout = new QHBoxLayout(pies);
    pieLayout->setContentsMargins(0, 0, 0, 0);
    opPie_ = new PieChart(tr("Self time per op"), pies);
    typePie_ = new PieChart(tr("Self time per op type"), pies);
    pieLayout->addWidget(opPie_);
    pieLayout->addWidget(typePie_);

    auto* split = new QSplitter(Qt::Vertical, content);
    split->addWidget(table_);
    split->addWidget(pies);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    xprofLayout->addWidget(split, 1);
    setContent(content);

    connect(side_, &QComboBox::currentIndexChanged, this, [this] { showSide(); });
    connect(group_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(idle_, &QCheckBox::toggled, this, [this] { recompute(); });
    connect(table_, &TablePage::sourceRowActivated, this, &OpStatsView::activateRow);
    connect(convention_, &QComboBox::currentIndexChanged, this, [this] {
        pages_->setCurrentIndex(convention_->currentIndex());
        if (convention() == Convention::PyTorch && !torchComputed_) recomputeTorch();
        if (convention() == Convention::XProf && !computed_) recompute();
    });
    connect(torchTable_, &TorchOpsTable::optionsChanged, this, [this] { recomputeTorch(); });
    connect(torchTable_, &TorchOpsTable::rowActivated, this, &OpStatsView::activateTorchRow);
}

OpStatsView::Convention OpStatsView::convention() const { return Convention(convention_->currentData().toInt()); }

void OpStatsView::setConvention(Convention c) { convention_->setCurrentIndex(convention_->findData(int(c))); }

OpSide OpStatsView::side() const { return OpSide(side_->currentData().toInt()); }

void OpStatsView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    // XLA programs (XSpace, or XProf's trace JSON of one) can also be read per HLO op; other
    // producers have none.
    const int hlo = group_->findData(int(OpGrouping::ByHloOp));
    const QSignalBlocker block(group_);
    const Producer producer = detectProducer(*trace);
    const bool xla = producer == Producer::XProf;
    if (xla && hlo < 0) group_->addItem(tr("Group by HLO op"), int(OpGrouping::ByHloOp));
    if (!xla && hlo >= 0) group_->removeItem(hlo);
    // PyTorch's table is the one PyTorch users know: the default for Kineto traces. Other
    // producers have no torch.profiler event tree; their PyTorch mode says why.
    const bool kineto = producer == Producer::Kineto;
    {
        const QSignalBlocker blockConvention(convention_);
        setConvention(kineto ? Convention::PyTorch : Convention::XProf);
        pages_->setCurrentIndex(convention_->currentIndex());
    }
    if (convention() == Convention::PyTorch) recomputeTorch();
    else recompute();
}

void OpStatsView::clearResult() {
    computed_.reset();
    torchComputed_.reset();
    torchTable_->clear();
    model_->setRows({});
    opPie_->setEntries({});
    typePie_->setEntries({});
    summary_->clear();
}

void OpStatsView::recompute() {
    std::shared_ptr<const Trace> t = trace();
    if (!t) return;
    OpStatsOptions options;
    options.grouping = OpGrouping(group_->currentData().toInt());
    options.includeIdle = idle_->isChecked();
    run<Computed>(
        estimateAnalysisCost(AnalysisKind::OpStats, *t),
        {"op-stats-page", "grouping=" + std::to_string(int(options.grouping)) + (options.includeIdle ? " idle" : "")},
        [options](ResultStore& results) {
            Computed c;
            c.classified = classificationOf(results);
            analysisStep("Summing ops", 0, 0.6);
            c.result = computeOpStats(*c.classified, options);
            analysisStep("Indexing op slices", 0.6, 1);
            c.sliceRows = sliceRowIndexOf(*c.classified, c.result);
            return c;
        },
        [this](std::shared_ptr<const Computed> c) {
            computed_ = std::move(c);
            // Open on the side that has ops (a CPU-only trace has no device rows).
            bool haveDevice = false, haveAny = false;
            for (const auto& row : computed_->result.rows) {
                haveDevice |= row.side == OpSide::Device && !row.isIdle;
                haveAny |= !row.isIdle;
            }
            if (!haveAny) {
                showEmptyResult(
                    tr("No framework ops in this trace.\nOp stats need op events: TensorFlow/JAX ops in "
                       "an XSpace, or PyTorch cpu_op / kernel events in a Kineto trace."));
                return;
            }
            if (!haveDevice && side() == OpSide::Device) {
                side_->setCurrentIndex(side_->findData(int(OpSide::Host)));  // calls showSide()
                return;
            }
            showSide();
        });
}

void OpStatsView::showSide() {
    if (!computed_) return;
    const OpStatsResult& r = computed_->result;
    const OpSide s = side();
    std::vector<Item> items;
    int rank = 0;
    size_t rowsOnSide = 0;
    for (size_t i = 0; i < r.rows.size(); ++i) {
        if (r.rows[i].side != s) continue;
        ++rowsOnSide;
        if (items.size() < kMaxTableRows) items.push_back({r.rows[i], i, ++rank});  // rows come by time, most first
    }
    const bool device = s == OpSide::Device;
    const bool byType = r.options.grouping == OpGrouping::ByType;
    const size_t shown = items.size();
    model_->setRows(std::move(items));
    table_->view()->setColumnHidden(TensorCorePct, !device);
    table_->view()->setColumnHidden(Type, byType);  // by type, the name is the type
    table_->view()->sortByColumn(Rank, Qt::AscendingOrder);
    table_->fitColumns();

    const TimeNs total = device ? r.deviceTotalSelfNs : r.hostTotalSelfNs;
    const TimeNs idle = device ? r.deviceIdleNs : r.hostIdleNs;
    QString text = device ? tr("<b>Device</b>: %1 rows, total self time %2 on %3 device(s)")
                                .arg(formatCount(qint64(rowsOnSide)), formatDuration(total))
                                .arg(r.deviceCount)
                          : tr("<b>Host</b>: %1 rows, total self time %2")
                                .arg(formatCount(qint64(rowsOnSide)), formatDuration(total));
    if (r.options.includeIdle && total > 0)
        text += tr(", of which IDLE %1 (%2)")
                    .arg(formatDuration(idle), formatPercent(100.0 * double(idle) / double(total)));
    text += tr(". Double-click a row to highlight its occurrences in the timeline.");
    if (shown < rowsOnSide)
        text += tr(" <b>The table shows the %1 with the most self time</b>; <tt>tracescope-cli stats</tt> lists all.")
                    .arg(formatCount(qint64(shown)));
    for (const std::string& n : r.notes)
        text += QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(n).toHtmlEscaped());
    summary_->setText(text);

    auto fmt = [](double ns) { return formatDuration(qint64(ns)); };
    opPie_->setTitle(device ? tr("Device self time per op") : tr("Host self time per op"));
    typePie_->setTitle(device ? tr("Device self time per op type") : tr("Host self time per op type"));
    // The analysis folded the pies to its top N + other; 8 slices keep the legend readable
    // in a short pane (the rest join "other").
    opPie_->setEntries(toSlices(device ? r.deviceByOp : r.hostByOp), 8, fmt);
    typePie_->setEntries(toSlices(device ? r.deviceByType : r.hostByType), 8, fmt);
}

void OpStatsView::recomputeTorch() {
    std::shared_ptr<const Trace> t = trace();
    if (!t) return;
    const TorchOpsOptions options = torchTable_->options();
    run<TorchComputed>(
        estimateAnalysisCost(AnalysisKind::TorchOps, *t),
        {"torch-ops-page", "shapes=" + std::to_string(options.groupByInputShapes) +
                               " stack=" + std::to_string(options.groupByStackFrames)},
        [options](ResultStore& results) {
            TorchComputed c;
            c.classified = classificationOf(results);
            analysisStep("Summing PyTorch ops", 0, 0.6);
            c.result = computeTorchOps(*c.classified, options);
            analysisStep("Indexing op slices", 0.6, 1);
            c.sliceRows = sliceRowIndexOf(*c.classified, c.result);
            return c;
        },
        [this](std::shared_ptr<const TorchComputed> c) {
            torchComputed_ = std::move(c);
            // An empty table says why in its summary; the page stays, with the Convention box
            // to go back to XProf's table.
            torchTable_->setResult(torchComputed_->result);
        });
}

void OpStatsView::activateTorchRow(size_t resultIndex) {
    std::shared_ptr<const Trace> t = trace();
    if (!torchComputed_ || !t || !selection_ || resultIndex >= torchComputed_->result.rows.size()) return;
    std::vector<SliceRef> slices = occurrencesOf(*torchComputed_->classified, torchComputed_->result, resultIndex);
    if (slices.empty()) return;
    const QString label = tr("%1: %2 calls")
                              .arg(QString::fromStdString(torchComputed_->result.rows[resultIndex].name))
                              .arg(slices.size());
    selection_->highlightSlices(std::move(slices), label);
}

void OpStatsView::activateRow(int modelRow) {
    std::shared_ptr<const Trace> t = trace();
    if (!computed_ || !t || !selection_ || modelRow < 0 || modelRow >= model_->rowCount()) return;
    const Item& item = model_->row(modelRow);
    std::vector<SliceRef> slices = occurrencesOf(*computed_->classified, computed_->result, item.resultIndex);
    if (slices.empty()) return;  // IDLE has no slices
    QString label = tr("%1: %2 occurrences").arg(QString::fromStdString(item.row.name)).arg(slices.size());
    selection_->highlightSlices(std::move(slices), label);
}

void OpStatsView::selectSlice(SliceRef slice) {
    if (convention() == Convention::PyTorch) {
        if (!torchComputed_) return;
        if (std::optional<uint32_t> row = torchComputed_->sliceRows.rowOf(slice)) torchTable_->selectResultRow(*row);
        return;
    }
    if (!computed_) return;
    std::optional<uint32_t> row = computed_->sliceRows.rowOf(slice);
    if (!row) return;
    const OpStatsRow& target = computed_->result.rows[*row];
    if (target.side != side()) side_->setCurrentIndex(side_->findData(int(target.side)));
    for (int i = 0; i < model_->rowCount(); ++i)
        if (model_->row(i).resultIndex == *row) {
            table_->selectSourceRow(i);
            return;
        }
}

}  // namespace tracescope
