#include "views/flame/range_flame_panel.h"

#include "model/results/call_tree_results.h"
#include "model/results/trace_results.h"
#include "views/background_pools.h"
#include "views/flame/flame_graph_widget.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace tracescope {

RangeFlamePanel::RangeFlamePanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    direction_ = new QComboBox(this);
    direction_->addItems({tr("Top-down"), tr("Bottom-up")});
    search_ = new QLineEdit(this);
    search_->setPlaceholderText(tr("Search frames"));
    search_->setClearButtonEnabled(true);
    bar->addWidget(status_, 1);
    bar->addWidget(direction_);
    bar->addWidget(search_);
    layout->addLayout(bar);
    graph_ = new FlameGraphWidget(this);
    auto* area = new QScrollArea(this);
    area->setWidget(graph_);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(area, 1);

    connect(direction_, &QComboBox::currentIndexChanged, this, [this] { showTree(); });
    connect(search_, &QLineEdit::textChanged, graph_, &FlameGraphWidget::setSearch);
    connect(graph_, &FlameGraphWidget::frameActivated, this, &RangeFlamePanel::highlight);
    connect(&watcher_, &QFutureWatcher<std::shared_ptr<const Trees>>::finished, this, [this] {
        trees_ = watcher_.result();
        showTree();
    });
    connect(&slicesWatcher_, &QFutureWatcher<std::vector<SliceRef>>::finished, this, [this] {
        std::vector<SliceRef> slices = slicesWatcher_.result();
        if (selection_ && !slices.empty()) selection_->highlightSlices(std::move(slices), pendingLabel_);
    });
}

RangeFlamePanel::~RangeFlamePanel() {
    watcher_.waitForFinished();
    slicesWatcher_.waitForFinished();
}

void RangeFlamePanel::setTrace(std::shared_ptr<const Trace> trace) {
    watcher_.waitForFinished();
    trace_ = std::move(trace);
    trees_.reset();
    graph_->setTree(nullptr);
    status_->clear();
}

void RangeFlamePanel::showRange(TimeNs begin, TimeNs end) {
    if (!trace_) return;
    status_->setText(tr("Merging the call stacks of %1 …").arg(formatDuration(end - begin)));
    graph_->setTree(nullptr);
    trees_.reset();
    CallTreeOptions options;
    options.range = std::make_pair(begin, end);
    // A result of the trace's store (the same range asked again is not computed again).
    watcher_.setFuture(
        QtConcurrent::run(interactivePool(), [trace = trace_, options]() -> std::shared_ptr<const Trees> {
            const std::shared_ptr<ResultStore> store = ResultStore::of(trace);
            auto trees = std::make_shared<Trees>();
            trees->classified = classificationOf(*store);
            trees->topDown = callTreeOf(*store, options);
            trees->bottomUp = bottomUpCallTreeOf(*store, options);
            return trees;
        }));
}

void RangeFlamePanel::waitForTrees() {
    watcher_.waitForFinished();
    QCoreApplication::processEvents();
}

QString RangeFlamePanel::statusText() const { return status_->text(); }

void RangeFlamePanel::showTree() {
    if (!trees_) return;
    const CallTree& t = *trees_->topDown;
    graph_->setTree(direction_->currentIndex() == 1 ? trees_->bottomUp : trees_->topDown);
    graph_->setSearch(search_->text());
    if (t.slices == 0) {
        status_->setText(tr("No host thread slice in the range."));
        return;
    }
    status_->setText(tr("<b>%1</b> host slices in the range, %2 stacks: wall %3, device time launched %4")
                         .arg(formatCount(qint64(t.slices)), formatCount(qint64(t.nodes.size() - 1)),
                              formatDuration(t.root().totalNs), formatDuration(t.root().deviceNs)));
}

void RangeFlamePanel::highlight(uint32_t node) {
    if (!trees_ || !selection_ || !graph_->tree()) return;
    const std::shared_ptr<const Trees> trees = trees_;
    const bool bottomUp = graph_->tree()->bottomUp;
    const std::string_view name = graph_->tree()->nodes[node].name;
    pendingLabel_ = QString::fromUtf8(name.data(), qsizetype(name.size()));
    slicesWatcher_.setFuture(QtConcurrent::run(interactivePool(), [trees, bottomUp, node] {
        constexpr size_t kMaxSlices = 100'000;
        std::vector<SliceRef> out;
        const std::vector<uint32_t> nodes =
            bottomUp ? topDownNodesOf(*trees->topDown, *trees->bottomUp, node) : std::vector<uint32_t>{node};
        for (uint32_t n : nodes) {
            for (SliceRef s : slicesOfCallNode(*trees->classified, *trees->topDown, n, kMaxSlices - out.size()))
                out.push_back(s);
            if (out.size() >= kMaxSlices) break;
        }
        return out;
    }));
}

}  // namespace tracescope
