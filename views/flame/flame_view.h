// Flame Graph page: where the host's time goes by call stack (model/analysis/call_tree.h), as
// Perfetto's and speedscope's flame graphs show it. Top-down (callers above their callees) or
// bottom-up (the frames where time is spent, their callers below); frames sized by wall time, self
// time, the device time they launched or their slices; threads merged or apart; search, zoom on
// click, pivot on a frame (its callers and callees, merged over every place it occurs); a double
// click shows a frame's slices in the timeline; the whole trace or one step. The Code tab is the code view: Python frames by
// file, line and function; the Frames tab every frame name. Exports: folded stacks and pprof.
#pragma once

#include "model/analysis/call_tree.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QToolButton;

namespace tracescope {

class FlameGraphWidget;
class ResultDelivery;
class TablePage;

class FlameView : public AnalysisView {
    Q_OBJECT
public:
    explicit FlameView(QWidget* parent = nullptr);
    ~FlameView() override;

    struct Computed {
        std::shared_ptr<const ClassifiedTrace> classified;
        StepsResult steps;                  // the trace's steps (the step marker choice)
        std::optional<int64_t> stepNumber;  // the step shown, when one is
        std::shared_ptr<const CallTree> topDown;
        std::shared_ptr<const CallTree> bottomUp;
        std::vector<CallFrameRow> frames;
    };
    struct FrameItem {
        CallFrameRow row;
        QString name, file, function;
        qint64 line = 0;
    };

    const Computed* computed() const { return computed_.get(); }
    FlameGraphWidget* graph() const { return graph_; }
    FlameGraphWidget* callersGraph() const { return callers_; }
    FlameGraphWidget* calleesGraph() const { return callees_; }
    TablePage* codeTable() const { return code_; }
    // True when the Code tab shows its "no Python frames" message instead of the table.
    bool codeViewEmpty() const;
    TablePage* framesTable() const { return frames_; }
    QTabWidget* tabs() const { return tabs_; }
    QString summaryText() const;
    // Shows the callers and callees of every frame named `name` (empty: back to the whole graph).
    void pivotOn(const QString& name);
    void setBottomUp(bool on);
    void setMetric(CallMetric metric);
    void setSearch(const QString& text);
    // Only step `number` (as the Overview numbers it), or the whole trace.
    void showStep(std::optional<int64_t> number);
    // Writes the shown selection's folded stacks or pprof profile; false with `error` set.
    bool exportFolded(const QString& path, QString* error) const;
    bool exportPprof(const QString& path, QString* error) const;

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    void showTree();
    void showSlicesOf(const FlameGraphWidget* from, uint32_t node);
    void chooseExport(bool pprof);
    CallTreeOptions options() const;

    std::shared_ptr<const Computed> computed_;
    std::shared_ptr<ResultDelivery> delivery_;
    QLabel* summary_ = nullptr;
    QComboBox* direction_ = nullptr;
    QComboBox* metric_ = nullptr;
    QCheckBox* byThread_ = nullptr;
    QComboBox* step_ = nullptr;
    std::optional<int64_t> stepNumber_;  // the step asked for
    QLineEdit* search_ = nullptr;
    QLabel* matched_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QStackedWidget* graphStack_ = nullptr;
    FlameGraphWidget* graph_ = nullptr;
    QLabel* pivotLabel_ = nullptr;
    FlameGraphWidget* callers_ = nullptr;
    FlameGraphWidget* callees_ = nullptr;
    QStackedWidget* codeStack_ = nullptr;
    TablePage* code_ = nullptr;
    QLabel* noCode_ = nullptr;
    TablePage* frames_ = nullptr;
    RowTableModel<FrameItem>* codeModel_ = nullptr;
    RowTableModel<FrameItem>* framesModel_ = nullptr;
    QString pivotName_;
};

}  // namespace tracescope
