// Collective communication against compute on a trace's devices, as Holistic Trace Analysis'
// get_comm_comp_overlap measures it: the union of the communication kernels' intervals (NCCL; RCCL
// keeps the names), the union of the other kernels', and their intersection: the communication
// hidden behind compute. The Pod page (per worker and step) and the collectives analysis use it.
#pragma once

#include "model/analysis/op_classify.h"

#include <utility>
#include <vector>

namespace tracescope {

// Collective communication vs compute on one worker's devices within a time window.
struct CommOverlap {
    TimeNs communicationNs = 0;  // union of collective kernels
    TimeNs computeNs = 0;        // union of the other kernels
    TimeNs overlappedNs = 0;     // communication during which a compute kernel ran
    TimeNs exposedNs = 0;        // communication - overlapped: nothing else on the device

    // HTA's comp_comm_overlap_pctg: overlapped / communication (0 without communication, where HTA's
    // is NaN: callers show none).
    double percent() const {
        return communicationNs > 0 ? 100.0 * double(overlappedNs) / double(communicationNs) : 0.0;
    }
};

using Intervals = std::vector<std::pair<TimeNs, TimeNs>>;  // sorted, disjoint

// Collective and compute kernel time of a trace's devices, each as one union.
struct KernelUnions {
    Intervals communication, compute;
};
KernelUnions kernelUnionsOf(const ClassifiedTrace& ct);
// The overlap within [startNs, endNs).
CommOverlap overlapIn(const KernelUnions& k, TimeNs startNs, TimeNs endNs);
// The overlapped time itself: communication ∩ compute, sorted and disjoint.
Intervals overlappedIntervals(const KernelUnions& k);
// The part of sorted disjoint intervals inside [startNs, endNs).
Intervals clipIntervals(const Intervals& v, TimeNs startNs, TimeNs endNs);

// Overlap of collectives and compute kernels of a trace inside [startNs, endNs).
CommOverlap commOverlapIn(const ClassifiedTrace& ct, TimeNs startNs, TimeNs endNs);

}  // namespace tracescope
