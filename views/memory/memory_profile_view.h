// Memory Profile page (XProf's Memory Profile, for XSpace, PyTorch and allocator counters):
// a memory id selector, the summary at the peak, the memory timeline chart, the breakdown
// of the memory in use at the peak and the leak hints. Every number comes from
// computeMemoryProfile; clicking the chart shows that time in the timeline.
#pragma once

#include "model/analysis/memory_profile.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QTabWidget;

namespace tracescope {

class MemoryChart;
class TablePage;

class MemoryProfileView : public AnalysisView {
    Q_OBJECT
public:
    explicit MemoryProfileView(QWidget* parent = nullptr);

    enum BreakdownColumn {
        Op,
        AllocationSize,
        RequestedSize,
        Occurrences,
        RegionType,
        DataType,
        Shape,
        BreakdownColumnCount
    };
    enum LeakColumn { LeakOp, LeakAllocations, LeakBytes, LeakSteps, LeakColumnCount };

    const MemoryProfileResult* result() const { return result_.get(); }
    QComboBox* memoryIdBox() const { return ids_; }
    MemoryChart* chart() const { return chart_; }
    TablePage* breakdownTable() const { return breakdown_; }
    RowTableModel<MemoryBreakdownRow>* breakdownModel() const { return breakdownModel_; }
    RowTableModel<MemoryLeakHint>* leakModel() const { return leakModel_; }
    QLabel* summaryLabel() const { return summary_; }
    // The popup text for a snapshot of the shown memory id.
    QString snapshotText(size_t snapshot) const;

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    std::shared_ptr<const MemoryProfileResult> result_;
    QComboBox* ids_ = nullptr;
    QCheckBox* showFree_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* notes_ = nullptr;
    MemoryChart* chart_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    TablePage* breakdown_ = nullptr;
    RowTableModel<MemoryBreakdownRow>* breakdownModel_ = nullptr;
    TablePage* leaks_ = nullptr;
    RowTableModel<MemoryLeakHint>* leakModel_ = nullptr;

    void showResult();
    void showMemoryId(int index);
    const MemoryIdProfile* current() const;
    void jumpToSnapshot(uint32_t snapshot);
};

}  // namespace tracescope
