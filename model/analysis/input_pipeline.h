// Input-pipeline analyzer (§7.5): how long the device waited for input each step, and
// where the host spent its input time.
#pragma once

#include "model/query/slice_row_index.h"

#include "model/analysis/overview.h"
#include "model/analysis/step_set.h"
#include "model/analysis/steps.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope {

// Host input-op categories (§7.5). Enqueue: infeed / MemcpyHToD ops. Demanded file read:
// a dataset op ending in ::TFRecord, ::TextLine, ::FixedLengthRecord, ::SSTable, ::RecordIO or
// ::ArrayRecord with no caching/interleave/prefetch/parallel-map stage in its chain.
// Advanced file read: the same with ::MemoryReader, ::MemoryWriter, ::Interleave, ::Prefetch or
// ::ParallelMap in the chain. Preprocessing: every other dataset op.
// PyTorch: DataLoader annotations ("enumerate(DataLoader)#...") count as Preprocessing.
enum class InputOpCategory : uint8_t { Enqueue, DemandedFileRead, AdvancedFileRead, Preprocessing, Count };
inline constexpr size_t kInputOpCategoryCount = static_cast<size_t>(InputOpCategory::Count);
const char* inputOpCategoryName(InputOpCategory c);

// False when the name is not an input op at all.
bool classifyInputOp(std::string_view name, InputOpCategory& out);

struct DeviceInputStep {
    int64_t stepNumber = 0;
    TimeNs stepNs = 0;
    TimeNs waitInputNs = 0;  // Input category of the step breakdown
    double waitPercent = 0;
    bool inStepSet = true;  // the step is one the averages are taken over (step_set.h)
};

struct InputOpRow {
    std::string name;
    InputOpCategory category = InputOpCategory::Preprocessing;
    uint64_t count = 0;
    TimeNs totalNs = 0;
    TimeNs selfNs = 0;
    double totalPercent = 0;  // of all input ops' total time
    double selfPercent = 0;
};

struct InputPipelineResult {
    StepSource stepSource = StepSource::None;
    std::vector<DeviceInputStep> steps;                            // every step
    std::vector<StepBreakdown> breakdown;                          // every step, in the same order
    StepSet stepSet;                                               // the steps the figures below are taken over
    std::array<CategorySummary, kStepCategoryCount> categories{};  // over the step set
    // Input time summed over the step set / step time summed over it, in % (XProf's input %;
    // the Overview's input_percent).
    double inputPercent = 0;
    Distribution waitNs;       // over the step set
    Distribution waitPercent;  // the mean of per-step ratios over the step set (not inputPercent)
    InputBound verdict = InputBound::Unknown;
    std::string summary;  // one paragraph
    // Host side.
    TimeNs hostInputSelfNs = 0;  // self time of all input ops
    std::array<TimeNs, kInputOpCategoryCount> byCategoryNs{};
    std::vector<InputOpRow> ops;  // sorted by self time, descending
};

InputPipelineResult computeInputPipeline(const Trace& trace, const StepOptions& stepOptions = {});
InputPipelineResult computeInputPipeline(const ClassifiedTrace& ct, const StepOptions& stepOptions = {});

std::vector<SliceRef> occurrencesOf(const Trace& trace, const InputPipelineResult& result, size_t opRow);
std::vector<SliceRef> occurrencesOf(const ClassifiedTrace& classified, const InputPipelineResult& result, size_t opRow);

// Every input op slice's row in result.ops, in one pass.
SliceRowIndex sliceRowIndexOf(const Trace& trace, const InputPipelineResult& result);
SliceRowIndex sliceRowIndexOf(const ClassifiedTrace& classified, const InputPipelineResult& result);

}  // namespace tracescope
