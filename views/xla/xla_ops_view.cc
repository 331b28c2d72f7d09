#include "views/xla/xla_ops_view.h"

#include "model/analysis/hlo_attribution.h"
#include "model/analysis/hlo_graph.h"
#include "views/partial_trace_note.h"
#include "views/pipeline/pipeline_graph_view.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"
#include "views/xla/roofline_chart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QSpinBox>
#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace tracescope {

namespace {

using Row = const HloOpRow*;
using Model = RowTableModel<Row>;

QString q(const std::string& s) { return QString::fromStdString(s); }

std::vector<Model::Column> opColumns() {
    return {
        {{QObject::tr("Program"), ColumnKind::Text, QObject::tr("The XLA program: module name (program id)")},
         [](Row r) { return QVariant(q(r->program->displayName())); }},
        {{QObject::tr("Category"), ColumnKind::Text,
          QObject::tr("XProf's HLO category: the fusion kind (loop, input, output, custom), convolution, "
                      "data formatting (transpose, copy, reshape), non-fusion elementwise, or the opcode")},
         [](Row r) { return QVariant(q(r->category)); }},
        {{QObject::tr("HLO op"), ColumnKind::Text, QObject::tr("The HLO instruction the device activities ran")},
         [](Row r) { return QVariant(q(r->name)); }},
        {{QObject::tr("Occurrences"), ColumnKind::Integer,
          QObject::tr("Device activities (kernels, copies) that carry this op, as XProf counts them")},
         [](Row r) { return QVariant(qint64(r->metrics.occurrences)); }},
        {{QObject::tr("Time"), ColumnKind::Duration, QObject::tr("Total device time of its activities")},
         [](Row r) { return QVariant(qint64(r->metrics.timeNs)); }},
        {{QObject::tr("Time %"), ColumnKind::Percent,
          QObject::tr("Of the profile's device time: per device, first to last activity, summed (idle included)")},
         [](Row r) { return QVariant(100.0 * r->timeFraction); }},
        {{QObject::tr("GFLOP/s"), ColumnKind::Real,
          QObject::tr("FLOPs (XLA's cost analysis, per execution x occurrences) over device time; empty when "
                      "XLA does not know the op's cost")},
         [](Row r) {
             return r->costPerExecution.known() ? QVariant(r->metrics.flopsPerSecond() / 1e9) : QVariant();
         }},
        {{QObject::tr("FLOP util %"), ColumnKind::Percent, QObject::tr("GFLOP/s over the device's peak FLOP rate")},
         [](Row r) { return r->costPerExecution.known() ? QVariant(100.0 * r->flopsUtilization) : QVariant(); }},
        {{QObject::tr("GiB/s"), ColumnKind::Real,
          QObject::tr("Bytes accessed (XLA: operands read + results written) over device time")},
         [](Row r) { return QVariant(r->metrics.bytesPerSecond() / double(1ull << 30)); }},
        {{QObject::tr("HBM util %"), ColumnKind::Percent,
          QObject::tr("Bandwidth over the device's memory bandwidth (above 100 % when XLA's byte count exceeds "
                      "what the kernels moved, e.g. an op split into several kernels)")},
         [](Row r) { return QVariant(100.0 * r->hbmUtilization); }},
        {{QObject::tr("FLOP/byte"), ColumnKind::Real, QObject::tr("Operational intensity: FLOPs per byte accessed")},
         [](Row r) { return QVariant(r->metrics.operationalIntensity()); }},
        {{QObject::tr("Bound by"), ColumnKind::Text,
          QObject::tr("The resource with the higher utilisation, compute or HBM (XProf's rule); Unknown without a "
                      "known cost")},
         [](Row r) { return QVariant(QString::fromLatin1(hloBoundName(r->bound))); }},
        {{QObject::tr("Wasted %"), ColumnKind::Percent,
          QObject::tr("XProf's wasted time: time % x (1 - the higher utilisation); sort by it to find the ops "
                      "that cost the most for what they achieve")},
         [](Row r) { return QVariant(100.0 * r->wastedTimeFraction); }},
        {{QObject::tr("Framework op"), ColumnKind::Text, QObject::tr("The JAX/TensorFlow op it came from (op_name)")},
         [](Row r) { return QVariant(r->op ? q(r->op->metadata().op_name()) : QString()); }},
        {{QObject::tr("Source"), ColumnKind::Text, QObject::tr("Source file and line of the op (HLO metadata)")},
         [](Row r) {
             return QVariant(r->op ? q(r->program->sourceOf(*r->op)) : QString());
         }},
    };
}

using Buffer = const HloLiveBuffer*;

std::vector<RowTableModel<Buffer>::Column> bufferColumns() {
    return {
        {{QObject::tr("Size"), ColumnKind::Bytes, QObject::tr("The buffer's size (a whole-run allocation's: the allocation's)")},
         [](Buffer b) { return QVariant(qint64(b->bytes)); }},
        {{QObject::tr("Kind"), ColumnKind::Text,
          QObject::tr("parameter / output (live for the whole run), constant, or temporary (in the heap simulation)")},
         [](Buffer b) { return QVariant(QString::fromLatin1(hloBufferKindName(b->kind))); }},
        {{QObject::tr("HLO instruction"), ColumnKind::Text, QObject::tr("The instruction that defines the buffer {shape index}")},
         [](Buffer b) { return QVariant(q(b->instruction)); }},
        {{QObject::tr("Shape"), ColumnKind::Text, {}}, [](Buffer b) { return QVariant(q(b->shape)); }},
        {{QObject::tr("Op"), ColumnKind::Text, QObject::tr("The instruction's opcode")}, [](Buffer b) { return QVariant(q(b->opcode)); }},
        {{QObject::tr("Framework op"), ColumnKind::Text, {}}, [](Buffer b) { return QVariant(q(b->frameworkOp)); }},
        {{QObject::tr("Source"), ColumnKind::Text, {}}, [](Buffer b) { return QVariant(q(b->source)); }},
    };
}

}  // namespace

XlaOpsView::XlaOpsView(QWidget* parent) : AnalysisView(parent) {
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    summary_ = new WrappingLabel(content);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    layout->addWidget(partialTraceNote());
    tabs_ = new QTabWidget(content);
    table_ = new TablePage(tabs_);
    table_->setFilterColumns({Program, Category, Op, FrameworkOp}, tr("Filter by program, category, op or framework op"));
    table_->setExportName(QStringLiteral("hlo_ops.csv"));
    table_->setElasticColumn(Op, 210);
    table_->addShrinkableColumn(FrameworkOp, 80);
    table_->addShrinkableColumn(Source, 70);
    table_->addShrinkableColumn(Program, 90);
    table_->addShrinkableColumn(Category, 100);
    model_ = new Model(opColumns(), this);
    model_->setCellToolTip(Op, [](Row r) {
        if (!r->op) return tr("Not in the program's HLO");
        QString text = QStringLiteral("%1 = %2 %3").arg(q(r->name), q(shapeText(r->op->shape())), q(r->op->opcode()));
        if (!r->op->custom_call_target().empty()) text += QStringLiteral(" (%1)").arg(q(r->op->custom_call_target()));
        const HloCost& c = r->costPerExecution;
        text += tr("\nPer execution: %1 FLOPs, %2 bytes accessed").arg(QString::number(c.flops, 'g', 6), QString::number(c.bytesAccessed, 'g', 6));
        if (!c.known()) text += tr("\nXLA's cost analysis does not know this op's cost");
        return text;
    });
    model_->setCellToolTip(Source, [](Row r) { return r->op ? q(r->program->sourceStack(*r->op)) : QString(); });
    table_->setSourceModel(model_, Time);
    tabs_->addTab(table_, tr("Op Profile"));
    chart_ = new RooflineChart(tabs_);
    tabs_->addTab(chart_, tr("Roofline"));
    auto* memory = new QWidget(tabs_);
    auto* memoryLayout = new QVBoxLayout(memory);
    memoryLayout->setContentsMargins(0, 4, 0, 0);
    memorySummary_ = new WrappingLabel(memory);
    memoryLayout->addWidget(memorySummary_);
    memoryTable_ = new TablePage(memory);
    memoryProgram_ = new QComboBox(memoryTable_);
    memoryProgram_->setToolTip(tr("The XLA program whose memory view is shown"));
    memoryTable_->addToolbarWidget(memoryProgram_);
    memoryTable_->setFilterColumns({2, 5}, tr("Filter by instruction or framework op"));
    memoryTable_->setExportName(QStringLiteral("hlo_memory.csv"));
    memoryTable_->setElasticColumn(2, 200);
    memoryTable_->addShrinkableColumn(5, 120);
    memoryModel_ = new RowTableModel<Buffer>(bufferColumns(), this);
    memoryTable_->setSourceModel(memoryModel_, 0);
    memoryLayout->addWidget(memoryTable_, 1);
    tabs_->addTab(memory, tr("Memory"));
    connect(memoryProgram_, &QComboBox::currentIndexChanged, this, &XlaOpsView::showMemoryOf);

    auto* graphTab = new QWidget(tabs_);
    auto* graphLayout = new QVBoxLayout(graphTab);
    graphLayout->setContentsMargins(0, 4, 0, 0);
    auto* graphBar = new QHBoxLayout();
    graphTitle_ = new WrappingLabel(graphTab);
    graphTitle_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    graphBar->addWidget(graphTitle_, 1);
    graphBar->addWidget(new QLabel(tr("Hops:"), graphTab));
    radius_ = new QSpinBox(graphTab);
    radius_->setRange(1, 32);
    radius_->setValue(2);
    radius_->setToolTip(tr("How many operand/user steps around the instruction the graph shows"));
    graphBar->addWidget(radius_);
    inside_ = new QCheckBox(tr("Inside the fusion"), graphTab);
    inside_->setToolTip(tr("For a fusion: show its fused computation instead of its neighbours"));
    graphBar->addWidget(inside_);
    graphLayout->addLayout(graphBar);
    graph_ = new PipelineGraphView(graphTab);
    graphLayout->addWidget(graph_, 1);
    tabs_->addTab(graphTab, tr("Graph"));
    connect(radius_, &QSpinBox::valueChanged, this, &XlaOpsView::redrawGraph);
    connect(inside_, &QCheckBox::toggled, this, &XlaOpsView::redrawGraph);
    connect(graph_, &PipelineGraphView::nodeClicked, this, &XlaOpsView::graphNodeClicked);
    // The graph follows the table's current op.
    connect(table_->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        const int row = table_->currentSourceRow();
        if (computed_ && row >= 0 && row < model_->rowCount() && model_->row(row)->op)
            showGraph(model_->row(row)->program, model_->row(row)->op);
    });
    connect(tabs_, &QTabWidget::currentChanged, this, &XlaOpsView::refreshShownTab);
    layout->addWidget(tabs_, 1);
    setContent(content);
    connect(table_, &TablePage::sourceRowActivated, this, &XlaOpsView::activateRow);
}

void XlaOpsView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    // The parsed HLO takes a few times its wire size; the rows one slice reference per activity.
    uint64_t bytes = 0;
    for (const XlaProgramBlob& p : trace->xlaPrograms) bytes += 4 * p.hloProto.size();
    bytes += trace->counts().slices * 4;
    run<Computed>(
        AnalysisCost{"XLA op profile", bytes}, {"xla-ops-page", ""},
        [](ResultStore& results) {
            Computed c;
            c.profile = hloOpProfileOf(results);
            c.roofline = computeRoofline(c.profile->profile);
            for (const HloProgramRow& p : c.profile->profile.programs) c.memory.push_back(hloMemoryOf(results, *p.program));
            for (size_t row = 0; row < c.profile->profile.ops.size(); ++row)
                c.rowOfActivity.add(c.profile->profile.ops[row].activities, uint32_t(row));
            c.rowOfActivity.finish();
            return c;
        },
        [this](std::shared_ptr<const Computed> c) {
            computed_ = std::move(c);
            const HloOpProfile& p = computed_->profile->profile;
            QString notes;
            for (const std::string& n : p.notes) notes += QStringLiteral("<br><i>%1</i>").arg(q(n).toHtmlEscaped());
            for (const std::string& n : computed_->profile->programs->problems)
                notes += QStringLiteral("<br><i>%1</i>").arg(q(n).toHtmlEscaped());
            if (p.programs.empty()) {
                const std::vector<std::string>& unread = computed_->profile->programs->problems;
                QString why;
                for (const std::string& n : unread) why += QLatin1Char('\n') + q(n);
                showEmptyResult(unread.empty() ? tr("No XLA programs in this trace: the HLO op profile needs an XSpace "
                                                    "from JAX, TensorFlow/XLA or PyTorch/XLA.")
                                               : tr("No XLA program of this trace could be read:") + why);
                return;
            }
            std::vector<Row> rows;
            for (const HloOpRow& r : p.ops) rows.push_back(&r);
            model_->setRows(std::move(rows));
            table_->view()->sortByColumn(Time, Qt::DescendingOrder);
            // One program on the device (the usual case): the summary names it, its column goes.
            std::set<const HloProgram*> ran;
            for (const HloOpRow& r : p.ops) ran.insert(r.program);
            table_->setColumnShown(Program, ran.size() > 1);
            table_->fitColumns(220);
            rooflineStale_ = true;
            {
                const QSignalBlocker block(memoryProgram_);
                memoryProgram_->clear();
                for (const auto& m : computed_->memory)
                    if (m->program)
                        memoryProgram_->addItem(tr("%1: peak %2").arg(q(m->program->displayName()), formatBytes(m->view.peakBytes)));
            }
            showMemoryOf(0);
            graphCenter_ = nullptr;
            for (const HloOpRow& r : p.ops)
                if (r.op) {
                    showGraph(r.program, r.op);
                    break;
                }
            refreshShownTab();
            const RooflineResult& roof = computed_->roofline;
            const double opTime = double(roof.memoryRegionNs + roof.computeRegionNs + roof.unknownNs);
            QString device = p.peaks.peakFlopsPerSecond > 0
                                 ? tr("%1: peak %2 TFLOP/s, %3 GB/s, ridge point %4 FLOP/byte")
                                       .arg(q(p.peaks.device).toHtmlEscaped())
                                       .arg(p.peaks.peakFlopsPerSecond / 1e12, 0, 'f', 1)
                                       .arg(p.peaks.peakHbmBytesPerSecond / 1e9, 0, 'f', 0)
                                       .arg(p.peaks.ridgePoint(), 0, 'f', 1)
                                 : tr("device peaks unknown");
            summary_->setText(
                tr("<b>%1</b> %2, <b>%3</b> HLO ops ran on the device for <b>%4</b> of <b>%5</b> "
                   "(idle %6). %7.")
                    .arg(p.programs.size())
                    .arg(p.programs.size() == 1 ? tr("XLA program") : tr("XLA programs"))
                    .arg(p.ops.size())
                    .arg(formatDuration(p.totalNs - p.idleNs), formatDuration(p.totalNs), formatDuration(p.idleNs), device) +
                (opTime > 0 ? tr(" Op time on the memory side of the ridge: <b>%1</b>, compute side: <b>%2</b>, "
                                 "unknown cost: %3.")
                                  .arg(formatPercent(100.0 * double(roof.memoryRegionNs) / opTime),
                                       formatPercent(100.0 * double(roof.computeRegionNs) / opTime),
                                       formatPercent(100.0 * double(roof.unknownNs) / opTime))
                            : QString()) +
                tr(" Double-click an op to highlight its activities in the timeline.") + notes);
        });
}

QStringList XlaOpsView::tabIds() {
    return {QStringLiteral("hlo-ops"), QStringLiteral("roofline"), QStringLiteral("memory-view"), QStringLiteral("hlo-graph")};
}

bool XlaOpsView::showPart(const QString& id) {
    const int tab = int(tabIds().indexOf(id));
    if (tab < 0) return false;
    tabs_->setCurrentIndex(tab);
    return true;
}

QString XlaOpsView::summaryText() const { return summary_->text(); }

QString XlaOpsView::memorySummaryText() const { return memorySummary_->text(); }

int XlaOpsView::rowOf(const HloProgram* program, const std::string& op) const {
    for (int row = 0; row < model_->rowCount(); ++row)
        if (model_->row(row)->program == program && model_->row(row)->name == op) return row;
    return -1;
}

void XlaOpsView::showGraph(const HloProgram* program, const xla::HloInstructionProto* op) {
    if (program == graphProgram_ && op == graphCenter_) return;
    graphProgram_ = program;
    graphCenter_ = op;
    {
        const QSignalBlocker block(inside_);
        inside_->setChecked(false);
    }
    inside_->setEnabled(op && op->opcode() == "fusion");
    redrawGraph();
}

void XlaOpsView::refreshShownTab() {
    const QWidget* shown = tabs_->currentWidget();
    if (shown == chart_ && rooflineStale_) {
        rooflineStale_ = false;
        if (computed_) chart_->setRoofline(computed_->roofline);
    }
    if (shown == graph_->parentWidget() && graphStale_) redrawGraph();
}

void XlaOpsView::redrawGraph() {
    if (tabs_->currentWidget() != graph_->parentWidget()) {
        graphStale_ = true;  // drawn when its tab is shown
        return;
    }
    graphStale_ = false;
    graphNodes_.clear();
    if (!computed_ || !graphProgram_ || !graphCenter_) {
        graph_->setGraph({}, {});
        graphTitle_->clear();
        return;
    }
    std::unordered_map<std::string, TimeNs> timeOf;
    for (const HloOpRow& r : computed_->profile->profile.ops)
        if (r.program == graphProgram_) timeOf[r.name] = r.metrics.timeNs;
    const bool inside = inside_->isChecked() && graphCenter_->opcode() == "fusion";
    const HloGraph g = inside ? hloFusedGraph(*graphProgram_, *graphCenter_, timeOf)
                              : hloNeighbourhood(*graphProgram_, *graphCenter_, radius_->value(), timeOf);
    TimeNs maxTime = 0;
    for (const HloGraphNode& n : g.nodes) maxTime = std::max(maxTime, n.timeNs);
    std::vector<PipelineGraphNode> nodes;
    for (const HloGraphNode& n : g.nodes) {
        PipelineGraphNode v;
        v.title = q(n.op->name());
        v.lines << q(n.op->opcode() + " " + shapeText(n.op->shape()));
        if (n.timeNs > 0) v.lines << tr("device time %1").arg(formatDuration(n.timeNs));
        if (n.truncated) v.lines << tr("(more beyond)");
        v.toolTip = q(graphProgram_->sourceStack(*n.op));
        v.style = n.critical ? PipelineGraphNode::Style::Bottleneck : PipelineGraphNode::Style::Blocking;
        if (n.timeNs > 0 && maxTime > 0) {
            // Warmer the more device time, over the page's base colour.
            QColor heat(0xff, 0x98, 0x00);
            heat.setAlphaF(0.15 + 0.6 * double(n.timeNs) / double(maxTime));
            const QColor base = palette().color(QPalette::Base);
            const double a = heat.alphaF();
            v.fill = QColor::fromRgbF(base.redF() * (1 - a) + heat.redF() * a, base.greenF() * (1 - a) + heat.greenF() * a,
                                      base.blueF() * (1 - a) + heat.blueF() * a);
        }
        nodes.push_back(std::move(v));
        graphNodes_.push_back(n.op);
    }
    std::vector<PipelineGraphEdge> edges;
    for (size_t e = 0; e < g.edges.size(); ++e)
        edges.push_back({g.edges[e].second, g.edges[e].first, e < g.criticalEdge.size() && g.criticalEdge[e] != 0});
    graph_->setGraph(std::move(nodes), std::move(edges));
    for (size_t k = 0; k < g.nodes.size(); ++k)
        if (g.nodes[k].center) graph_->setSelectedNode(int(k));
    graphTitle_->setText(tr("<b>%1</b> in %2 of %3: %4 instructions%5. In red: the chain of operands with the most device "
                            "time. Click an instruction for its activities and row.")
                             .arg(q(graphCenter_->name()).toHtmlEscaped(), q(g.computation).toHtmlEscaped(),
                                  q(graphProgram_->displayName()).toHtmlEscaped())
                             .arg(g.nodes.size())
                             .arg(g.capped ? tr(" (the first %1)").arg(kHloGraphMaxNodes) : QString()));
}

void XlaOpsView::graphNodeClicked(int node) {
    if (node < 0 || size_t(node) >= graphNodes_.size() || !graphProgram_) return;
    const int row = rowOf(graphProgram_, graphNodes_[size_t(node)]->name());
    graph_->setSelectedNode(node);
    if (row < 0) return;
    table_->selectSourceRow(row);  // moves the graph's centre to it too
    activateRow(row);
}

void XlaOpsView::showMemoryOf(int program) {
    if (!computed_ || program < 0 || size_t(program) >= computed_->memory.size() || !computed_->memory[size_t(program)]->program) {
        memoryModel_->setRows({});
        memorySummary_->clear();
        return;
    }
    const HloMemoryResult& m = *computed_->memory[size_t(program)];
    const HloMemoryView& v = m.view;
    std::vector<Buffer> rows;
    for (const HloLiveBuffer& b : v.liveAtPeak) rows.push_back(&b);
    memoryModel_->setRows(std::move(rows));
    memoryTable_->view()->sortByColumn(0, Qt::DescendingOrder);
    memoryTable_->fitColumns(260);
    QString notes;
    for (const std::string& n : v.notes) notes += QStringLiteral(" <i>%1</i>").arg(q(n).toHtmlEscaped());
    memorySummary_->setText(
        v.available ? tr("<b>%1</b>: peak heap <b>%2</b> = %3 at the peak of XLA's heap simulation (event %4 of %5) + "
                         "%6 live for the whole run (parameters %7, results that may live out %8). All buffer "
                         "allocations: %9. The buffers live at the peak:")
                          .arg(q(m.program->displayName()).toHtmlEscaped(), formatBytes(v.peakBytes),
                               formatBytes(v.simulatedPeakBytes))
                          .arg(v.peakEvent)
                          .arg(v.heapBytes.empty() ? 0 : v.heapBytes.size() - 1)
                          .arg(formatBytes(v.wholeRunBytes), formatBytes(v.parameterBytes), formatBytes(v.liveOutBytes),
                               formatBytes(v.totalAllocationBytes)) +
                          notes
                    : tr("%1 has no buffer assignment in its HLO.").arg(q(m.program->displayName()).toHtmlEscaped()));
}

void XlaOpsView::clearResult() {
    computed_.reset();
    rooflineStale_ = false;
    graphStale_ = false;
    graphProgram_ = nullptr;
    graphCenter_ = nullptr;
    graphNodes_.clear();
    graph_->setGraph({}, {});
    graphTitle_->clear();
    model_->setRows({});
    memoryModel_->setRows({});
    memoryProgram_->clear();
    memorySummary_->clear();
    chart_->clear();
    summary_->clear();
}

void XlaOpsView::activateRow(int row) {
    if (!computed_ || !selection_ || row < 0 || row >= model_->rowCount()) return;
    const HloOpRow* r = model_->row(row);
    if (r->activities.empty()) return;
    selection_->highlightSlices(r->activities, tr("%1: %2 activities").arg(q(r->name)).arg(r->activities.size()));
}

void XlaOpsView::selectSlice(SliceRef slice) {
    if (!computed_) return;
    const std::optional<uint32_t> row = computed_->rowOfActivity.rowOf(slice);
    if (!row) return;
    // Model rows are the profile's rows in order.
    table_->selectSourceRow(int(*row));
}

}  // namespace tracescope
