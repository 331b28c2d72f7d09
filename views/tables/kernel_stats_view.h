// GPU Kernel Stats page (XProf "GPU Kernel Stats", §7.3): one row per kernel launch
// configuration and op, with registers, shared memory, block/grid, occupancy,
// TensorCore eligibility/use, occurrences and durations. Numbers come from computeKernelStats.
#pragma once

#include "model/analysis/kernel_stats.h"
#include "model/query/slice_row_index.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QLabel;

namespace tracescope {

class TablePage;

class KernelStatsView : public AnalysisView {
    Q_OBJECT
public:
    explicit KernelStatsView(QWidget* parent = nullptr);

    struct Item {
        KernelStatsRow row;
        int rank = 0;  // 1-based, by total duration (= result row index + 1)
    };
    enum Column {
        Rank,
        Kernel,
        Registers,
        SharedMem,
        Block,
        Grid,
        Occupancy,
        TcEligible,
        UsesTc,
        Op,
        Occurrences,
        Total,
        Avg,
        Min,
        Max,
        ColumnCount
    };

    TablePage* table() const { return table_; }
    RowTableModel<Item>* model() const { return model_; }
    QString summaryText() const;  // the line above the table (for tests)
    const KernelStatsResult* result() const { return computed_ ? &computed_->result : nullptr; }

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    struct Computed {
        KernelStatsResult result;  // the kMaxTableRows rows the table shows at most
        SliceRowIndex sliceRows;
        std::shared_ptr<const ClassifiedTrace> classified;  // the store's, which the rows' occurrences are found on
    };
    std::shared_ptr<const Computed> computed_;
    TablePage* table_ = nullptr;
    RowTableModel<Item>* model_ = nullptr;
    QLabel* summary_ = nullptr;

    void activateRow(int row);
    void selectSlice(SliceRef slice) override;
};

// "128,1,1" as shown in the Block / Grid columns.
QString formatDim3(const Dim3& d);

}  // namespace tracescope
