// The flame graph of a timeline range selection, for the details dock: the host threads' call
// stacks inside [begin, end) (slices cut by the range count their part in it), top-down or
// bottom-up, asked of the trace's store at the job runner's interactive priority (a newer range
// withdraws the request for the older one). A double click on a frame highlights its slices in the
// timeline.
#pragma once

#include "model/analysis/call_tree.h"
#include "model/results/result_store.h"
#include "model/trace/trace.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;

namespace tracescope {

class FlameGraphWidget;
class ResultDelivery;
class TraceSelection;

class RangeFlamePanel : public QWidget {
    Q_OBJECT
public:
    explicit RangeFlamePanel(QWidget* parent = nullptr);
    ~RangeFlamePanel() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    void setSelection(TraceSelection* selection) { selection_ = selection; }
    void showRange(TimeNs begin, TimeNs end);

    FlameGraphWidget* graph() const { return graph_; }
    QString statusText() const;
    // For tests and screenshots: waits (handling events, at most a minute) until the range's trees
    // arrived.
    void waitForTrees();

    struct Trees {
        std::shared_ptr<const ClassifiedTrace> classified;
        std::shared_ptr<const CallTree> topDown, bottomUp;
    };

private:
    void showTree();
    void highlight(uint32_t node);

    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<ResultStore> store_;
    std::shared_ptr<ResultDelivery> delivery_;
    ResultRequest request_;
    bool pending_ = false;              // a range's trees are asked for and not there yet
    uint64_t rangeGeneration_ = 0;      // the latest range's (or trace's)
    uint64_t highlightGeneration_ = 0;  // the latest double click's
    TraceSelection* selection_ = nullptr;
    QLabel* status_ = nullptr;
    QComboBox* direction_ = nullptr;
    QLineEdit* search_ = nullptr;
    FlameGraphWidget* graph_ = nullptr;
    std::shared_ptr<const Trees> trees_;
};

}  // namespace tracescope
