// The Op Stats page's "PyTorch (key_averages)" mode: torch.profiler's table with its own
// column names (Self CPU, CPU total, Self CUDA, CUDA total, # of Calls), grouping by input
// shape or stack frames, filter, sort and CSV. It shows a result; the page computes it.
#pragma once

#include "model/analysis/torch_ops.h"
#include "views/tables/analysis_table_model.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QSpinBox;

namespace tracescope {

class TablePage;

class TorchOpsTable : public QWidget {
    Q_OBJECT
public:
    explicit TorchOpsTable(QWidget* parent = nullptr);

    struct Item {
        TorchOpRow row;
        size_t resultIndex = 0;
    };
    // torch's column order, except # of Calls, which comes after the name so it stays in view.
    enum Column { Name, Calls, SelfCpuPct, SelfCpu, CpuTotalPct, CpuTotal, CpuAvg, SelfCuda, SelfCudaPct, CudaTotal,
                  CudaAvg, InputShapes, Stack, ColumnCount };

    void setResult(const TorchOpsResult& result);
    void clear();
    // The grouping the user asked for.
    TorchOpsOptions options() const;
    // Selects the table row of result row `resultIndex` (false if not shown).
    bool selectResultRow(size_t resultIndex);

    TablePage* table() const { return table_; }
    RowTableModel<Item>* model() const { return model_; }
    QCheckBox* groupByShapeBox() const { return byShape_; }

signals:
    void optionsChanged();
    // A row was double-clicked: highlight the occurrences of result row `resultIndex`.
    void rowActivated(size_t resultIndex);

private:
    TablePage* table_;
    RowTableModel<Item>* model_;
    QCheckBox* byShape_;
    QSpinBox* stackFrames_;
    QLabel* summary_;
};

}  // namespace tracescope
