#include "views/pipeline/tf_data_view.h"

#include "model/results/trace_results.h"
#include "views/partial_trace_note.h"
#include "views/pipeline/pipeline_graph_legend.h"
#include "views/pipeline/pipeline_graph_view.h"
#include "views/pipeline/tf_data_details.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <map>

namespace tracescope {

namespace {

using Row = TfDataView::PipelineRow;

QString q(const std::string& s) { return QString::fromStdString(s); }

std::vector<RowTableModel<Row>::Column> columns() {
    return {
        {{QObject::tr("Host"), ColumnKind::Text, {}}, [](const Row& r) { return QVariant(r.host); }},
        {{QObject::tr("Input pipeline"), ColumnKind::Text, {}}, [](const Row& r) { return QVariant(r.name); }},
        {{QObject::tr("Kind"), ColumnKind::Text,
          QObject::tr("host: a tf.data pipeline; device: a distribution strategy's per-device prefetch")},
         [](const Row& r) { return QVariant(r.kind); }},
        {{QObject::tr("Min latency"), ColumnKind::Duration, QObject::tr("Shortest call of the root iterator")},
         [](const Row& r) { return QVariant(r.minNs); }},
        {{QObject::tr("Avg latency"), ColumnKind::Duration, {}},
         [](const Row& r) { return QVariant(qint64(r.avgNs)); }},
        {{QObject::tr("Max latency"), ColumnKind::Duration, QObject::tr("Slowest call of the root iterator")},
         [](const Row& r) { return QVariant(r.maxNs); }},
        {{QObject::tr("Calls"), ColumnKind::Integer, QObject::tr("Calls of the root iterator (GetNext)")},
         [](const Row& r) { return QVariant(r.calls); }},
        {{QObject::tr("Slow calls"), ColumnKind::Integer, QObject::tr("Calls longer than 50 µs")},
         [](const Row& r) { return QVariant(r.slowCalls); }},
        {{QObject::tr("Bottleneck"), ColumnKind::Text, QObject::tr("Of the slowest call")},
         [](const Row& r) { return QVariant(r.bottleneck); }},
        {{QObject::tr("Bottleneck self time"), ColumnKind::Duration, QObject::tr("In the slowest call")},
         [](const Row& r) { return QVariant(r.bottleneckSelfNs); }},
    };
}

QGroupBox* titled(const QString& title, QWidget* parent) {
    auto* b = new QGroupBox(title, parent);
    b->setStyleSheet(QStringLiteral("QGroupBox { font-weight: bold; } QGroupBox * { font-weight: normal; }"));
    return b;
}

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

}  // namespace

TfDataView::TfDataView(QWidget* parent) : AnalysisView(parent) {
    // The summary quotes the step input %, over the steps the other step pages use.
    followStepChoice();
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    notes_ = new QLabel(content);
    notes_->setObjectName(QStringLiteral("TfDataNotes"));
    notes_->setTextFormat(Qt::RichText);
    styleAsPageNote(notes_);
    notes_->hide();
    layout->addWidget(notes_);
    summary_ = new WrappingLabel(content);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    suggestion_ = new WrappingLabel(content);
    suggestion_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(suggestion_);
    layout->addWidget(partialTraceNote());

    auto* split = new QSplitter(Qt::Vertical, content);
    split->setChildrenCollapsible(false);

    QGroupBox* pipelines = titled(tr("Input pipelines"), split);
    auto* pl = new QVBoxLayout(pipelines);
    table_ = new TablePage(pipelines);
    model_ = new RowTableModel<Row>(columns(), this);
    table_->setSourceModel(model_, Max, Qt::DescendingOrder);
    table_->setFilterColumns({Host, Pipeline, Bottleneck}, tr("Filter pipelines"));
    table_->setExportName(QStringLiteral("tf_data_pipelines.csv"));
    table_->setElasticColumn(Bottleneck, 160);
    pl->addWidget(table_);
    split->addWidget(pipelines);

    QGroupBox* graphBox = titled(tr("Pipeline graph"), split);
    auto* gl = new QVBoxLayout(graphBox);
    auto* controls = new QHBoxLayout;
    host_ = new QComboBox(graphBox);
    host_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    pipeline_ = new QComboBox(graphBox);
    pipeline_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    rank_ = new QSpinBox(graphBox);
    rank_->setPrefix(QStringLiteral("#"));
    rank_->setToolTip(tr("The root iterator's calls (its GetNext), slowest first: #0 is the slowest"));
    callInfo_ = new WrappingLabel(graphBox);  // wraps instead of pushing the zoom buttons out of a narrow window
    controls->addWidget(new QLabel(tr("Host"), graphBox));
    controls->addWidget(host_);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("Pipeline"), graphBox));
    controls->addWidget(pipeline_);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("Call"), graphBox));
    controls->addWidget(rank_);
    controls->addWidget(callInfo_, 1);
    QToolButton* out = toolButton(QStringLiteral("−"), tr("Zoom out (-, Ctrl+wheel)"), graphBox);
    QToolButton* reset = toolButton(QStringLiteral("100 %"), tr("Actual size (0)"), graphBox);
    QToolButton* in = toolButton(QStringLiteral("+"), tr("Zoom in (+, Ctrl+wheel)"), graphBox);
    QToolButton* fit = toolButton(tr("Fit"), tr("The whole graph in view"), graphBox);
    controls->addWidget(out);
    controls->addWidget(reset);
    controls->addWidget(in);
    controls->addWidget(fit);
    gl->addLayout(controls);
    gl->addWidget(new PipelineGraphLegend(graphBox));
    // What the figures in a box are, and why they can look inconsistent.
    auto* figures = new WrappingLabel(
        tr("Each box: the iterator's events in this call, summed. Self: their time less what their input iterators "
           "overlapped. An asynchronous iterator's input (below Prefetch, ParallelMap, ...) runs on other threads, "
           "so its total can exceed its parent's; a negative start is time before the call began, work done ahead."),
        graphBox);
    figures->setObjectName(QStringLiteral("TfDataFigures"));
    gl->addWidget(figures);
    graph_ = new PipelineGraphView(graphBox);
    gl->addWidget(graph_, 1);
    auto* hint = new QLabel(tr("Click a box to select its events in the timeline and see its figures in Details. "
                               "Drag to pan; Ctrl+wheel to zoom."),
                            graphBox);
    hint->setEnabled(false);
    gl->addWidget(hint);
    split->addWidget(graphBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 4);
    split->setSizes({170, 830});  // a few table rows; the graph gets the room
    layout->addWidget(split, 1);
    setContent(content);

    connect(out, &QToolButton::clicked, graph_, &PipelineGraphView::zoomOut);
    connect(in, &QToolButton::clicked, graph_, &PipelineGraphView::zoomIn);
    connect(reset, &QToolButton::clicked, graph_, &PipelineGraphView::resetZoom);
    connect(fit, &QToolButton::clicked, graph_, &PipelineGraphView::fitToView);
    connect(graph_, &PipelineGraphView::zoomChanged, reset,
            [reset](double z) { reset->setText(QString::number(qRound(z * 100)) + QStringLiteral(" %")); });
    connect(graph_, &PipelineGraphView::nodeClicked, this, &TfDataView::activateNode);
    connect(host_, &QComboBox::currentIndexChanged, this, [this] {
        if (updating_) return;
        fillPipelineCombo(host_->currentText());
        if (pipeline_->count()) showPipeline(pipeline_->itemData(0).toInt(), 0);
    });
    connect(pipeline_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!updating_ && i >= 0) showPipeline(pipeline_->itemData(i).toInt(), 0);
    });
    connect(rank_, &QSpinBox::valueChanged, this, [this](int r) {
        if (!updating_ && shownPipeline_ >= 0) showPipeline(shownPipeline_, r);
    });
    connect(table_->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        if (updating_) return;
        const int row = table_->currentSourceRow();
        if (row >= 0 && row < model_->rowCount()) showPipeline(int(model_->row(row).index), 0);
    });
}

void TfDataView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    const StepOptions options = stepOptions();
    run<TfDataResult>(
        estimateAnalysisCost(AnalysisKind::TfData, *trace), {"tf-data-page", stepOptionsKey(options)},
        [options](ResultStore& results) {
            analysisStep("Reading tf.data iterators", 0, 1);
            return computeTfData(*classificationOf(results), options);
        },
        [this](std::shared_ptr<const TfDataResult> r) {
            result_ = std::move(r);
            showResult();
        });
}

void TfDataView::setSelection(TraceSelection* selection) {
    AnalysisView::setSelection(selection);
    if (!selection) return;
    selection->addAnnotator(this, [this](SliceRef slice) -> std::vector<DetailsItem> {
        const std::shared_ptr<const Trace>& t = trace();
        if (!result_ || !t) return {};
        return tfDataEventAnnotation(
            *t, *result_, slice, [this](size_t pipeline, size_t rank, uint64_t id) { showBox(pipeline, rank, id); });
    });
}

void TfDataView::clearResult() {
    result_.reset();
    notes_->clear();
    notes_->hide();
    model_->setRows({});
    graph_->setGraph({}, {});
    nodeIds_.clear();
    nodeTips_.clear();
    shownPipeline_ = shownRank_ = -1;
}

void TfDataView::showResult() {
    const TfDataResult& r = *result_;
    if (r.pipelines.empty()) {
        showEmptyResult(q(r.summary.text));
        return;
    }
    // Above the summary: the bottleneck below may be computed from less than the run recorded.
    QStringList notes;
    for (const std::string& n : r.notes) notes << QStringLiteral("⚠ ") + q(n).toHtmlEscaped();
    notes_->setText(notes.join(QStringLiteral("<br>")));
    notes_->setVisible(!notes.isEmpty());
    summary_->setText(
        QStringLiteral("<b>%1</b> %2")
            .arg(r.summary.slowPipeline ? tr("Input-bound:") : tr("tf.data:"), q(r.summary.text).toHtmlEscaped()));
    suggestion_->setVisible(!r.summary.suggestion.empty());
    suggestion_->setText(tr("<b>Suggestion:</b> %1").arg(q(r.summary.suggestion).toHtmlEscaped()));

    std::vector<Row> rows;
    for (size_t i = 0; i < r.pipelines.size(); ++i) {
        const TfDataPipeline& p = r.pipelines[i];
        Row row;
        row.index = i;
        row.host = q(p.host);
        row.name = q(p.name);
        row.kind = QString::fromUtf8(tfDataPipelineKindName(p.kind));
        row.minNs = p.minNs;
        row.maxNs = p.maxNs;
        row.avgNs = p.avgNs;
        row.calls = qint64(p.calls.size());
        row.slowCalls = qint64(p.slowCalls);
        if (!p.calls.empty())
            if (const TfDataIterator* it = p.iterator(p.calls.front().bottleneckId)) {
                row.bottleneck = q(it->longName);
                row.bottleneckSelfNs = p.calls.front().bottleneckSelfNs;
            }
        rows.push_back(std::move(row));
    }
    updating_ = true;
    model_->setRows(std::move(rows));
    table_->view()->sortByColumn(Max, Qt::DescendingOrder);
    table_->fitColumns(420);
    host_->clear();
    std::vector<std::string> hosts;
    for (const auto& p : r.pipelines)
        if (std::find(hosts.begin(), hosts.end(), p.host) == hosts.end()) hosts.push_back(p.host);
    for (const auto& h : hosts) host_->addItem(q(h));
    updating_ = false;
    const int worst = r.bottlenecks.empty() ? 0 : int(r.bottlenecks.front().pipeline);
    showPipeline(worst, 0);
}

void TfDataView::fillPipelineCombo(const QString& host) {
    const bool was = updating_;
    updating_ = true;
    pipeline_->clear();
    if (result_)
        for (size_t i = 0; i < result_->pipelines.size(); ++i) {
            const TfDataPipeline& p = result_->pipelines[i];
            if (q(p.host) != host) continue;
            pipeline_->addItem(
                tr("%1 (%2, max %3)")
                    .arg(q(p.name), QString::fromUtf8(tfDataPipelineKindName(p.kind)), formatDuration(p.maxNs)),
                int(i));
        }
    updating_ = was;
}

void TfDataView::showPipeline(int pipeline, int rank) {
    if (!result_ || pipeline < 0 || pipeline >= int(result_->pipelines.size())) return;
    const TfDataPipeline& p = result_->pipelines[size_t(pipeline)];
    const bool was = updating_;
    updating_ = true;
    host_->setCurrentText(q(p.host));
    fillPipelineCombo(q(p.host));
    pipeline_->setCurrentIndex(pipeline_->findData(pipeline));
    rank_->setRange(0, std::max(0, int(p.calls.size()) - 1));
    rank = std::clamp(rank, 0, std::max(0, int(p.calls.size()) - 1));
    rank_->setValue(rank);
    for (int row = 0; row < model_->rowCount(); ++row)
        if (int(model_->row(row).index) == pipeline && table_->currentSourceRow() != row) table_->selectSourceRow(row);
    updating_ = was;
    shownPipeline_ = pipeline;
    shownRank_ = p.calls.empty() ? -1 : rank;
    showGraph();
}

void TfDataView::showGraph() {
    nodeIds_.clear();
    nodeTips_.clear();
    if (!result_ || shownPipeline_ < 0 || shownRank_ < 0) {
        graph_->setGraph({}, {});
        callInfo_->clear();
        return;
    }
    const TfDataPipeline& p = result_->pipelines[size_t(shownPipeline_)];
    const TfDataCall& call = p.calls[size_t(shownRank_)];
    const QString callName = tfDataCallName(size_t(shownRank_), p.calls.size());
    callInfo_->setText(tr("of %1, slowest first: this call took %2. Boxes: its iterators in this call.")
                           .arg(p.calls.size())
                           .arg(formatDuration(call.durationNs)));
    std::vector<PipelineGraphNode> nodes;
    std::map<uint64_t, int> nodeOf;
    for (const TfDataIteratorStat& s : call.iterators) {
        const TfDataIterator* it = p.iterator(s.id);
        PipelineGraphNode n;
        n.title = it ? q(it->label) : QString::number(s.id);
        const TimeNs offset = s.startNs - call.startNs;
        const QString start = offset < 0 ? QStringLiteral("start −%1").arg(formatDuration(-offset))
                                         : QStringLiteral("start +%1").arg(formatDuration(offset));
        const QString events = s.calls == 1
                                   ? tr("1 event")
                                   : tr("%1 events").arg(formatCount(qint64(std::min<uint64_t>(s.calls, INT64_MAX))));
        n.lines = {tr("total %1 · self %2").arg(formatDuration(s.totalNs), formatDuration(s.selfNs)),
                   tr("%1 · %2").arg(start, events)};
        n.style = s.id == call.bottleneckId ? PipelineGraphNode::Style::Bottleneck
                  : s.blocking              ? PipelineGraphNode::Style::Blocking
                                            : PipelineGraphNode::Style::NonBlocking;
        // The figures' scope first: they differ from any one event's details.
        n.toolTip =
            tr("%1 in %2: %3 summed\n%4\nid %5%6\ntotal %7 · self %8 (less its input iterators' overlap)\n"
               "%9 from the call's start%10\n%11\nClick: these events in the timeline, the figures "
               "in Details")
                .arg(n.title, callName, events, it ? q(it->longName) : QString(), QString::number(s.id),
                     it && it->isAsync ? tr(" (asynchronous: its input runs on other threads)") : QString(),
                     formatDuration(s.totalNs), formatDuration(s.selfNs), start)
                .arg(s.aheadNs > 0 ? tr(" (%1 of it before the call began: done ahead)").arg(formatDuration(s.aheadNs))
                                   : QString(),
                     s.id == call.bottleneckId ? tr("The bottleneck of this call")
                     : s.blocking              ? tr("On the critical path: the call waited for it")
                                               : tr("Not blocking: its work did not overlap its consumer's call"));
        nodeTips_.push_back(n.toolTip);
        nodeOf[s.id] = int(nodes.size());
        nodes.push_back(std::move(n));
        nodeIds_.push_back(s.id);
    }
    std::vector<PipelineGraphEdge> edges;
    for (const TfDataIteratorStat& s : call.iterators) {
        const TfDataIterator* it = p.iterator(s.id);
        if (!it || !it->hasParent) continue;
        auto parent = nodeOf.find(it->parentId);
        if (parent == nodeOf.end()) continue;
        const TfDataIteratorStat* ps = call.stat(it->parentId);
        edges.push_back({parent->second, nodeOf[s.id], s.blocking && ps && ps->blocking});
    }
    graph_->setGraph(std::move(nodes), std::move(edges));
}

void TfDataView::activateNode(int node) {
    std::shared_ptr<const Trace> t = trace();
    if (!result_ || node < 0 || node >= int(nodeIds_.size()) || shownPipeline_ < 0 || shownRank_ < 0) return;
    graph_->setSelectedNode(node);
    if (!selection_) return;
    std::vector<SliceRef> events =
        tfDataEventsOf(*result_, size_t(shownPipeline_), size_t(shownRank_), nodeIds_[size_t(node)]);
    if (events.empty()) return;
    const TfDataIterator* it = result_->pipelines[size_t(shownPipeline_)].iterator(nodeIds_[size_t(node)]);
    const TfDataPipeline& p = result_->pipelines[size_t(shownPipeline_)];
    const QString label = tr("%1: %2 events in %3 of %4")
                              .arg(it ? q(it->label) : QString::number(nodeIds_[size_t(node)]))
                              .arg(events.size())
                              .arg(tfDataCallName(size_t(shownRank_), p.calls.size()), q(p.name));
    selection_->highlightSlices(std::move(events), label);
    // After the highlight, which shows the first event alone: the box's figures, with each event.
    if (t)
        selection_->showDetails(
            tfDataIteratorDetails(*t, *result_, size_t(shownPipeline_), size_t(shownRank_), nodeIds_[size_t(node)]));
}

void TfDataView::showBox(size_t pipeline, size_t rank, uint64_t id) {
    if (!result_ || pipeline >= result_->pipelines.size()) return;
    if (int(pipeline) != shownPipeline_ || int(rank) != shownRank_) showPipeline(int(pipeline), int(rank));
    for (size_t i = 0; i < nodeIds_.size(); ++i)
        if (nodeIds_[i] == id) activateNode(int(i));
}

QString TfDataView::nodeToolTip(int node) const {
    return node >= 0 && node < int(nodeTips_.size()) ? nodeTips_[size_t(node)] : QString();
}

void TfDataView::selectSlice(SliceRef slice) {
    if (!result_) return;
    const TfDataEventRef* e = tfDataEventAt(*result_, slice);
    if (!e) return;
    if (int(e->pipeline) != shownPipeline_ || int(e->call) != shownRank_) showPipeline(int(e->pipeline), int(e->call));
    for (size_t i = 0; i < nodeIds_.size(); ++i)
        if (nodeIds_[i] == e->iteratorId) graph_->setSelectedNode(int(i));
}

}  // namespace tracescope
