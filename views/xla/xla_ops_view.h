// XLA Ops page (XProf's HLO Op Profile, HLO Op Stats and Roofline Model): per XLA program and
// HLO op, device time, FLOPs and bytes from XLA's cost analysis, FLOP rate and bandwidth with
// their utilisation of the device's peaks, the bound and XProf's "wasted time"; and the
// roofline chart of the same ops and programs; and the compiler's memory view of a program
// (peak heap from its buffer assignment, the buffers live at the peak); and the graph around
// the op selected in the table (HLO instructions with device time, the critical chain marked,
// a fusion opened on request; clicking an instruction shows its activities and row). Double-clicking an op highlights its device
// activities in the timeline; selecting an activity there selects its op. Every figure is a
// result of the trace's store (model/results/hlo_results.h, model/analysis/hlo_roofline.h).
#pragma once

#include "model/analysis/hlo_roofline.h"
#include "model/query/slice_row_index.h"
#include "model/results/hlo_results.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"


class QCheckBox;
class QComboBox;
class QSpinBox;
class QLabel;
class QTabWidget;

namespace tracescope {

class PipelineGraphView;
class RooflineChart;
class TablePage;

class XlaOpsView : public AnalysisView {
    Q_OBJECT
public:
    explicit XlaOpsView(QWidget* parent = nullptr);

    struct Computed {
        std::shared_ptr<const HloOpProfileResult> profile;
        RooflineResult roofline;
        std::vector<std::shared_ptr<const HloMemoryResult>> memory;  // per program, programs with device time first
        SliceRowIndex rowOfActivity;  // an activity -> its op's row
    };
    enum Column {
        Program,
        Category,
        Op,
        Occurrences,
        Time,
        TimePercent,
        Gflops,
        FlopsUtil,
        Bandwidth,
        HbmUtil,
        Intensity,
        Bound,
        Wasted,
        FrameworkOp,
        Source,
        ColumnCount
    };

    // --view ids of the tabs, in tab order: hlo-ops, roofline, memory-view, hlo-graph.
    static QStringList tabIds();
    QStringList partIds() const override { return tabIds(); }
    bool showPart(const QString& id) override;

    QString summaryText() const;
    TablePage* table() const { return table_; }
    RooflineChart* roofline() const { return chart_; }
    TablePage* memoryTable() const { return memoryTable_; }
    QComboBox* memoryProgram() const { return memoryProgram_; }
    QString memorySummaryText() const;
    PipelineGraphView* graph() const { return graph_; }
    QSpinBox* graphRadius() const { return radius_; }
    QCheckBox* graphInsideFusion() const { return inside_; }
    // The instruction the Graph tab centres on (an op profile row's), and its nodes' instructions.
    void showGraph(const HloProgram* program, const xla::HloInstructionProto* op);
    const std::vector<const xla::HloInstructionProto*>& graphNodes() const { return graphNodes_; }
    QTabWidget* tabs() const { return tabs_; }
    const Computed* computed() const { return computed_.get(); }

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;
    void selectSlice(SliceRef slice) override;

private:
    std::shared_ptr<const Computed> computed_;
    QLabel* summary_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    TablePage* table_ = nullptr;
    RowTableModel<const HloOpRow*>* model_ = nullptr;
    RooflineChart* chart_ = nullptr;
    QComboBox* memoryProgram_ = nullptr;
    QLabel* memorySummary_ = nullptr;
    TablePage* memoryTable_ = nullptr;
    RowTableModel<const HloLiveBuffer*>* memoryModel_ = nullptr;

    PipelineGraphView* graph_ = nullptr;
    QSpinBox* radius_ = nullptr;
    QCheckBox* inside_ = nullptr;
    QLabel* graphTitle_ = nullptr;
    const HloProgram* graphProgram_ = nullptr;
    const xla::HloInstructionProto* graphCenter_ = nullptr;
    std::vector<const xla::HloInstructionProto*> graphNodes_;
    // The roofline chart and the graph are built when their tab is first shown after a change:
    // Qt Charts makes an item per marker and the graph is laid out by Graphviz, together about
    // half of the page's first-visit stall on a 19,000-op program when built with the table.
    bool rooflineStale_ = false;
    bool graphStale_ = false;

    void activateRow(int row);
    void showMemoryOf(int program);  // an index into computed_->memory
    void redrawGraph();
    void refreshShownTab();  // builds the roofline or graph if its tab is current and stale
    void graphNodeClicked(int node);
    int rowOf(const HloProgram* program, const std::string& op) const;  // -1: no row
};

}  // namespace tracescope
