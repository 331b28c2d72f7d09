// The analyses as SQL tables of a trace's database (model/sql/trace_database.h): op_stats
// (XProf's convention, by op name, IDLE rows included), kernel_stats, steps (as the Overview
// finds them), step_breakdown (their time by category), torch_ops (PyTorch's key_averages
// convention), tf_data_calls (the tf.data page's calls and iterators), call_tree (the flame
// graph's top-down tree over the whole trace), memory_events
// and memory_peaks (the memory profile), gpu_idle_gaps (HTA's idle time breakdown, gap by gap)
// launches (HTA's kernel launch statistics) and collectives (each collective call with its
// nccl-tests bandwidths). Each is a result of the trace's store, computed
// on the first query that reads it from the store's own analyses.
#pragma once

#include "model/results/result_store.h"
#include "model/sql/trace_database.h"

namespace tracescope {

void addAnalysisTables(sql::TraceDatabase& db, ResultStore& store);

}  // namespace tracescope
