#include "views/tables/kernel_stats_view.h"

#include "model/results/trace_results.h"
#include "views/partial_trace_note.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace tracescope {

QString formatDim3(const Dim3& d) { return QStringLiteral("%1,%2,%3").arg(d[0]).arg(d[1]).arg(d[2]); }

namespace {

using Item = KernelStatsView::Item;
using Model = RowTableModel<Item>;

QVariant yesNo(bool b) { return b ? QObject::tr("Yes") : QObject::tr("No"); }

std::vector<Model::Column> kernelColumns() {
    auto q = [](const std::string& s) { return QString::fromStdString(s); };
    return {
        // Rank = position in the analysis order (total duration, descending).
        {{QObject::tr("Rank"), ColumnKind::Integer, QObject::tr("Rank by total duration")},
         [](const Item& i) { return QVariant(qint64(i.rank)); }},
        {{QObject::tr("Kernel name"), ColumnKind::Text, {}, true},
         [q](const Item& i) { return QVariant(q(i.row.name)); }},
        {{QObject::tr("Regs"), ColumnKind::Integer, QObject::tr("Registers per thread")},
         [](const Item& i) { return QVariant(qint64(i.row.registersPerThread)); }},
        {{QObject::tr("Shared mem"), ColumnKind::Bytes, QObject::tr("Static + dynamic shared memory per block")},
         [](const Item& i) { return QVariant(qint64(i.row.sharedMemBytes)); }},
        // Dims sort by their thread/block count, read as x,y,z.
        {{QObject::tr("Block"), ColumnKind::Text, QObject::tr("Block dimensions x,y,z")},
         [](const Item& i) { return QVariant(formatDim3(i.row.block)); }},
        {{QObject::tr("Grid"), ColumnKind::Text, QObject::tr("Grid dimensions x,y,z")},
         [](const Item& i) { return QVariant(formatDim3(i.row.grid)); }},
        {{QObject::tr("Occupancy"), ColumnKind::Percent, QObject::tr("Occupancy % as recorded by the profiler")},
         [](const Item& i) { return i.row.occupancyPct ? QVariant(*i.row.occupancyPct) : QVariant(); }},
        {{QObject::tr("TC eligible"), ColumnKind::Text,
          QObject::tr("Op is TensorCore eligible (or the kernel uses TensorCores)")},
         [](const Item& i) { return yesNo(i.row.tensorCoreEligible); }},
        {{QObject::tr("Uses TC"), ColumnKind::Text,
          QObject::tr("Kernel uses TensorCores, judged from its name by an ordered rule table (FP32 SIMT kernels "
                      "such as cuBLAS ..._ffma_... are not TensorCore kernels, unlike XProf's list); the cell's "
                      "tooltip names the deciding rule")},
         [](const Item& i) { return yesNo(i.row.usesTensorCore); }},
        {{QObject::tr("Op"), ColumnKind::Text, QObject::tr("Framework op that launched the kernel")},
         [q](const Item& i) { return QVariant(q(i.row.op)); }},
        {{QObject::tr("Occurrences"), ColumnKind::Integer, {}},
         [](const Item& i) { return QVariant(qint64(i.row.occurrences)); }},
        {{QObject::tr("Total"), ColumnKind::Duration, QObject::tr("Total duration")},
         [](const Item& i) { return QVariant(qint64(i.row.totalNs)); }},
        {{QObject::tr("Avg"), ColumnKind::Duration, QObject::tr("Average duration")},
         [](const Item& i) { return QVariant(qint64(std::llround(i.row.avgNs))); }},
        {{QObject::tr("Min"), ColumnKind::Duration, QObject::tr("Shortest launch")},
         [](const Item& i) { return QVariant(qint64(i.row.minNs)); }},
        {{QObject::tr("Max"), ColumnKind::Duration, QObject::tr("Longest launch")},
         [](const Item& i) { return QVariant(qint64(i.row.maxNs)); }},
    };
}

}  // namespace

KernelStatsView::KernelStatsView(QWidget* parent) : AnalysisView(parent) {
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    summary_ = new WrappingLabel(content);
    layout->addWidget(summary_);
    layout->addWidget(partialTraceNote());
    table_ = new TablePage(content);
    table_->setFilterColumns({Kernel, Op}, tr("Filter by kernel name or op name"));
    table_->setExportName(QStringLiteral("kernel_stats.csv"));
    table_->setElasticColumn(Kernel, 220);
    table_->addShrinkableColumn(Op, 110);
    layout->addWidget(table_, 1);
    model_ = new Model(kernelColumns(), this);
    model_->setCellToolTip(UsesTc, [](const Item& i) {
        if (!i.row.tensorCoreRule) return tr("No TensorCore pattern in the kernel name");
        const std::string_view family = i.row.tensorCoreRule->family;
        return tr("Rule: %1").arg(QString::fromUtf8(family.data(), qsizetype(family.size())));
    });
    table_->setSourceModel(model_, Rank, Qt::AscendingOrder);
    setContent(content);
    connect(table_, &TablePage::sourceRowActivated, this, &KernelStatsView::activateRow);
}

void KernelStatsView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    // Distinct configurations past what the memory budget holds get no row (the totals stay
    // exact, the result's note says what was left out): the page runs on any trace.
    const size_t maxRows = kernelStatsRowBound(results()->runner().memoryBudget());
    run<Computed>(
        estimateKernelStatsCost(*trace, maxRows), {"kernel-stats-page", "max-rows=" + std::to_string(maxRows)},
        [maxRows](ResultStore& results) {
            Computed c;
            c.classified = classificationOf(results);
            analysisStep("Summing kernels by launch configuration", 0, 0.7);
            // Only the rows the table shows are made (with the row index built for them):
            // millions of distinct configurations would otherwise stay in memory unused.
            c.result = computeKernelStats(*c.classified, {.maxRows = maxRows, .keepRows = kMaxTableRows});
            analysisStep("Indexing kernel slices", 0.7, 1);
            c.sliceRows = sliceRowIndexOf(*c.classified, c.result);
            return c;
        },
        [this](std::shared_ptr<const Computed> c) {
            computed_ = std::move(c);
            const KernelStatsResult& r = computed_->result;
            QString notes;
            for (const std::string& n : r.notes) notes += QStringLiteral(" ") + QString::fromStdString(n);
            if (r.rows.empty()) {
                showEmptyResult(tr("No GPU kernels in this trace.") + notes);
                return;
            }
            std::vector<Item> items;
            const size_t shown = r.rows.size();
            items.reserve(shown);
            for (size_t i = 0; i < shown; ++i) items.push_back({r.rows[i], int(i) + 1});
            model_->setRows(std::move(items));
            table_->view()->sortByColumn(Rank, Qt::AscendingOrder);
            table_->fitColumns(300);  // op names capped; the kernel name takes the rest
            double tc = r.totalKernelNs > 0 ? 100.0 * double(r.tensorCoreNs) / double(r.totalKernelNs) : 0;
            summary_->setText(
                tr("<b>%1</b> kernel launches in <b>%2</b> distinct kernel/op configurations, "
                   "total kernel time <b>%3</b>; TensorCore kernels: %4 of kernel time. "
                   "Double-click a row to highlight its launches in the timeline.")
                    .arg(formatCount(qint64(r.kernelCount)),
                         formatCount(qint64(r.configurations)) + (r.unlistedCount ? "+" : ""),
                         formatDuration(r.totalKernelNs), formatPercent(tc)) +
                (shown < r.configurations ? tr(" <b>The table shows the %1 with the most time</b>; "
                                               "<tt>tracescope-cli kernels</tt> lists all.")
                                                .arg(formatCount(qint64(shown)))
                                          : QString()) +
                (notes.isEmpty() ? QString() : QStringLiteral("<br><i>%1</i>").arg(notes.trimmed().toHtmlEscaped())));
        });
}

QString KernelStatsView::summaryText() const { return summary_->text(); }

void KernelStatsView::clearResult() {
    computed_.reset();
    model_->setRows({});
    summary_->clear();
}

void KernelStatsView::activateRow(int row) {
    std::shared_ptr<const Trace> t = trace();
    if (!computed_ || !t || !selection_ || row < 0 || row >= model_->rowCount()) return;
    std::vector<SliceRef> slices = occurrencesOf(*computed_->classified, computed_->result, size_t(row));
    if (slices.empty()) return;
    QString label = tr("%1: %2 launches").arg(QString::fromStdString(model_->row(row).row.name)).arg(slices.size());
    selection_->highlightSlices(std::move(slices), label);
}

void KernelStatsView::selectSlice(SliceRef slice) {
    if (!computed_) return;
    if (std::optional<uint32_t> row = computed_->sliceRows.rowOf(slice)) table_->selectSourceRow(int(*row));
}

}  // namespace tracescope
