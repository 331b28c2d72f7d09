// The flame graph of a timeline range selection, for the details dock: the host threads' call
// stacks inside [begin, end) (slices cut by the range count their part in it), top-down or
// bottom-up, computed as a result of the trace's store off the UI thread. A double click on a
// frame highlights its slices in the timeline.
#pragma once

#include "model/analysis/call_tree.h"
#include "model/trace/trace.h"

#include <QFutureWatcher>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;

namespace tracescope {

class FlameGraphWidget;
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
    // For tests: waits until the range's trees arrived.
    void waitForTrees();

    struct Trees {
        std::shared_ptr<const ClassifiedTrace> classified;
        std::shared_ptr<const CallTree> topDown, bottomUp;
    };

private:
    void showTree();
    void highlight(uint32_t node);

    std::shared_ptr<const Trace> trace_;
    TraceSelection* selection_ = nullptr;
    QLabel* status_ = nullptr;
    QComboBox* direction_ = nullptr;
    QLineEdit* search_ = nullptr;
    FlameGraphWidget* graph_ = nullptr;
    std::shared_ptr<const Trees> trees_;
    QFutureWatcher<std::shared_ptr<const Trees>> watcher_;
    QFutureWatcher<std::vector<SliceRef>> slicesWatcher_;
    QString pendingLabel_;
};

}  // namespace tracescope
