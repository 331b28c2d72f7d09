// Op Stats page in two conventions. "XProf (TF Stats)": per-op occurrences, total and self
// time for the host or device side, grouped by op name or type, with or without IDLE, and
// two pies of self time (computeOpStats). "PyTorch (key_averages)": torch.profiler's table
// (computeTorchOps), the default for Chrome JSON traces.
#pragma once

#include "model/analysis/op_stats.h"
#include "model/analysis/torch_ops.h"
#include "model/query/slice_row_index.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QStackedWidget;

namespace tracescope {

class PieChart;
class TablePage;
class TorchOpsTable;

class OpStatsView : public AnalysisView {
    Q_OBJECT
public:
    explicit OpStatsView(QWidget* parent = nullptr);

    // One table row: an analysis row and where it sits in the result.
    struct Item {
        OpStatsRow row;
        size_t resultIndex = 0;
        int rank = 0;  // 1-based, within the side
    };
    enum Column {
        Rank,
        Type,
        Name,
        Occurrences,
        Total,
        Avg,
        Min,
        Max,
        TotalSelf,
        AvgSelf,
        SelfPct,
        CumulativePct,
        TensorCorePct,
        ColumnCount
    };

    enum class Convention { XProf, PyTorch };
    Convention convention() const;
    void setConvention(Convention c);
    QComboBox* conventionBox() const { return convention_; }
    TorchOpsTable* torchTable() const { return torchTable_; }
    const TorchOpsResult* torchResult() const { return torchComputed_ ? &torchComputed_->result : nullptr; }

    TablePage* table() const { return table_; }
    RowTableModel<Item>* model() const { return model_; }
    QComboBox* sideBox() const { return side_; }
    QComboBox* groupBox() const { return group_; }
    QCheckBox* idleBox() const { return idle_; }
    PieChart* opPie() const { return opPie_; }
    PieChart* typePie() const { return typePie_; }
    const OpStatsResult* result() const { return computed_ ? &computed_->result : nullptr; }
    OpSide side() const;

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    struct Computed {
        OpStatsResult result;
        SliceRowIndex sliceRows;                            // slice -> result row
        std::shared_ptr<const ClassifiedTrace> classified;  // the store's, which the rows' occurrences are found on
    };
    std::shared_ptr<const Computed> computed_;
    struct TorchComputed {
        TorchOpsResult result;
        SliceRowIndex sliceRows;
        std::shared_ptr<const ClassifiedTrace> classified;  // the store's, which the rows' occurrences are found on
    };
    std::shared_ptr<const TorchComputed> torchComputed_;
    QWidget* conventionRow_ = nullptr;
    QComboBox* convention_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    TorchOpsTable* torchTable_ = nullptr;
    TablePage* table_ = nullptr;
    RowTableModel<Item>* model_ = nullptr;
    QComboBox* side_ = nullptr;
    QComboBox* group_ = nullptr;
    QCheckBox* idle_ = nullptr;
    QLabel* summary_ = nullptr;
    PieChart* opPie_ = nullptr;
    PieChart* typePie_ = nullptr;

    void recompute();
    void recomputeTorch();
    void activateTorchRow(size_t resultIndex);
    void showSide();
    void activateRow(int modelRow);
    void selectSlice(SliceRef slice) override;
};

}  // namespace tracescope
