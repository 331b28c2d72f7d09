#include "views/flame/flame_view.h"

#include "model/export/call_stack_export.h"
#include "model/export/output_file.h"
#include "model/results/call_tree_results.h"
#include "model/results/trace_results.h"
#include "views/flame/flame_graph_widget.h"
#include "views/partial_trace_note.h"
#include "views/result_delivery.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace tracescope {

namespace {

using Item = FlameView::FrameItem;
using Model = RowTableModel<Item>;

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

std::vector<Model::Column> timeColumns() {
    return {
        {{QObject::tr("Occurrences"), ColumnKind::Integer, QObject::tr("Slices of this frame")},
         [](const Item& i) { return QVariant(qint64(i.row.count)); }},
        {{QObject::tr("Self"), ColumnKind::Duration, QObject::tr("Time in the frame when none of its callees runs")},
         [](const Item& i) { return QVariant(qint64(i.row.selfNs)); }},
        {{QObject::tr("Total"), ColumnKind::Duration,
          QObject::tr("Wall time of the frame's slices (a recursive frame counted once, at its outermost call)")},
         [](const Item& i) { return QVariant(qint64(i.row.totalNs)); }},
        {{QObject::tr("Device time"), ColumnKind::Duration,
          QObject::tr("Kernels, copies and memsets the frame and its callees launched")},
         [](const Item& i) { return QVariant(qint64(i.row.deviceNs)); }},
    };
}

std::vector<Model::Column> codeColumns() {
    std::vector<Model::Column> c = {
        {{QObject::tr("File"), ColumnKind::Text, QObject::tr("Python source file")},
         [](const Item& i) { return QVariant(i.file); }},
        {{QObject::tr("Line"), ColumnKind::Integer, {}},
         [](const Item& i) { return i.line > 0 ? QVariant(i.line) : QVariant(); }},
        {{QObject::tr("Function"), ColumnKind::Text, {}}, [](const Item& i) { return QVariant(i.function); }},
    };
    for (auto& t : timeColumns()) c.push_back(std::move(t));
    return c;
}

std::vector<Model::Column> frameColumns() {
    std::vector<Model::Column> c = {
        {{QObject::tr("Frame"), ColumnKind::Text, QObject::tr("The slice name"), true},
         [](const Item& i) { return QVariant(i.name); }},
    };
    for (auto& t : timeColumns()) c.push_back(std::move(t));
    return c;
}

enum CodeColumn { CodeFile, CodeLine, CodeFunction, CodeOccurrences, CodeSelf };
enum FrameColumn { FrameName, FrameOccurrences, FrameSelf };

QScrollArea* scrolled(QWidget* w, QWidget* parent) {
    auto* area = new QScrollArea(parent);
    area->setWidget(w);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return area;
}

}  // namespace

FlameView::FlameView(QWidget* parent) : AnalysisView(parent), delivery_(ResultDelivery::to(this)) {
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    summary_ = new WrappingLabel(content);
    summary_->setTextFormat(Qt::RichText);
    layout->addWidget(summary_);
    layout->addWidget(partialTraceNote());

    auto* bar = new QHBoxLayout;
    direction_ = new QComboBox(content);
    direction_->addItems({tr("Top-down"), tr("Bottom-up")});
    direction_->setToolTip(
        tr("Top-down: callers above their callees. Bottom-up: the frames where time is spent "
           "(self time) on the first row, their callers below."));
    metric_ = new QComboBox(content);
    metric_->addItems({tr("Wall time"), tr("Self time"), tr("Device time"), tr("Slices")});
    metric_->setToolTip(
        tr("What a frame's width measures: its slices' wall time; the self time at or under it "
           "(what flamegraph.pl draws); the device time it launched; its slices"));
    step_ = new QComboBox(content);
    step_->addItem(tr("Whole trace"));
    step_->setToolTip(tr("The whole trace, or one step (its slices cut at the step's ends)"));
    step_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    byThread_ = new QCheckBox(tr("Threads apart"), content);
    byThread_->setToolTip(tr("One root frame per thread instead of merging the threads' stacks"));
    search_ = new QLineEdit(content);
    search_->setPlaceholderText(tr("Search frames"));
    search_->setClearButtonEnabled(true);
    matched_ = new QLabel(content);
    auto* zoomOut = new QPushButton(tr("Zoom out"), content);
    auto* exportButton = new QToolButton(content);
    exportButton->setText(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(exportButton);
    exportMenu->addAction(tr("Folded stacks (flamegraph.pl, speedscope)…"), this, [this] { chooseExport(false); });
    exportMenu->addAction(tr("pprof profile (.pb.gz)…"), this, [this] { chooseExport(true); });
    exportButton->setMenu(exportMenu);
    bar->addWidget(new QLabel(tr("View:"), content));
    bar->addWidget(direction_);
    bar->addWidget(new QLabel(tr("Size by:"), content));
    bar->addWidget(metric_);
    bar->addWidget(step_);
    bar->addWidget(byThread_);
    search_->setMinimumWidth(220);
    bar->addWidget(search_, 1);
    // The share the matches hold: room for "Matched 88.9 ms (100 %)" beside the search box.
    matched_->setMinimumWidth(matched_->fontMetrics().horizontalAdvance(QStringLiteral("Matched 888.8 ms (100.0 %)")));
    bar->addWidget(matched_);
    bar->addWidget(zoomOut);
    bar->addWidget(exportButton);
    layout->addLayout(bar);

    tabs_ = new QTabWidget(content);
    graphStack_ = new QStackedWidget(tabs_);
    graph_ = new FlameGraphWidget(graphStack_);
    graphStack_->addWidget(scrolled(graph_, graphStack_));
    auto* pivotPage = new QWidget(graphStack_);
    auto* pivotLayout = new QVBoxLayout(pivotPage);
    pivotLayout->setContentsMargins(0, 0, 0, 0);
    auto* pivotBar = new QHBoxLayout;
    pivotLabel_ = new WrappingLabel(pivotPage);
    auto* back = new QPushButton(tr("Back to the whole graph"), pivotPage);
    pivotBar->addWidget(pivotLabel_, 1);
    pivotBar->addWidget(back);
    pivotLayout->addLayout(pivotBar);
    auto* split = new QSplitter(Qt::Vertical, pivotPage);
    callers_ = new FlameGraphWidget(split);
    callees_ = new FlameGraphWidget(split);
    // A pivot's trees merge frames from many stacks: no slice set of their own to show.
    callers_->setSlicesShown(false);
    callees_->setSlicesShown(false);
    split->addWidget(scrolled(callers_, split));
    split->addWidget(scrolled(callees_, split));
    pivotLayout->addWidget(split, 1);
    graphStack_->addWidget(pivotPage);
    tabs_->addTab(graphStack_, tr("Flame graph"));

    codeStack_ = new QStackedWidget(tabs_);
    code_ = new TablePage(codeStack_);
    code_->setFilterColumns({CodeFile, CodeFunction}, tr("Filter by file or function"));
    code_->setExportName(QStringLiteral("code_view.csv"));
    code_->setElasticColumn(CodeFile, 220);
    codeModel_ = new Model(codeColumns(), this);
    code_->setSourceModel(codeModel_, CodeSelf);
    codeStack_->addWidget(code_);
    noCode_ = new WrappingLabel(
        tr("This trace has no Python frames, so there is no code view. PyTorch records them with "
           "<tt>torch.profiler.profile(with_stack=True)</tt>; JAX's <tt>jax.profiler.trace</tt> with its Python "
           "tracer (on by default). TensorFlow 1 RunMetadata files, and XSpace captures made with the Python tracer "
           "off, carry none: the flame graph shows their ops, annotations and runtime calls."),
        codeStack_);
    noCode_->setAlignment(Qt::AlignCenter);
    noCode_->setMargin(24);
    codeStack_->addWidget(noCode_);
    tabs_->addTab(codeStack_, tr("Code"));
    frames_ = new TablePage(tabs_);
    frames_->setFilterColumns({FrameName}, tr("Filter by frame name"));
    frames_->setExportName(QStringLiteral("frames.csv"));
    frames_->setElasticColumn(FrameName, 260);
    framesModel_ = new Model(frameColumns(), this);
    frames_->setSourceModel(framesModel_, FrameSelf);
    tabs_->addTab(frames_, tr("Frames"));
    layout->addWidget(tabs_, 1);
    setContent(content);

    connect(direction_, &QComboBox::currentIndexChanged, this, [this] { showTree(); });
    // A table fits its columns to the width it has, which a hidden tab does not know yet.
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int i) {
        if (i == 1) code_->fitColumns(360);
        if (i == 2) frames_->fitColumns(460);
    });
    connect(metric_, &QComboBox::currentIndexChanged, this, [this](int i) {
        for (FlameGraphWidget* g : {graph_, callers_, callees_}) g->setMetric(CallMetric(i));
    });
    connect(byThread_, &QCheckBox::toggled, this, [this] {
        if (trace()) startAnalysis(trace());
    });
    connect(step_, &QComboBox::activated, this, [this](int i) {
        const QVariant n = step_->itemData(i);
        showStep(n.isValid() ? std::optional<int64_t>(n.toLongLong()) : std::nullopt);
    });
    followStepChoice();  // steps as the Overview finds them (the step marker choice)
    connect(search_, &QLineEdit::textChanged, this, [this](const QString& text) {
        for (FlameGraphWidget* g : {graph_, callers_, callees_}) g->setSearch(text);
        matched_->setText(graph_->matchSummary());
    });
    connect(zoomOut, &QPushButton::clicked, this, [this] { graph_->setFocusNode(kCallRoot); });
    connect(back, &QPushButton::clicked, this, [this] { pivotOn({}); });
    for (FlameGraphWidget* g : {graph_, callers_, callees_}) {
        connect(g, &FlameGraphWidget::frameActivated, this, [this, g](uint32_t node) { showSlicesOf(g, node); });
        connect(g, &FlameGraphWidget::pivotRequested, this, [this, g](uint32_t node) {
            if (g->tree()) pivotOn(qs(g->tree()->nodes[node].name));
        });
    }
    connect(graph_, &FlameGraphWidget::focusChanged, this, [this] { matched_->setText(graph_->matchSummary()); });
    const auto pivotFromRow = [this](Model* model) {
        return [this, model](int row) {
            tabs_->setCurrentIndex(0);
            pivotOn(model->row(row).name);
        };
    };
    connect(code_, &TablePage::sourceRowActivated, this, pivotFromRow(codeModel_));
    connect(frames_, &TablePage::sourceRowActivated, this, pivotFromRow(framesModel_));
}

FlameView::~FlameView() { delivery_->detach(); }

CallTreeOptions FlameView::options() const {
    CallTreeOptions o;
    o.byThread = byThread_->isChecked();
    return o;
}

void FlameView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    const CallTreeOptions base = options();
    const StepOptions stepOptions = this->stepOptions();
    const std::optional<int64_t> step = stepNumber_;
    run<Computed>(
        estimateAnalysisCost(AnalysisKind::CallTree, *trace),
        {"flame-page",
         base.key() + " step=" + (step ? std::to_string(*step) : "all") + " " + stepOptionsKey(stepOptions)},
        [base, stepOptions, step](ResultStore& results) {
            Computed c;
            c.classified = classificationOf(results);
            c.steps = findSteps(*c.classified, stepOptions);
            CallTreeOptions o = base;
            for (const Step& s : c.steps.steps)
                if (step && s.number == *step) {
                    o.range = std::make_pair(s.startNs, s.endNs());
                    c.stepNumber = step;
                }
            analysisStep("Merging call stacks", 0, 0.9);
            c.topDown = callTreeOf(results, o);
            analysisStep("Inverting the tree", 0.9, 1);
            c.bottomUp = bottomUpCallTreeOf(results, o);
            c.frames = frameTable(*c.topDown);
            return c;
        },
        [this](std::shared_ptr<const Computed> c) {
            computed_ = std::move(c);
            const CallTree& t = *computed_->topDown;
            QString notes;
            for (const std::string& n : t.notes) notes += QStringLiteral(" ") + QString::fromStdString(n);
            if (t.slices == 0 && !computed_->stepNumber) {
                showEmptyResult(tr("No call stacks in this trace.") + notes);
                return;
            }
            std::vector<Item> code, frames;
            for (const CallFrameRow& r : computed_->frames) {
                Item item{r, qs(r.name), {}, {}, 0};
                if (r.python) {
                    const auto loc = pythonLocationOf(r.name);
                    item.file = loc ? qs(loc->file) : QString();
                    item.function = loc ? qs(loc->function) : item.name;
                    item.line = loc ? loc->line : 0;
                    code.push_back(item);
                }
                if (frames.size() < kMaxTableRows) frames.push_back(std::move(item));
            }
            // The step picker: the whole trace and each step.
            step_->clear();
            step_->addItem(tr("Whole trace"));
            for (const Step& st : computed_->steps.steps)
                step_->addItem(tr("Step %1 (%2)").arg(st.number).arg(formatDuration(st.durationNs)), qint64(st.number));
            if (computed_->stepNumber) step_->setCurrentIndex(step_->findData(qint64(*computed_->stepNumber)));
            step_->setEnabled(step_->count() > 1);
            const bool hasCode = !code.empty();
            codeModel_->setRows(std::move(code));
            framesModel_->setRows(std::move(frames));
            code_->fitColumns(360);
            frames_->fitColumns(460);
            codeStack_->setCurrentWidget(hasCode ? static_cast<QWidget*>(code_) : noCode_);
            tabs_->setTabToolTip(
                1, hasCode ? tr("Python frames by file, line and function") : tr("This trace has no Python frames"));
            const CallNode& root = t.root();
            const QString where = computed_->stepNumber ? tr("Step %1: ").arg(*computed_->stepNumber) : QString();
            summary_->setText(
                where +
                tr("<b>%1</b> slices on host threads in <b>%2</b> distinct stacks (deepest %3): wall time <b>%4</b>, "
                   "device time launched <b>%5</b>. Click a frame to zoom, double-click to show its slices in the "
                   "timeline; right-click to pivot on it.")
                    .arg(formatCount(qint64(t.slices)), formatCount(qint64(t.nodes.size() - 1)),
                         QString::number(t.maxDepth), formatDuration(root.totalNs), formatDuration(root.deviceNs)) +
                (notes.isEmpty() ? QString() : QStringLiteral("<br><i>%1</i>").arg(notes.trimmed().toHtmlEscaped())));
            showTree();
            if (!pivotName_.isEmpty()) pivotOn(pivotName_);
        });
}

void FlameView::showTree() {
    if (!computed_) return;
    graph_->setTree(direction_->currentIndex() == 1 ? computed_->bottomUp : computed_->topDown);
    graph_->setSearch(search_->text());
    matched_->setText(graph_->matchSummary());
}

void FlameView::pivotOn(const QString& name) {
    pivotName_ = name;
    if (name.isEmpty() || !computed_ || !results()) {
        graphStack_->setCurrentIndex(0);
        return;
    }
    // A pivot merges the nodes of the tree the page holds (no pass over the slices, even when the
    // store dropped its tree): quick enough for the UI thread, and kept by the store.
    const std::string wanted = name.toStdString();
    const std::shared_ptr<const CallPivot> pivot =
        results()->get<CallPivot>(callPivotKey(computed_->topDown->options, wanted),
                                  [tree = computed_->topDown, wanted] { return pivotCallTree(*tree, wanted); });
    if (pivot->occurrences == 0) {
        graphStack_->setCurrentIndex(0);
        return;
    }
    // The views share the pivot's lifetime through aliasing pointers.
    callers_->setTree(std::shared_ptr<const CallTree>(pivot, &pivot->callers));
    callees_->setTree(std::shared_ptr<const CallTree>(pivot, &pivot->callees));
    pivotLabel_->setText(tr("<b>%1</b>, merged over %n places it occurs: its callers above (read downwards: "
                            "who called it), its callees below.",
                            "", int(pivot->occurrences))
                             .arg(name.toHtmlEscaped()));
    graphStack_->setCurrentIndex(1);
}

void FlameView::showStep(std::optional<int64_t> number) {
    stepNumber_ = number;
    if (trace()) startAnalysis(trace());
}

void FlameView::setBottomUp(bool on) { direction_->setCurrentIndex(on ? 1 : 0); }
void FlameView::setMetric(CallMetric metric) { metric_->setCurrentIndex(int(metric)); }
void FlameView::setSearch(const QString& text) { search_->setText(text); }

void FlameView::showSlicesOf(const FlameGraphWidget* from, uint32_t node) {
    if (!computed_ || !selection_ || from != graph_ || !from->tree()) return;  // the page's own trees only
    const std::shared_ptr<const Computed> c = computed_;
    const bool bottomUp = from->tree()->bottomUp;
    const QString label = qs(from->tree()->nodes[node].name);
    // Finding a frame's slices walks the trace again: on the runner, not the UI thread.
    constexpr size_t kMaxSlices = 100'000;
    std::shared_ptr<ResultDelivery> delivery = delivery_;
    results()->runner().submit(JobPriority::Page, 0, [c, bottomUp, node, label, delivery, this] {
        std::vector<SliceRef> slices;
        const std::vector<uint32_t> nodes =
            bottomUp ? topDownNodesOf(*c->topDown, *c->bottomUp, node) : std::vector<uint32_t>{node};
        for (uint32_t n : nodes) {
            for (SliceRef s : slicesOfCallNode(*c->classified, *c->topDown, n, kMaxSlices - slices.size()))
                slices.push_back(s);
            if (slices.size() >= kMaxSlices) break;
        }
        delivery->post([this, c, slices = std::move(slices), label]() mutable {
            if (c != computed_ || !selection_) return;  // another trace or options since
            const QString what = tr("%1: %n slices", "", int(slices.size())).arg(label);
            selection_->highlightSlices(std::move(slices), what);
        });
    });
}

bool FlameView::exportFolded(const QString& path, QString* error) const {
    if (!computed_) return false;
    // Folded stacks carry each stack's own value, so they add up: self time (also for the wall
    // metric, whose inclusive values would be counted once per ancestor), device time or slices.
    const CallMetric shown = CallMetric(metric_->currentIndex());
    const CallMetric metric = shown == CallMetric::Wall ? CallMetric::Self : shown;
    const std::string text = foldedStacks(*computed_->topDown, metric, /*leafFirst=*/direction_->currentIndex() == 1);
    OutputFile out;
    if (!out.open(path.toStdString(), isGzipPath(path.toStdString())) || !out.write(text) || !out.commit()) {
        if (error) *error = QString::fromStdString(out.error());
        return false;
    }
    return true;
}

bool FlameView::exportPprof(const QString& path, QString* error) const {
    if (!computed_) return false;
    PprofOptions po;
    if (trace() && trace()->originUnixNs) po.timeNanos = *trace()->originUnixNs + trace()->startNs;
    if (trace()) po.durationNanos = trace()->spanNs();
    std::string message;
    if (!writePprofProfile(*computed_->topDown, path.toStdString(), message, po)) {
        if (error) *error = QString::fromStdString(message);
        return false;
    }
    return true;
}

void FlameView::chooseExport(bool pprof) {
    const QString path =
        QFileDialog::getSaveFileName(this, pprof ? tr("Export pprof profile") : tr("Export folded stacks"),
                                     pprof ? QStringLiteral("profile.pb.gz") : QStringLiteral("stacks.folded"),
                                     pprof ? tr("pprof profiles (*.pb.gz)") : tr("Folded stacks (*.folded *.txt)"));
    if (path.isEmpty()) return;
    QString error;
    if (!(pprof ? exportPprof(path, &error) : exportFolded(path, &error)))
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, error));
}

QString FlameView::summaryText() const { return summary_->text(); }
bool FlameView::codeViewEmpty() const { return codeStack_->currentWidget() == noCode_; }

void FlameView::clearResult() {
    computed_.reset();
    graph_->setTree(nullptr);
    callers_->setTree(nullptr);
    callees_->setTree(nullptr);
    codeModel_->setRows({});
    framesModel_->setRows({});
    graphStack_->setCurrentIndex(0);
    codeStack_->setCurrentWidget(code_);
    summary_->clear();
    stepNumber_.reset();  // a new trace opens whole
    step_->clear();
    step_->addItem(tr("Whole trace"));
}

}  // namespace tracescope
