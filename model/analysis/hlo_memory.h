// The compiler's memory view of an XLA program (XProf's memory viewer), from its buffer
// assignment: the heap over the program's run as XLA's heap simulator recorded it (each logical
// buffer allocated and freed in the HLO sequence; buffers sharing memory counted once), on top
// of the allocations that live for the whole run (entry parameters, results that may live out,
// constants). Peak heap = the simulated peak + those; the buffers live at the peak, largest
// first, with their size, shape, HLO instruction, framework op and source line.
#pragma once

#include "model/analysis/hlo_program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

enum class HloBufferKind : uint8_t { Parameter, Output, Constant, Temporary };
const char* hloBufferKindName(HloBufferKind k);  // "parameter", "output", "constant", "temporary"

struct HloLiveBuffer {
    int64_t logicalBufferId = 0;
    int64_t bytes = 0;
    HloBufferKind kind = HloBufferKind::Temporary;
    std::string instruction;  // with its shape index when not the whole result: "custom-call.1{0}"
    std::string shape;        // "bf16[2,2048,16,128]"
    std::string opcode;
    std::string frameworkOp;  // metadata op_name
    std::string source;       // "file:line", or ""
};

struct HloMemoryView {
    bool available = false;  // the program carries a buffer assignment
    int64_t peakBytes = 0;            // simulated peak + whole-run allocations
    int64_t simulatedPeakBytes = 0;   // the heap simulation's own peak
    int64_t wholeRunBytes = 0;        // parameters + may-live-out results + constants
    int64_t parameterBytes = 0;
    int64_t liveOutBytes = 0;
    int64_t totalAllocationBytes = 0;  // every buffer allocation of the assignment
    size_t peakEvent = 0;              // index into heapBytes of the peak
    std::vector<int64_t> heapBytes;    // the heap before the first event, then after each
    std::vector<HloLiveBuffer> liveAtPeak;  // largest first
    std::vector<std::string> notes;
};

HloMemoryView computeHloMemoryView(const HloProgram& program);

}  // namespace tracescope
