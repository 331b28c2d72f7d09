// The query tracks of a saved timeline layout (model/query/user_layout.h), made again when the
// file opens: each saved SQL runs on a database of the store's trace with the analysis tables
// (model/results/sql_result_tables.h) and its rows become a track (model/sql/query_track.h:
// boxes or a counter). A query that fails, runs past the timeout or lacks the columns makes an
// empty track whose `error` says why (so it can be seen and removed).
#pragma once

#include "model/analysis/memory_tracks.h"
#include "model/query/user_layout.h"
#include "model/results/result_store.h"

#include <chrono>
#include <string>
#include <vector>

namespace tracescope {

std::vector<DerivedCounterTrack> runSavedQueryTracks(ResultStore& store, const std::vector<SavedQueryTrack>& saved,
                                                     std::chrono::milliseconds timeout);

}  // namespace tracescope
