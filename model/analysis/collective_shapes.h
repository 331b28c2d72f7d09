// What a collective's recorded shapes say when the trace has no collective metadata: PyTorch's
// profiler with record_shapes=True writes each op's "Input Dims" and "Input type" (one entry per
// argument of the op's schema). gloo traces carry no record_param_comms metadata, but their
// `c10d::<kind>_` dispatcher ops and gloo's `gloo:<kind>` worker runs do carry shapes:
//  * `c10d::allreduce_(Tensor[] tensors, …)`, `broadcast_`, `reduce_`: the tensors moved;
//  * `c10d::_allgather_base_(Tensor output, Tensor input, …)`, `_reduce_scatter_base_` and
//    `alltoall_base_` likewise: output first, then input (PyTorch's c10d op schemas, Ops.cpp);
//  * `c10d::allgather_(Tensor[][] output, Tensor[] input, …)`: the output lists are not recorded;
//  * a `gloo:<kind>` run: the one tensor it works on, with its C++ element type ("float").
// And which process group a gloo run belongs to: ProcessGroupGloo starts its worker threads
// (named "pt_gloo_runloop", two by default) when the group is made, so in
// thread-id order the threads follow the order the groups were made in, which is the order of
// Kineto's `distributedInfo.pg_config` (pg_name "0", "1", …).
#pragma once

#include "model/trace/job_identity.h"
#include "model/trace/trace.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope {

// Per argument of "Input Dims" (JSON text such as `[[[1000003]], [], [262144]]`): its elements, a
// tensor's dims multiplied, a tensor list's tensors added; -1 for an argument that holds no tensor
// (`[]`: a scalar or an unrecorded list of lists), for overflow, and for text that does not parse.
std::vector<int64_t> argumentElements(std::string_view inputDims);

// Kineto's dtype name ("Float", "BFloat16", as record_param_comms writes it) of the C++ element
// type PyTorch writes in "Input type" ("float", "c10::BFloat16", "long int"); "" when unknown.
std::string dtypeOfCppType(std::string_view cppType);

// The first entry of a JSON array of strings ("Input type": `["float", "float", "", …]`); "" when none.
std::string firstListString(std::string_view jsonList, size_t index = 0);

// Elements in and out of a c10d op of a kind (normalized: "allreduce", "_allgather_base", …) from
// its argument elements; -1 where the shapes do not say.
struct CallElements {
    int64_t in = -1, out = -1;
};
CallElements c10dCallElements(std::string_view kind, const std::vector<int64_t>& args);

// The names of the process groups distributedInfo lists with the trace's rank in them, in the
// order they were made (by pg_name as a number, where every name is one; else by name).
std::vector<std::string> groupsOfRank(const DistributedInfo& dist);

// The process group (pg_name) of each gloo worker thread of a trace's process, where the trace
// says it unambiguously: `workerTracks` are its "pt_gloo_runloop" threads; `rank` the trace's rank.
// Empty unless there are two threads for each group the rank belongs to and the groups' names are
// the numbers that give their order.
std::map<TrackIndex, std::string> glooThreadGroups(const Trace& t, std::vector<TrackIndex> workerTracks,
                                                   const DistributedInfo& dist);

}  // namespace tracescope
