#include "views/flame/range_flame_panel.h"

#include "model/results/call_tree_results.h"
#include "model/results/trace_results.h"
#include "views/flame/flame_graph_widget.h"
#include "views/result_delivery.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QVBoxLayout>

namespace tracescope {

RangeFlamePanel::RangeFlamePanel(QWidget* parent) : QWidget(parent), delivery_(ResultDelivery::to(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    status_ = new WrappingLabel(this);
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
}

RangeFlamePanel::~RangeFlamePanel() {
    delivery_->detach();
    request_.cancel();
}

void RangeFlamePanel::setTrace(std::shared_ptr<const Trace> trace) {
    request_.cancel();
    ++rangeGeneration_;
    pending_ = false;
    trace_ = std::move(trace);
    store_ = trace_ ? ResultStore::of(trace_) : nullptr;
    trees_.reset();
    graph_->setTree(nullptr);
    status_->clear();
}

void RangeFlamePanel::showRange(TimeNs begin, TimeNs end) {
    if (!store_) return;
    status_->setText(tr("Merging the call stacks of %1 …").arg(formatDuration(end - begin)));
    graph_->setTree(nullptr);
    trees_.reset();
    CallTreeOptions options;
    options.range = std::make_pair(begin, end);
    // The bottom-up tree asks for the top-down one: both are the store's results (a range asked
    // again is not computed again), made on the runner.
    std::weak_ptr<ResultStore> weak = store_;
    std::shared_ptr<ResultDelivery> delivery = delivery_;
    const uint64_t generation = ++rangeGeneration_;
    pending_ = true;
    request_ = store_->request<CallTree>(
        bottomUpCallTreeKey(options), JobPriority::Interactive, 0, bottomUpCallTreeWith(*store_, options),
        [weak, delivery, options, generation, this](std::shared_ptr<const CallTree> bottomUp,
                                                    std::exception_ptr error) {
            std::shared_ptr<ResultStore> store = weak.lock();
            std::shared_ptr<Trees> trees;
            if (store && bottomUp && !error) {
                trees = std::make_shared<Trees>();
                trees->classified = classificationOf(*store);
                trees->topDown = callTreeOf(*store, options);
                trees->bottomUp = std::move(bottomUp);
            }
            delivery->post([this, trees, generation] {
                if (generation != rangeGeneration_) return;  // an older range's, delivered late
                pending_ = false;
                trees_ = trees;
                if (!trees_) status_->setText(tr("The call stacks of the range could not be merged."));
                showTree();
            });
        });
}

void RangeFlamePanel::waitForTrees() {
    QElapsedTimer waited;
    waited.start();
    while (pending_ && waited.elapsed() < 60'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
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
    if (!trees_ || !selection_ || !graph_->tree() || !store_) return;
    const std::shared_ptr<const Trees> trees = trees_;
    const bool bottomUp = graph_->tree()->bottomUp;
    const std::string_view name = graph_->tree()->nodes[node].name;
    const QString label = QString::fromUtf8(name.data(), qsizetype(name.size()));
    const uint64_t generation = ++highlightGeneration_;
    std::shared_ptr<ResultDelivery> delivery = delivery_;
    // Finding a frame's slices walks the trace again: on the runner, not the UI thread.
    store_->runner().submit(JobPriority::Interactive, 0, [trees, bottomUp, node, label, generation, delivery, this] {
        constexpr size_t kMaxSlices = 100'000;
        std::vector<SliceRef> slices;
        const std::vector<uint32_t> nodes =
            bottomUp ? topDownNodesOf(*trees->topDown, *trees->bottomUp, node) : std::vector<uint32_t>{node};
        for (uint32_t n : nodes) {
            for (SliceRef s : slicesOfCallNode(*trees->classified, *trees->topDown, n, kMaxSlices - slices.size()))
                slices.push_back(s);
            if (slices.size() >= kMaxSlices) break;
        }
        delivery->post([this, trees, slices = std::move(slices), label, generation]() mutable {
            // Only the latest double click, on the trees still shown.
            if (generation != highlightGeneration_ || trees != trees_ || !selection_ || slices.empty()) return;
            selection_->highlightSlices(std::move(slices), label);
        });
    });
}

}  // namespace tracescope
